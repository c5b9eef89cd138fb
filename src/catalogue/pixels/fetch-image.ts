import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { setTimeout as wait } from 'node:timers/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

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
  /** The run's stop: a fetch in flight ends at once, and nothing is tried again. */
  signal?: AbortSignal;
}

// The longest a 429's Retry-After is waited: a host asking for more is given up on for this picture.
const RETRY_AFTER_MAX_MS = 30_000;

export const DEFAULT_IMAGE_SOURCE: ImageSource = { timeoutMs: 10_000, maxBytes: 20 * 1024 * 1024, retries: 2, backoffMs: 250 };

/** A picture that could not be fetched; `retryable` when another try may succeed. */
export class ImageFetchError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** How long the server asked to wait before another try (a 429's Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ImageFetchError';
  }
}

/** A 429's Retry-After in ms (seconds, or an HTTP date), when it gives one. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/**
 * Whether a failed fetch may pass on another try: a network error (its cause carries a system or
 * undici code: refused, reset, a socket closed early). fetch's TypeError also stands for what no
 * try changes: too many redirects, a redirect to another scheme (each had been tried three times).
 */
function isNetworkError(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  // A system error (ECONNRESET) or undici's (UND_ERR_SOCKET); not Node's own ERR_INVALID_URL, which
  // a redirect to a Location that is no URL gives every time.
  return typeof cause?.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(cause.code);
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

/** The run was told to stop: nothing more is fetched or tried again. */
export class ImageFetchStopped extends ImageFetchError {
  constructor() {
    super('stopped', false);
    this.name = 'ImageFetchStopped';
  }
}

async function fetchOnce(url: string, { timeoutMs, maxBytes, signal: stop }: ImageSource): Promise<Buffer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = stop ? AbortSignal.any([stop, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow', headers: { accept: 'image/*' } });
  } catch (error) {
    if (stop?.aborted) throw new ImageFetchStopped();
    if (timeout.aborted) throw new ImageFetchError(`no answer within ${timeoutMs} ms`, true);
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ImageFetchError(reason, isNetworkError(error));
  }
  if (!response.ok) {
    await response.body?.cancel();
    const retryable = response.status === 429 || response.status >= 500;
    throw new ImageFetchError(`HTTP ${response.status}`, retryable, response.status === 429 ? retryAfterMs(response) : undefined);
  }
  // Media types are case-insensitive (RFC 9110 §8.3.1): Image/PNG is an image.
  const type = response.headers.get('content-type') ?? '';
  if (type !== '' && !type.toLowerCase().startsWith('image/')) {
    await response.body?.cancel();
    throw new ImageFetchError(`not an image (Content-Type ${type})`, false);
  }
  try {
    return await readBody(response, maxBytes);
  } catch (error) {
    if (stop?.aborted) throw new ImageFetchStopped();
    if (error instanceof ImageFetchError) throw error;
    throw new ImageFetchError(timeout.aborted ? `no complete answer within ${timeoutMs} ms` : String(error), true);
  }
}

/** Whether `path` is `root` or below it (`root` itself as `/` too). */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The file a URL's path names under `dir`; never outside it, whatever the path spells and wherever
 * links inside the folder lead (the file is judged by its real path: a link to a file outside had
 * been read).
 */
async function readLocal(url: string, dir: string, maxBytes: number): Promise<Buffer> {
  const root = await realpath(resolve(dir)).catch(() => resolve(dir));
  const path = resolve(root, `.${decodeURIComponent(new URL(url).pathname)}`);
  if (path === root) throw new ImageFetchError(`${url} names no file`, false);
  if (!within(root, path)) throw new ImageFetchError(`${url} names a file outside ${root}`, false);
  const real = await realpath(path).catch(() => null);
  if (real === null) throw new ImageFetchError(`no file ${path}`, false);
  if (!within(root, real)) throw new ImageFetchError(`${path} leads outside ${root} (to ${real})`, false);
  // Opened without waiting and without following a link, then judged by what was opened: a file
  // swapped for a FIFO after it was looked at had blocked a thread for good, so that not even a
  // stop ended the run (review).
  const file = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(() => null);
  if (file === null) throw new ImageFetchError(`no file ${path}`, false);
  try {
    const info = await file.stat();
    if (!info.isFile()) throw new ImageFetchError(`no file ${path}`, false);
    if (info.size > maxBytes) throw new ImageFetchError(`larger than ${maxBytes} bytes`, false);
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/**
 * The bytes of the picture at `url`, tried again with backoff while a failure may pass; a 429's
 * Retry-After is waited when longer (a host asking for more than RETRY_AFTER_MAX_MS is not).
 */
export async function fetchImage(url: string, source: ImageSource): Promise<Buffer> {
  if (source.signal?.aborted) throw new ImageFetchStopped();
  if (source.dir !== undefined) return readLocal(url, source.dir, source.maxBytes);
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, source);
    } catch (error) {
      if (!(error instanceof ImageFetchError) || !error.retryable || attempt >= source.retries) throw error;
      const asked = error.retryAfterMs ?? 0;
      if (asked > RETRY_AFTER_MAX_MS) throw new ImageFetchError(`${error.message}, asked to wait ${Math.ceil(asked / 1000)} s`, false);
      // A stop ends the wait: the timer rejects only then.
      await wait(Math.max(asked, source.backoffMs * 2 ** attempt * (0.5 + Math.random())), undefined, { signal: source.signal }).catch(() => {
        throw new ImageFetchStopped();
      });
    }
  }
}
