export interface NaturalBatcherOptions<I, R> {
  /** Batches allowed in flight at once; while they are all busy, new inputs wait and go out together. */
  maxInFlight: number;
  /** Inputs per batch at most. */
  maxBatchSize: number;
  /**
   * Distinct inputs allowed to wait for a slot; past it an input is refused at once with
   * `overloaded()` (load shedding), so waiting never grows without bound.
   */
  maxQueued: number;
  /** Inputs with equal keys that are waiting together are sent once and share the answer. */
  keyOf: (input: I) => string;
  /**
   * Answers one batch, position by position; an Error at a position fails that input alone.
   * `remainingMs` is what is left of the youngest caller's budget: the call must not outlast it.
   */
  run: (inputs: I[], remainingMs: number) => Promise<(R | Error)[]>;
  /**
   * Each caller's own time budget, from when it asked: at its deadline the caller fails with
   * `expired()`, whether it is still waiting (then it is never sent) or its batch is still
   * running. A batch runs as long as its youngest caller may wait, so an old caller in a batch
   * never cuts a fresh one short.
   */
  budgetMs: number;
  expired: () => Error;
  overloaded: () => Error;
  /** Told the size of every batch sent (after coalescing). */
  onBatch?: (size: number) => void;
  now?: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. Tests replace it with a fake clock. */
  schedule?: (fn: () => void, ms: number) => () => void;
}

interface Caller<R> {
  resolve: (value: R) => void;
  reject: (err: unknown) => void;
  deadline: number;
  settled: boolean;
  cancel: () => void;
}

interface Waiting<I, R> {
  input: I;
  callers: Caller<R>[];
}

function realTimer(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
}

/**
 * Natural batching (group commit): an input is sent as soon as a batch slot is free, so an idle
 * service adds no delay; under load the inputs that arrive while every slot is busy leave
 * together in the next batch, paying the backend's per-call cost once. Inputs are joined only
 * while none of them has been sent, so each caller's answer is computed after it asked: exactly
 * what a call of its own would have returned at that moment.
 */
export function createNaturalBatcher<I, R>(options: NaturalBatcherOptions<I, R>): (input: I, within?: { leftMs: number }) => Promise<R> {
  const { maxInFlight, maxBatchSize, maxQueued, keyOf, run, budgetMs, expired, overloaded, onBatch, now = Date.now, schedule = realTimer } = options;
  const queue = new Map<string, Waiting<I, R>>();
  let inFlight = 0;
  let scheduled = false;

  const live = (waiting: Waiting<I, R>) => waiting.callers.some((caller) => !caller.settled);

  function settleCaller(caller: Caller<R>, result: R | Error | undefined, batchSize: number, answered: number): void {
    if (caller.settled) return;
    caller.settled = true;
    caller.cancel();
    if (result instanceof Error) caller.reject(result);
    else if (result === undefined) caller.reject(new Error(`batch answered ${answered} of ${batchSize} inputs`));
    else caller.resolve(result);
  }

  function settle(batch: Waiting<I, R>[], results: (R | Error)[] | Error): void {
    const answered = results instanceof Error ? 0 : results.length;
    batch.forEach((waiting, position) => {
      const result = results instanceof Error ? results : results[position];
      for (const caller of waiting.callers) settleCaller(caller, result, batch.length, answered);
    });
  }

  function dispatch(): void {
    scheduled = false;
    while (inFlight < maxInFlight && queue.size > 0) {
      const batch: Waiting<I, R>[] = [];
      let latest = -Infinity;
      for (const [key, waiting] of queue) {
        queue.delete(key);
        if (!live(waiting)) continue;
        batch.push(waiting);
        for (const caller of waiting.callers) if (!caller.settled) latest = Math.max(latest, caller.deadline);
        if (batch.length === maxBatchSize) break;
      }
      if (batch.length === 0) continue;
      inFlight++;
      onBatch?.(batch.length);
      let sent: Promise<(R | Error)[]>;
      try {
        sent = run(
          batch.map((waiting) => waiting.input),
          Math.max(1, latest - now()),
        );
      } catch (err) {
        sent = Promise.reject(err instanceof Error ? err : new Error(String(err)));
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

  /** `within`: what is left of a budget begun before (one of several reads of a page); never more than `budgetMs`. */
  return function submit(input: I, within?: { leftMs: number }): Promise<R> {
    const budget = Math.min(budgetMs, within?.leftMs ?? budgetMs);
    if (budget <= 0) return Promise.reject(expired());
    return new Promise<R>((resolve, reject) => {
      const key = keyOf(input);
      let waiting = queue.get(key);
      if (!waiting) {
        if (queue.size >= maxQueued) {
          reject(overloaded());
          return;
        }
        waiting = { input, callers: [] };
        queue.set(key, waiting);
      }
      const entry = waiting;
      const caller: Caller<R> = { resolve, reject, deadline: now() + budget, settled: false, cancel: () => undefined };
      caller.cancel = schedule(() => {
        if (caller.settled) return;
        caller.settled = true;
        reject(expired());
        // A waiting input whose callers have all given up is never sent.
        if (queue.get(key) === entry && !live(entry)) queue.delete(key);
      }, budget);
      entry.callers.push(caller);
      // Inputs that arrive in the same turn of the event loop leave in one batch.
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(dispatch);
      }
    });
  };
}
