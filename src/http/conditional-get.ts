import { hash } from 'node:crypto';
import type { Context, Next } from 'koa';
import { derivedOnce } from '../infra/shared-result.js';

const ENCODING_SUFFIX = /-(gzip|br|deflate)$/;

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').replace(ENCODING_SUFFIX, '');
}

/** If-None-Match uses weak comparison; a tag we suffixed for a content coding matches its identity form. */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => opaque(candidate) === wanted);
}

interface Representation {
  text: string;
  etag: string;
}

const representationOf = derivedOnce<Representation>();
const preparedFor = new WeakMap<Context, Representation>();

/**
 * The representation conditionalGet prepared for this response while `text` is still its body:
 * one object for every response that shares it, so what is derived from its text (its encodings,
 * see compression) can be kept with it.
 */
export function preparedText(ctx: Context, text: string): object | undefined {
  const representation = preparedFor.get(ctx);
  return representation?.text === text ? representation : undefined;
}

function represent(body: object): Representation {
  // Kept as text, not bytes. Bytes save the copy Node makes to join the headers and a text body,
  // but each is an ArrayBuffer outside the heap, which costs the collector more than the copy:
  // with the response cache holding pages as bytes, scavenges took 58 against 42 µs a request and
  // the API 12 % more CPU per request (bench/results/discovery-guardrail, fixed-rate runs).
  const text = JSON.stringify(body);
  return { text, etag: `"${hash('sha1', text, 'base64url')}"` };
}

/**
 * Strong ETag (a hash of the JSON representation) on successful GET/HEAD JSON
 * responses, and 304 Not Modified when If-None-Match still matches. The body
 * is serialized here once; the hash covers exactly the bytes sent.
 */
export async function conditionalGet(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;
  const body = ctx.body;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return;
  // Shared bodies (coalesced reads, cache hits) are answered many times: serialized and tagged once.
  const representation = representationOf(body, () => represent(body));
  const { text, etag } = representation;
  ctx.body = text;
  preparedFor.set(ctx, representation);
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('ETag', etag);
  if (ifNoneMatchHits(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    ctx.body = null;
  }
}

/**
 * Runs outside compression: a strong ETag must differ between content codings,
 * so the coding is appended to the tag (the identity tag still matches).
 */
export async function etagPerEncoding(ctx: Context, next: Next): Promise<void> {
  await next();
  const etag = ctx.response.get('ETag') || '';
  if (ctx.status === 304 && etag) {
    // A 304 carries no body to encode: repeat the tag of the variant the client holds.
    const held = ctx
      .get('If-None-Match')
      .split(',')
      .map((t) => t.trim().replace(/^W\//, ''))
      .find((t) => opaque(t) === opaque(etag));
    if (held) ctx.set('ETag', held);
    return;
  }
  const encoding = ctx.response.get('Content-Encoding') || '';
  if (encoding && encoding !== 'identity' && etag.endsWith('"') && !ENCODING_SUFFIX.test(etag.slice(0, -1))) {
    ctx.set('ETag', `${etag.slice(0, -1)}-${encoding}"`);
  }
}
