import { readFile, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

/** Where and how pictures are read. */
export interface ImageSource {
  /** Read each thumbnail from this folder, at its URL's path, instead of over HTTP. */
  dir?: string;
  timeoutMs: number;
  /** A larger picture is refused: a thumbnail this big is a mistake or an attack. */
  maxBytes: number;
  /** Further tries after a failure that may pass (network errors, timeouts, 429, 5xx). */
  retries: number;
  /** The first retry's wait; each next one doubles it, with jitter. */
  backoffMs: number;
}

export const DEFAULT_IMAGE_SOURCE: ImageSource = { timeoutMs: 10_000, maxBytes: 20 * 1024 * 1024, retries: 2, backoffMs: 250 };

/** A picture that could not be fetched; `retryable` when another try may succeed. */
export class ImageFetchError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ImageFetchError';
  }
}

async function readBody(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw new ImageFetchError(`larger than ${maxBytes} bytes (Content-Length ${declared})`, false);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new ImageFetchError(`larger than ${maxBytes} bytes`, false);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function fetchOnce(url: string, { timeoutMs, maxBytes }: ImageSource): Promise<Buffer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow', headers: { accept: 'image/*' } });
  } catch (error) {
    const reason = signal.aborted
      ? `no answer within ${timeoutMs} ms`
      : error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    throw new ImageFetchError(reason, true);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ImageFetchError(`HTTP ${response.status}`, response.status === 429 || response.status >= 500);
  }
  const type = response.headers.get('content-type') ?? '';
  if (type !== '' && !type.startsWith('image/')) {
    await response.body?.cancel();
    throw new ImageFetchError(`not an image (Content-Type ${type})`, false);
  }
  try {
    return await readBody(response, maxBytes);
  } catch (error) {
    if (error instanceof ImageFetchError) throw error;
    throw new ImageFetchError(signal.aborted ? `no complete answer within ${timeoutMs} ms` : String(error), true);
  }
}

/** The file a URL's path names under `dir`; never outside it, whatever the path spells. */
async function readLocal(url: string, dir: string, maxBytes: number): Promise<Buffer> {
  const root = resolve(dir);
  const path = resolve(root, `.${decodeURIComponent(new URL(url).pathname)}`);
  if (!path.startsWith(root + sep)) throw new ImageFetchError(`${url} names a file outside ${root}`, false);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new ImageFetchError(`no file ${path}`, false);
  if (info.size > maxBytes) throw new ImageFetchError(`larger than ${maxBytes} bytes`, false);
  return readFile(path);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The bytes of the picture at `url`, tried again with backoff while a failure may pass. */
export async function fetchImage(url: string, source: ImageSource): Promise<Buffer> {
  if (source.dir !== undefined) return readLocal(url, source.dir, source.maxBytes);
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, source);
    } catch (error) {
      if (!(error instanceof ImageFetchError) || !error.retryable || attempt >= source.retries) throw error;
      await sleep(source.backoffMs * 2 ** attempt * (0.5 + Math.random()));
    }
  }
}
