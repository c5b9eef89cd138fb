import { QuotaExhausted } from './errors.js';

export interface PacingOptions {
  /** Retries of a GET after a 503 or a network error, with jittered exponential backoff (default 3). */
  retries?: number;
  /** First backoff in ms, doubled each retry, jittered down by up to half (default 200). */
  backoffMs?: number;
  /** Longest single wait in ms for a backoff or a Retry-After; a quota that resets later throws QuotaExhausted (default 60,000). */
  maxWaitMs?: number;
  /** Longest an attempt may take, its whole answer included, before it counts as a network error (default 30,000). */
  timeoutMs?: number;
  /** Times a 429 is waited out before it is surfaced as an error (default 5). */
  rateLimitWaits?: number;
  /** Below this share of the limit remaining, requests are spread evenly until the window resets (default 0.1). */
  paceBelow?: number;
  /** How to wait; tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** Called for every wait, with its reason: for logs and tests. */
  onWait?: (ms: number, reason: 'pace' | 'rate-limited' | 'retry') => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that paces itself by the API's rate-limit headers and retries what is safe to retry:
 * - Remaining low: the requests left are spread evenly until X-RateLimit-Reset, instead of being
 *   spent at once and then refused (unless spreading them means waits past `maxWaitMs`);
 * - Remaining 0: waits for the reset, or throws QuotaExhausted when that is past `maxWaitMs`;
 * - 429: waits out Retry-After (1 s when it has none), then asks again, a bounded number of times;
 *   a Retry-After past `maxWaitMs` throws QuotaExhausted at once;
 * - 503 or a network error on a GET or HEAD (an attempt past `timeoutMs` is one): retries with
 *   jittered exponential backoff (at least Retry-After when the answer has one), a bounded number of times.
 * As the Python client does (clients/python/src/wallpaper_catalogue/_pacing.py).
 */
export function pacedFetch(base: typeof fetch, options: PacingOptions = {}): typeof fetch {
  const {
    retries = 3,
    backoffMs = 200,
    maxWaitMs = 60_000,
    timeoutMs = 30_000,
    rateLimitWaits = 5,
    paceBelow = 0.1,
    sleep = realSleep,
    onWait,
  } = options;
  let quota: { limit: number; remaining: number; resetMs: number } | null = null;

  const wait = async (ms: number, reason: 'pace' | 'rate-limited' | 'retry') => {
    const bounded = Math.max(0, Math.min(ms, maxWaitMs));
    onWait?.(bounded, reason);
    await sleep(bounded);
  };

  function remember(response: Response): void {
    const limit = Number(response.headers.get('X-RateLimit-Limit'));
    const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
    const reset = Number(response.headers.get('X-RateLimit-Reset'));
    if (response.headers.has('X-RateLimit-Remaining') && Number.isFinite(limit + remaining + reset)) {
      quota = { limit, remaining, resetMs: reset * 1000 };
    }
  }

  async function pace(): Promise<void> {
    if (!quota) return;
    const untilReset = quota.resetMs - Date.now();
    if (untilReset <= 0 || quota.remaining > quota.limit * paceBelow) return;
    if (quota.remaining === 0) {
      if (untilReset > maxWaitMs)
        throw new QuotaExhausted('rate_limit_exceeded', 'The quota is spent until its window resets', Math.ceil(untilReset / 1000));
      await wait(untilReset, 'pace');
      return;
    }
    // Spread what is left, unless that means waits longer than allowed: then spend it now, and
    // stop when it is gone (above).
    const spread = untilReset / quota.remaining;
    if (spread <= maxWaitMs) await wait(spread, 'pace');
  }

  // A missing header is no answer, not 0 s, which would ask again at once.
  const retryAfterMs = (response: Response) => {
    const header = response.headers.get('Retry-After');
    const seconds = header === null || header.trim() === '' ? NaN : Number(header);
    return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
  };

  // An attempt is its whole answer: the body is read here, under the attempt's timeout, so a body
  // that stalls is a network error retried like any other (read later, outside the retries, its
  // timeout would surface raw). The API's answers are pages of at most 100 items, so holding one is cheap.
  const attempt = async (request: Request): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await base(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) });
    if (response.status === 204 || response.status === 304 || request.method === 'HEAD') return response;
    const body = await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  return async function fetchWithPacing(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const idempotent = request.method === 'GET' || request.method === 'HEAD';
    let failures = 0;
    let limitedWaits = 0;
    for (;;) {
      await pace();
      let response: Response;
      try {
        response = await attempt(request);
      } catch (err) {
        if (!idempotent || failures >= retries || request.signal.aborted) throw err;
        await wait(backoffMs * 2 ** failures++ * (0.5 + Math.random() / 2), 'retry');
        continue;
      }
      remember(response);
      if (response.status === 429) {
        const retryAfter = retryAfterMs(response) ?? 1000;
        if (retryAfter > maxWaitMs) {
          const body = (await response.json().catch(() => null)) as { error?: unknown; message?: unknown } | null;
          const message = typeof body?.message === 'string' ? body.message : 'Rate limit exceeded';
          throw new QuotaExhausted(typeof body?.error === 'string' ? body.error : 'rate_limit_exceeded', message, retryAfter / 1000);
        }
        if (limitedWaits < rateLimitWaits) {
          limitedWaits++;
          await response.body?.cancel();
          await wait(retryAfter + Math.random() * 250, 'rate-limited');
          continue;
        }
      }
      if (response.status === 503 && idempotent && failures < retries) {
        await response.body?.cancel();
        const backoff = backoffMs * 2 ** failures++ * (0.5 + Math.random() / 2);
        await wait(Math.max(backoff, retryAfterMs(response) ?? 0), 'retry');
        continue;
      }
      return response;
    }
  };
}
