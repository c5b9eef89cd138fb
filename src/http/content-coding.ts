import type { Context } from 'koa';

export type Encoding = 'br' | 'gzip';

/** What is offered, the server's preference first when a client names several alike. */
const OFFERED: readonly Encoding[] = ['br', 'gzip'];
// RFC 9110 asks a recipient to read x-gzip as gzip.
const ALIASES: Record<string, Encoding> = { 'x-gzip': 'gzip' };
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;
const THRESHOLD_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)\b|application\/[\w.-]+\+json\b|image\/svg\+xml\b)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const EMPTY_STATUSES = new Set([204, 205, 304]);

/** The weight of each coding an Accept-Encoding header names (RFC 9110, 12.5.3); a malformed weight refuses its coding. */
function weights(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (name === '') continue;
    const lower = name.toLowerCase();
    // Own properties only: a header's "constructor" is every object's.
    const coding = Object.hasOwn(ALIASES, lower) ? ALIASES[lower]! : lower;
    let weight = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=').map((piece) => piece.trim());
      if (key.toLowerCase() === 'q') weight = QVALUE.test(value) ? Number(value) : 0;
    }
    named.set(coding, weight);
  }
  return named;
}

/**
 * The coding to send, or null for none: the offered coding the client weighs highest, never one
 * it weighs 0. Between codings it names alike, br; when only `*` admits them, gzip, which every
 * client that takes anything can read. Without the header, none: a client that sends nothing
 * may decode nothing.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (header === undefined || header.trim() === '') return null;
  const named = weights(header);
  const any = named.get('*') ?? 0;
  const weightOf = (encoding: Encoding) => named.get(encoding) ?? any;
  const best = Math.max(...OFFERED.map(weightOf));
  if (best <= 0) return null;
  const chosen = OFFERED.filter((encoding) => weightOf(encoding) === best);
  return chosen.find((encoding) => named.has(encoding)) ?? (chosen.includes('gzip') ? 'gzip' : chosen[0]!);
}

/**
 * The coding this answer will be sent in, given its body's length: none for HEAD (it has no body
 * to encode), empty and partial answers, a body already encoded or marked no-transform, a type
 * that does not compress (images), or a body under 1 KB; else what the client accepts.
 * Compression sends it, and conditionalGet tags the answer with it before it is sent.
 */
export function codingFor(ctx: Context, byteLength: number): Encoding | null {
  if (ctx.method === 'HEAD' || EMPTY_STATUSES.has(ctx.status) || ctx.status === 206 || ctx.res.headersSent) return null;
  if (ctx.response.get('Content-Encoding') || NO_TRANSFORM.test(ctx.response.get('Cache-Control') || '')) return null;
  if (!COMPRESSIBLE.test(ctx.response.get('Content-Type') || '') || byteLength < THRESHOLD_BYTES) return null;
  return negotiateEncoding(ctx.get('Accept-Encoding') || undefined);
}

/** The entity tag of a representation's encoded form: a strong tag must differ between codings. */
export function codedTag(etag: string, coding: Encoding | null): string {
  return coding === null ? etag : `${etag.slice(0, -1)}-${coding}"`;
}
