export interface PacingOptions {
  /** Retries of a GET after a 503 or a network error, with jittered exponential backoff (default 3). */
  retries?: number;
  /** First backoff in ms, doubled each retry, jittered down by up to half (default 200). */
  backoffMs?: number;
  /** Longest single wait in ms for a backoff or a Retry-After (default 60,000). */
  maxWaitMs?: number;
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
 *   spent at once and then refused;
 * - 429: waits out Retry-After, then asks again;
 * - 503 or a network error on a GET or HEAD: retries with jittered exponential backoff (at least
 *   Retry-After when the answer has one), a bounded number of times.
 */
export function pacedFetch(base: typeof fetch, options: PacingOptions = {}): typeof fetch {
  const { retries = 3, backoffMs = 200, maxWaitMs = 60_000, rateLimitWaits = 5, paceBelow = 0.1, sleep = realSleep, onWait } = options;
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
    await wait(quota.remaining > 0 ? untilReset / quota.remaining : untilReset, 'pace');
  }

  const retryAfterMs = (response: Response) => {
    const seconds = Number(response.headers.get('Retry-After'));
    return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
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
        response = await base(request.clone());
      } catch (err) {
        if (!idempotent || failures >= retries) throw err;
        await wait(backoffMs * 2 ** failures++ * (0.5 + Math.random() / 2), 'retry');
        continue;
      }
      remember(response);
      if (response.status === 429 && limitedWaits < rateLimitWaits) {
        limitedWaits++;
        await response.body?.cancel();
        await wait((retryAfterMs(response) ?? 1) + Math.random() * 250, 'rate-limited');
        continue;
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
