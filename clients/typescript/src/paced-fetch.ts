import { ApiError, QuotaExhausted } from './errors.js';
import { QuotaPacer } from './quota-pacer.js';
import { settledWithin, sleepUnless } from './stoppable.js';

export interface PacingOptions {
  /** Retries of a GET after a 503 or a network error, with jittered exponential backoff (default 3). */
  retries?: number;
  /** First backoff in ms, doubled each retry, jittered down by up to half (default 200). */
  backoffMs?: number;
  /**
   * Longest single wait in ms for a backoff or a Retry-After: a quota that resets later throws
   * QuotaExhausted, a 503 whose Retry-After is later is thrown as it is (default 60,000).
   */
  maxWaitMs?: number;
  /** Longest an attempt may take, its whole answer included, before it counts as a network error (default 30,000). */
  timeoutMs?: number;
  /** Largest answer read, in bytes; a larger one is an ApiError `unexpected_response`, never held whole (default 8 MiB). */
  maxBodyBytes?: number;
  /** Times a 429 is waited out before it is thrown as QuotaExhausted (default 5). */
  rateLimitWaits?: number;
  /** Below this share of the limit remaining, requests are spread evenly until the window resets (default 0.1). */
  paceBelow?: number;
  /** How to wait; tests pass their own. A call's signal ends the wait early either way. */
  sleep?: (ms: number) => Promise<void>;
  /** Called for every wait, with its reason: for logs and tests. */
  onWait?: (ms: number, reason: 'pace' | 'rate-limited' | 'retry') => void;
}

/** A page of 100 with every include is under 1 MiB: 8 MiB is room to spare, not room for a runaway body. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Retry-After as RFC 9110 gives it: whole seconds, or an HTTP date (a proxy may send one).
 * Anything else is no answer, not 0 s, which would ask again at once.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  const text = header?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the three forms an HTTP-date takes (RFC 9110 §5.6.7): Date.parse alone reads "in 5" as a date.
  // asctime carries no zone and is UTC; Date.parse would read it as local time.
  const at = HTTP_DATE.some((form) => form.test(text)) ? Date.parse(/GMT$/.test(text) ? text : `${text} GMT`) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/** A read that failed in zlib (Node's fetch gives its error as the cause: Z_DATA_ERROR, Z_BUF_ERROR…). */
function isBrokenCoding(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/**
 * A fetch that failed for good: redirects past fetch's limit (a loop) come back the same every time,
 * so they are not asked again as a network error would be (84 requests for one call, helper-110).
 */
function isRedirectLoop(err: unknown): boolean {
  const cause = (err as { cause?: { message?: unknown } } | null)?.cause?.message;
  return err instanceof TypeError && typeof cause === 'string' && /redirect count exceeded/i.test(cause);
}

/** The answer's body, read up to `max` bytes: past that, the rest is not read and the call fails. */
async function cappedBody(response: Response, max: number): Promise<ArrayBuffer> {
  const tooLarge = () => new ApiError(response.status, 'unexpected_response', `The answer is larger than ${max} bytes (maxBodyBytes)`);
  if (Number(response.headers.get('Content-Length')) > max) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return new ArrayBuffer(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((err: unknown) => {
      // fetch inflates as it reads: a coding that cannot be inflated is the answer's fault, the
      // same every time, not a network error to ask again for (as the Python client says).
      if (isBrokenCoding(err)) throw new ApiError(response.status, 'unexpected_response', "The answer's content coding is broken");
      throw err;
    });
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body.buffer;
}

/**
 * A fetch that paces itself by the API's rate-limit headers (QuotaPacer: calls made at once see
 * each other) and retries what is safe to retry:
 * - Remaining low: the requests left are spread evenly until X-RateLimit-Reset, instead of being
 *   spent at once and then refused (unless spreading them means waits past `maxWaitMs`);
 * - Remaining 0: waits for the reset, or throws QuotaExhausted when that is past `maxWaitMs`;
 * - 429: waits out Retry-After (1 s when it has none), then asks again, `rateLimitWaits` times:
 *   past them, or at once for a Retry-After past `maxWaitMs`, throws QuotaExhausted; `too_many_auth_failures` (the
 *   key is refused) is answered at once, never waited out;
 * - 503 or a network error on a GET or HEAD (an attempt past `timeoutMs` is one): retries with
 *   jittered exponential backoff (at least Retry-After when the answer has one), a bounded number
 *   of times; a 503 whose Retry-After is past `maxWaitMs` is returned at once.
 * A request's signal ends every wait and attempt of it at once, with the signal's reason.
 * As the Python client does (clients/python/src/wallpaper_catalogue/_pacing.py), whose pacing reads
 * one request at a time.
 */
export function pacedFetch(base: typeof fetch, options: PacingOptions = {}): typeof fetch {
  const {
    retries = 3,
    backoffMs = 200,
    maxWaitMs = 60_000,
    timeoutMs = 30_000,
    maxBodyBytes = MAX_BODY_BYTES,
    rateLimitWaits = 5,
    paceBelow = 0.1,
    sleep,
    onWait,
  } = options;
  const wait = async (ms: number, reason: 'pace' | 'rate-limited' | 'retry', signal: AbortSignal) => {
    signal.throwIfAborted();
    const bounded = Math.max(0, Math.min(ms, maxWaitMs));
    onWait?.(bounded, reason);
    await (sleep ? settledWithin(sleep(bounded), signal) : sleepUnless(bounded, signal));
    signal.throwIfAborted();
  };
  const pacer = new QuotaPacer({ paceBelow, maxWaitMs, probeWaitMs: timeoutMs, wait: (ms, signal) => wait(ms, 'pace', signal) });

  // An attempt is its whole answer: the body is read here, under the attempt's timeout, so a body
  // that stalls is a network error retried like any other (read later, outside the retries, its
  // timeout would surface raw).
  const attempt = async (request: Request): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await base(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) });
    if (response.status === 204 || response.status === 304 || request.method === 'HEAD') return response;
    const body = await cappedBody(response, maxBodyBytes);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  return async function fetchWithPacing(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const { signal } = request;
    const idempotent = request.method === 'GET' || request.method === 'HEAD';
    let failures = 0;
    let limitedWaits = 0;
    for (;;) {
      const turn = await pacer.turn(signal);
      let response: Response;
      try {
        response = await attempt(request);
      } catch (err) {
        pacer.answered(turn, null, { hung: err instanceof Error && err.name === 'TimeoutError' && !signal.aborted });
        signal.throwIfAborted();
        if (err instanceof ApiError || isRedirectLoop(err) || !idempotent || failures >= retries) throw err;
        await wait(backoffMs * 2 ** failures++ * (0.5 + Math.random() / 2), 'retry', signal);
        continue;
      }
      pacer.answered(turn, response);
      const retryAfter = retryAfterMs(response.headers.get('Retry-After'));
      if (response.status === 429) {
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as { error?: unknown; message?: unknown } | null;
        // The key itself is refused (failed authentications from this address): waiting would
        // only bring back the 401 or 403 it hides, so it is answered now, as the ApiError it is.
        if (body?.error === 'too_many_auth_failures') return response;
        const after = retryAfter ?? 1000;
        // Past the waits it may make, as past the time it may wait, the quota has no room for the
        // call: the same QuotaExhausted, so a caller that stops cleanly on one (a download, a sync)
        // does so on both; a plain ApiError had stopped the pictures under way.
        if (after > maxWaitMs || limitedWaits >= rateLimitWaits) {
          const message = typeof body?.message === 'string' ? body.message : 'Rate limit exceeded';
          throw new QuotaExhausted(typeof body?.error === 'string' ? body.error : 'rate_limit_exceeded', message, after / 1000);
        }
        limitedWaits++;
        await response.body?.cancel();
        await wait(after + Math.random() * 250, 'rate-limited', signal);
        continue;
      }
      // A 503 that says it lasts longer than the client may wait is answered now, not asked again
      // to no purpose (three times a minute, for an hour's maintenance).
      if (response.status === 503 && idempotent && failures < retries && (retryAfter ?? 0) <= maxWaitMs) {
        await response.body?.cancel();
        const backoff = backoffMs * 2 ** failures++ * (0.5 + Math.random() / 2);
        await wait(Math.max(backoff, retryAfter ?? 0), 'retry', signal);
        continue;
      }
      return response;
    }
  };
}
