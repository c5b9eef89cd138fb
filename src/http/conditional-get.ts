import { hash } from 'node:crypto';
import type { Context, Next } from 'koa';
import { derivedOnce } from '../infra/shared-result.js';
import { type Encoding, codedTag, codingFor } from './content-coding.js';

/** Weak comparison (RFC 9110, 8.8.3.2): a tag matches itself, with or without W/, and `*` anything. */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const wanted = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === wanted);
}

interface Representation {
  text: string;
  /** The identity form's tag. */
  etag: string;
  byteLength: number;
}

const representationOf = derivedOnce<Representation>();
/** What conditionalGet prepared for one response: its representation, and the coding it tagged it for. */
const preparedFor = new WeakMap<Context, { representation: Representation; coding: Encoding | null }>();

/**
 * The representation conditionalGet prepared for this response while `text` is still its body:
 * one object for every response that shares it, so what is derived from its text (its encodings,
 * see compression) can be kept with it.
 */
export function preparedText(ctx: Context, text: string): Readonly<Representation> | undefined {
  const representation = preparedFor.get(ctx)?.representation;
  return representation?.text === text ? representation : undefined;
}

/** The coding a prepared response was tagged for (see codingFor): decided once, so what is sent matches its tag. */
export function preparedCoding(ctx: Context): Encoding | null {
  return preparedFor.get(ctx)?.coding ?? null;
}

function represent(body: object): Representation {
  // Kept as text, not bytes. Bytes save the copy Node makes to join the headers and a text body,
  // but each is an ArrayBuffer outside the heap, which costs the collector more than the copy:
  // with the response cache holding pages as bytes, scavenges took 58 against 42 µs a request and
  // the API 12 % more CPU per request (bench/results/discovery-guardrail, fixed-rate runs).
  const text = JSON.stringify(body);
  return { text, etag: `"${hash('sha1', text, 'base64url')}"`, byteLength: Buffer.byteLength(text) };
}

/**
 * Strong ETag on successful GET/HEAD JSON responses, and 304 Not Modified when If-None-Match
 * holds it. The tag is a hash of the JSON, suffixed with the coding the answer will be sent in
 * (`"…-br"`): each coded form is a representation of its own, so a tag revalidates only the form
 * this request would get, and a cache holding several forms learns which one is fresh. The body
 * is serialized here once. Not for responses marked `Cache-Control: no-store`.
 */
export async function conditionalGet(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;
  const body = ctx.body;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return;
  // Shared bodies (coalesced reads, cache hits) are answered many times: serialized and tagged once.
  const representation = representationOf(body, () => represent(body));
  ctx.body = representation.text;
  ctx.type = 'application/json; charset=utf-8';
  // A response that must not be stored (usage, health) is not revalidated either: no tag, and
  // `If-None-Match: *` does not turn a quota read into a 304.
  if (/\bno-store\b/i.test(ctx.response.get('Cache-Control'))) return;
  const coding = codingFor(ctx, representation.byteLength);
  preparedFor.set(ctx, { representation, coding });
  const etag = codedTag(representation.etag, coding);
  ctx.set('ETag', etag);
  if (ifNoneMatchHits(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    ctx.body = null;
  }
}
