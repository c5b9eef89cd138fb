export interface NaturalBatcherOptions<I, R> {
  /** Batches allowed in flight at once; while they are all busy, new inputs wait and go out together. */
  maxInFlight: number;
  /** Inputs per batch at most. */
  maxBatchSize: number;
  /** Inputs with equal keys that are waiting together are sent once and share the answer. */
  keyOf: (input: I) => string;
  /**
   * Answers one batch, position by position; an Error at a position fails that input alone.
   * `remainingMs` is what is left of the oldest input's time budget: the call must not outlast it.
   */
  run: (inputs: I[], remainingMs: number) => Promise<(R | Error)[]>;
  /**
   * Each input's time budget, from when it was submitted: one that is still waiting when its
   * budget is spent fails with `expired()` instead of being sent, and a batch is given what is
   * left of its oldest input's budget. So waiting for a slot never adds to the backend's timeout.
   */
  budgetMs: number;
  expired: () => Error;
  /** Told the size of every batch sent (after coalescing). */
  onBatch?: (size: number) => void;
  now?: () => number;
}

interface Waiting<I, R> {
  input: I;
  since: number;
  resolvers: { resolve: (value: R) => void; reject: (err: unknown) => void }[];
}

/**
 * Natural batching (group commit): an input is sent as soon as a batch slot is free, so an idle
 * service adds no delay; under load the inputs that arrive while every slot is busy leave
 * together in the next batch, paying the backend's per-call cost once. Inputs are joined only
 * while none of them has been sent, so each caller's answer is computed after it asked: exactly
 * what a call of its own would have returned at that moment.
 */
export function createNaturalBatcher<I, R>(options: NaturalBatcherOptions<I, R>): (input: I) => Promise<R> {
  const { maxInFlight, maxBatchSize, keyOf, run, budgetMs, expired, onBatch, now = Date.now } = options;
  const queue = new Map<string, Waiting<I, R>>();
  let inFlight = 0;
  let scheduled = false;

  function settle(batch: Waiting<I, R>[], results: (R | Error)[] | Error): void {
    batch.forEach((waiting, position) => {
      const result = results instanceof Error ? results : results[position];
      for (const { resolve, reject } of waiting.resolvers) {
        if (result instanceof Error) reject(result);
        else if (result === undefined) reject(new Error(`batch answered ${(results as unknown[]).length} of ${batch.length} inputs`));
        else resolve(result);
      }
    });
  }

  function dispatch(): void {
    scheduled = false;
    while (inFlight < maxInFlight && queue.size > 0) {
      const at = now();
      const batch: Waiting<I, R>[] = [];
      let oldest = Infinity;
      for (const [key, waiting] of queue) {
        queue.delete(key);
        if (at - waiting.since >= budgetMs) {
          for (const { reject } of waiting.resolvers) reject(expired());
          continue;
        }
        batch.push(waiting);
        oldest = Math.min(oldest, waiting.since);
        if (batch.length === maxBatchSize) break;
      }
      if (batch.length === 0) continue;
      inFlight++;
      onBatch?.(batch.length);
      let sent: Promise<(R | Error)[]>;
      try {
        sent = run(
          batch.map((waiting) => waiting.input),
          budgetMs - (at - oldest),
        );
      } catch (err) {
        sent = Promise.reject(err);
      }
      sent
        .then(
          (results) => settle(batch, results),
          (err: unknown) => settle(batch, err instanceof Error ? err : new Error(String(err))),
        )
        .finally(() => {
          inFlight--;
          dispatch();
        });
    }
  }

  return function submit(input: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const key = keyOf(input);
      const waiting = queue.get(key);
      if (waiting) waiting.resolvers.push({ resolve, reject });
      else queue.set(key, { input, since: now(), resolvers: [{ resolve, reject }] });
      // Inputs that arrive in the same turn of the event loop leave in one batch.
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(dispatch);
      }
    });
  };
}
