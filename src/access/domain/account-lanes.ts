/** Gives back a lane; a second call does nothing. */
export type LeaveLane = () => void;

export interface AccountLanes {
  /** A lane at once when the account has one free, else null (then `waitFor`). */
  tryEnter(accountId: string): LeaveLane | null;
  /**
   * A lane once the account's earlier requests have left enough: first come, first served. Null,
   * at once, when the account already has as many waiting as its line holds. `gone` tells whether
   * the request's client has hung up: such a request holds no place once the line is full.
   */
  waitFor(accountId: string, gone?: () => boolean): Promise<LeaveLane> | null;
  /**
   * From now on, no account is held to lanes: every request waiting is let in at once, and later
   * ones enter straight away. For shutdown, which must answer what it holds before its deadline.
   */
  openAll(): void;
  /** Lanes of each account, and places in its line. */
  readonly perAccount: number;
  readonly waitingPerAccount: number;
  /** Requests waiting for a lane, every account together. */
  readonly waiting: number;
  /** Accounts with a request in a lane or waiting; an account with neither is forgotten. */
  readonly accounts: number;
}

interface Place {
  letIn: (leave: LeaveLane) => void;
  gone: () => boolean;
}

interface Line {
  running: number;
  queue: Place[];
}

const NOTHING_TO_LEAVE: LeaveLane = () => undefined;

/**
 * How many requests of one account this process works on at once. The hourly quota bounds how
 * much an account asks for, not how fast: without lanes, one key firing its whole quota of the
 * costliest searches at once holds Elasticsearch for everyone (measured: simple searches of other
 * accounts took 2.2–2.8 s instead of about 0.01 s). With lanes, an account's extra requests wait
 * here, in order, doing no work (each holds its request's memory, about 27 KB, as it would
 * waiting anywhere else), while other accounts' requests go straight through; so at any moment
 * Elasticsearch works on at most `perAccount` requests of each account. A client that sends a few
 * more at once is served at the pace of its lanes; past `waitingPerAccount` waiting, the line is
 * full and the request is refused at once. Without that bound, a line would be the one queue of the
 * API that nothing limits: one socket pipelining 5,000 requests held 5,000 of them here (about
 * 135 MB), where Elasticsearch's own queue would have shed them.
 */
export function createAccountLanes(perAccount: number, waitingPerAccount: number): AccountLanes {
  if (!Number.isInteger(perAccount) || perAccount < 1) throw new Error(`lanes per account must be a positive integer, not ${perAccount}`);
  if (!Number.isInteger(waitingPerAccount) || waitingPerAccount < 1)
    throw new Error(`places in line per account must be a positive integer, not ${waitingPerAccount}`);
  const lines = new Map<string, Line>();
  let waiting = 0;
  let opened = false;

  function leaver(accountId: string, line: Line): LeaveLane {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      // A lane that frees goes straight to the next in line, so nothing can slip in between.
      const next = line.queue.shift();
      if (next) {
        waiting--;
        next.letIn(leaver(accountId, line));
      } else if (--line.running === 0) {
        lines.delete(accountId);
      }
    };
  }

  function tryEnter(accountId: string): LeaveLane | null {
    if (opened) return NOTHING_TO_LEAVE;
    let line = lines.get(accountId);
    if (!line) {
      line = { running: 0, queue: [] };
      lines.set(accountId, line);
    }
    if (line.running >= perAccount) return null;
    line.running++;
    return leaver(accountId, line);
  }

  return {
    perAccount,
    waitingPerAccount,
    tryEnter,
    openAll() {
      opened = true;
      for (const line of lines.values()) {
        for (const next of line.queue.splice(0)) next.letIn(NOTHING_TO_LEAVE);
      }
      waiting = 0;
    },
    waitFor(accountId, gone = () => false) {
      const entered = tryEnter(accountId);
      if (entered) return Promise.resolve(entered);
      const line = lines.get(accountId)!;
      if (line.queue.length >= waitingPerAccount) {
        // Places of clients that hung up are given back before anyone is refused: let go without a
        // lane, they do no work (their handler sees the client gone).
        const staying: Place[] = [];
        for (const place of line.queue) {
          if (!place.gone()) staying.push(place);
          else {
            waiting--;
            place.letIn(NOTHING_TO_LEAVE);
          }
        }
        line.queue = staying;
        if (line.queue.length >= waitingPerAccount) return null;
      }
      waiting++;
      return new Promise((letIn) => line.queue.push({ letIn, gone }));
    },
    get waiting() {
      return waiting;
    },
    get accounts() {
      return lines.size;
    },
  };
}
