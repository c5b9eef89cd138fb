import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, Next } from 'koa';
import { preparedText } from './conditional-get.js';

export type Encoding = 'br' | 'gzip';

/** What is offered, the server's preference first when a client weighs several alike. */
const OFFERED: readonly Encoding[] = ['br', 'gzip'];
const THRESHOLD_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)\b|application\/[\w.-]+\+json\b|image\/svg\+xml\b)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const EMPTY_STATUSES = new Set([204, 205, 304]);

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const ENCODERS: Record<Encoding, (text: string | Buffer) => Promise<Buffer>> = {
  br: (text) => brotli(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (text) => gzipped(text, { level: 6 }),
};

/** The q-value of each coding an Accept-Encoding header names (RFC 9110, 12.5.3); `*` stands for the rest. */
function weights(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (coding === '') continue;
    const q = params.find((param) => /^q=/i.test(param));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    named.set(coding.toLowerCase(), Number.isFinite(weight) ? weight : 0);
  }
  return named;
}

/**
 * The coding to send, or null for none: the offered coding the client weighs highest (ties go to
 * br), never one it weighs 0. Without the header, none: a client that sends nothing may not
 * decode anything. `*` alone is gzip, which every client that says it takes anything can read.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (header === undefined || header.trim() === '') return null;
  if (header.trim() === '*') return 'gzip';
  const named = weights(header);
  const any = named.get('*') ?? 0;
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of OFFERED) {
    const weight = named.get(encoding) ?? any;
    if (weight > bestWeight) [best, bestWeight] = [encoding, weight];
  }
  return best;
}

// A representation answered many times (a cached page, one read coalesced for several requests)
// is compressed once per coding: compressing a 20-item page costs 60-90 µs, as much as the rest
// of a cached answer. Kept beside the representation, for as long as it lives.
const encodedOf = new WeakMap<object, Map<Encoding, Promise<Buffer>>>();

/** The text in a coding, computed once per holder (the object the text belongs to) and coding. */
export function encodeOnce(holder: object, encoding: Encoding, text: string | Buffer): Promise<Buffer> {
  let encoded = encodedOf.get(holder);
  if (encoded === undefined) encodedOf.set(holder, (encoded = new Map<Encoding, Promise<Buffer>>()));
  let bytes = encoded.get(encoding);
  if (bytes === undefined) {
    bytes = ENCODERS[encoding](text);
    encoded.set(encoding, bytes);
    // A failure is not kept (the caller answers without the coding); the next response tries again.
    bytes.catch(() => encoded.delete(encoding));
  }
  return bytes;
}

function bodyText(body: unknown): string | Buffer | null {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  if (body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') return JSON.stringify(body);
  return null;
}

/**
 * br or gzip for bodies of 1 KB and more, by Accept-Encoding (see negotiateEncoding); the whole
 * body at once, so the answer carries its Content-Length. A JSON representation that
 * conditionalGet prepared is compressed once per coding and the bytes kept with it.
 */
export function compression() {
  return async function compressResponse(ctx: Context, next: Next): Promise<void> {
    ctx.vary('Accept-Encoding');
    await next();
    if (ctx.method === 'HEAD' || EMPTY_STATUSES.has(ctx.status) || ctx.status === 206 || ctx.res.headersSent) return;
    if (ctx.response.get('Content-Encoding') || NO_TRANSFORM.test(ctx.response.get('Cache-Control') || '')) return;
    if (!COMPRESSIBLE.test(ctx.response.get('Content-Type') || '')) return;
    const encoding = negotiateEncoding(ctx.get('Accept-Encoding') || undefined);
    if (encoding === null) return;
    const text = bodyText(ctx.body);
    if (text === null || Buffer.byteLength(text) < THRESHOLD_BYTES) return;
    // A constant body (the contract, a page of the docs) is its own holder, and so is compressed once.
    const holder = typeof text === 'string' ? preparedText(ctx, text) : text;
    let bytes: Buffer;
    try {
      bytes = await (holder ? encodeOnce(holder, encoding, text) : ENCODERS[encoding](text));
    } catch {
      return; // zlib does not fail on a whole body in memory; if it ever does, the body goes as it is
    }
    ctx.body = bytes;
    ctx.set('Content-Encoding', encoding);
  };
}
