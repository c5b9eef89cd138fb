import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, Next } from 'koa';
import { preparedCoding, preparedText } from './conditional-get.js';
import { type Encoding, codingFor } from './content-coding.js';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const ENCODERS: Record<Encoding, (text: string | Buffer) => Promise<Buffer>> = {
  br: (text) => brotli(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (text) => gzipped(text, { level: 6 }),
};

/**
 * The bytes alone. A small result of zlib is a view of a larger block (its output chunk, from
 * Buffer's shared pool): kept as it is, a 300-byte page held 64 KB.
 */
function unshared(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
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
    bytes = ENCODERS[encoding](text).then(unshared);
    encoded.set(encoding, bytes);
    // A failure is not kept (the caller answers without the coding); the next response tries again.
    bytes.catch(() => encoded.delete(encoding));
  }
  return bytes;
}

/**
 * br or gzip for bodies of 1 KB and more, as the client accepts (see codingFor); the whole body
 * at once, so the answer carries its Content-Length. A JSON representation that conditionalGet
 * prepared is compressed once per coding, and so is a Buffer body: those are the docs' constant
 * scripts and styles.
 */
export function compression() {
  return async function compressResponse(ctx: Context, next: Next): Promise<void> {
    ctx.vary('Accept-Encoding');
    await next();
    // An object body here was not prepared by conditionalGet: an error or a probe's answer, all
    // under 1 KB, so not worth serialising to find out.
    const text = ctx.body;
    if (typeof text !== 'string' && !Buffer.isBuffer(text)) return;
    const prepared = typeof text === 'string' ? preparedText(ctx, text) : undefined;
    const encoding = prepared ? preparedCoding(ctx) : codingFor(ctx, Buffer.byteLength(text));
    if (encoding === null) return;
    const holder = prepared ?? (Buffer.isBuffer(text) ? text : undefined);
    try {
      ctx.body = await (holder ? encodeOnce(holder, encoding, text) : ENCODERS[encoding](text));
    } catch {
      // zlib does not fail on a whole body in memory; if it ever does, the body goes as it is,
      // with the identity form's tag.
      if (prepared) ctx.set('ETag', prepared.etag);
      return;
    }
    ctx.set('Content-Encoding', encoding);
  };
}
