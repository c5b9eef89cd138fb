/** Thrown when a budget has no room: the caller answers 503 at once rather than queue the work. */
export class BudgetFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('no room for more of this work now');
    this.name = 'BudgetFull';
  }
}

/** A reserved place in a budget: run the work once, or cancel. */
export interface Slot {
  run<T>(work: () => Promise<T>): Promise<T>;
  cancel(): void;
}

export interface WorkBudget {
  /**
   * A place for one piece of work, or BudgetFull when `concurrency + queue` are taken, or when
   * `owner` already holds `perOwner` of them (running or waiting).
   */
  reserve(owner?: string): Slot;
  readonly running: number;
  readonly waiting: number;
}

/**
 * Bounded concurrency with a bounded queue, decided up front. Password hashing uses it: scrypt
 * runs on libuv's thread pool, which gzip, file reads and other crypto share, so a burst of
 * sign-ins must hold at most `concurrency` of its threads, and past the queue a sign-in is
 * refused at once instead of piling up work. Reserving is synchronous, so a caller can refuse
 * before it counts anything (a throttle) or calls anyone. An owner (a client address) holds at
 * most `perOwner` places, so one client cannot take every place from the others.
 */
export function createWorkBudget({
  concurrency,
  queue,
  perOwner = Infinity,
  retryAfterSeconds = 1,
}: {
  concurrency: number;
  queue: number;
  perOwner?: number;
  retryAfterSeconds?: number;
}): WorkBudget {
  let running = 0;
  let reserved = 0;
  const turns: (() => void)[] = [];
  const held = new Map<string, number>();
  const letGo = (owner: string | undefined) => {
    if (owner === undefined) return;
    const left = (held.get(owner) ?? 1) - 1;
    if (left > 0) held.set(owner, left);
    else held.delete(owner);
  };

  // A finished piece of work hands its place straight to the next in line, so nothing can slip in
  // between and run one more than `concurrency`.
  function release(): void {
    const turn = turns.shift();
    if (turn) turn();
    else running--;
  }

  return {
    reserve(owner?: string): Slot {
      if (running + reserved >= concurrency + queue) throw new BudgetFull(retryAfterSeconds);
      if (owner !== undefined && (held.get(owner) ?? 0) >= perOwner) throw new BudgetFull(retryAfterSeconds);
      if (owner !== undefined) held.set(owner, (held.get(owner) ?? 0) + 1);
      reserved++;
      let used = false;
      const claim = () => {
        if (used) throw new Error('a slot runs one piece of work');
        used = true;
        reserved--;
      };
      return {
        async run<T>(work: () => Promise<T>): Promise<T> {
          claim();
          if (running >= concurrency) {
            reserved++;
            await new Promise<void>((resolve) => turns.push(resolve));
            reserved--;
          } else {
            running++;
          }
          try {
            return await work();
          } finally {
            release();
            letGo(owner);
          }
        },
        cancel() {
          if (used) return;
          claim();
          letGo(owner);
        },
      };
    },
    get running() {
      return running;
    },
    get waiting() {
      return turns.length;
    },
  };
}
