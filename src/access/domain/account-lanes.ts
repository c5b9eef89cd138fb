/**
 * Gives back a lane; a second call does nothing. `served` says whether the request was answered
 * (not failed for a backend that did not answer): what tells a busy line from a stalled one.
 */
export type LeaveLane = (served?: boolean) => void;

/** A place kept for a request that will ask for a lane soon; given back when it does not. */
export interface Hold {
  /** Gives the place back; does nothing once the request has asked for its lane, or a second time. */
  release(): void;
}

export interface AccountLanes {
  /**
   * A place kept in the account's lanes or line for a request still on its way to them (its quota
   * being checked), or null at once when the lanes, the line and the places kept are all taken.
   * Passed to `tryEnter` or `waitFor`, it becomes the request's own.
   */
  hold(accountId: string): Hold | null;
  /** A lane at once when the account has one free, else null (then `waitFor`). */
  tryEnter(accountId: string, hold?: Hold): LeaveLane | null;
  /**
   * A lane once the account's earlier requests have left enough: first come, first served. Null,
   * at once, when the account already has as many waiting as its line holds. `gone` tells whether
   * the request's client has hung up: such a request holds no place once the line is full. The
   * promise gives null when the account's lanes served nothing for `maxWaitMs` (createAccountLanes)
   * while the request waited.
   */
  waitFor(accountId: string, gone?: () => boolean, hold?: Hold): Promise<LeaveLane | null> | null;
  /**
   * From now on, no account is held to lanes: every request waiting is let in at once, and later
   * ones enter straight away. For shutdown, which must answer what it holds before its deadline.
   */
  openAll(): void;
  /** Lanes of each account, places in its line, and how long a request waits in it at most. */
  readonly perAccount: number;
  readonly waitingPerAccount: number;
  readonly maxWaitMs: number;
  /** Requests waiting for a lane, every account together. */
  readonly waiting: number;
  /** Accounts with a request in a lane or waiting; an account with neither is forgotten. */
  readonly accounts: number;
}

interface Place {
  letIn: (leave: LeaveLane) => void;
  gone: () => boolean;
}

// As long as any wait: a timer is set only below it.
const FOREVER = 2 ** 31 - 1;

interface Line {
  /** When a request of the account last left a lane served, or the line began (performance.now()). */
  lastServed: number;
  running: number;
  queue: Place[];
  /** Places kept for requests on their way (see hold). */
  held: number;
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
 * 135 MB), where Elasticsearch's own queue would have shed them. And a line that serves nothing
 * for `maxWaitMs` lets its waiting requests go: behind lanes held by a stalled node, the 40th of one
 * account's requests at once was answered after 39 s, each lane's request failing in turn at its
 * timeout (helper-123). Not a bound on each request's wait: 60 searches at once against a node
 * answering each in 0.5 s are all served, the last after 7.8 s (helper-124).
 */
export function createAccountLanes(perAccount: number, waitingPerAccount: number, maxWaitMs = FOREVER): AccountLanes {
  if (!Number.isInteger(perAccount) || perAccount < 1) throw new Error(`lanes per account must be a positive integer, not ${perAccount}`);
  if (!Number.isInteger(waitingPerAccount) || waitingPerAccount < 1)
    throw new Error(`places in line per account must be a positive integer, not ${waitingPerAccount}`);
  const lines = new Map<string, Line>();
  let waiting = 0;
  let opened = false;

  function leaver(accountId: string, line: Line): LeaveLane {
    let left = false;
    return (served = true) => {
      if (left) return;
      left = true;
      if (served) line.lastServed = performance.now();
      // A lane that frees goes straight to the next in line, so nothing can slip in between.
      const next = line.queue.shift();
      if (next) {
        waiting--;
        next.letIn(leaver(accountId, line));
      } else {
        line.running--;
        forgetIfIdle(accountId, line);
      }
    };
  }

  function forgetIfIdle(accountId: string, line: Line): void {
    if (line.running === 0 && line.queue.length === 0 && line.held === 0 && lines.get(accountId) === line) lines.delete(accountId);
  }

  function lineOf(accountId: string): Line {
    let line = lines.get(accountId);
    if (!line) {
      line = { lastServed: performance.now(), running: 0, queue: [], held: 0 };
      lines.set(accountId, line);
    }
    return line;
  }

  /** The place a hold kept, now its request's own (or given back: it asks for its lane now). */
  const redeem = (hold: Hold | undefined) => hold?.release();

  function tryEnter(accountId: string, hold?: Hold): LeaveLane | null {
    redeem(hold);
    if (opened) return NOTHING_TO_LEAVE;
    const line = lineOf(accountId);
    if (line.running >= perAccount) return null;
    line.running++;
    return leaver(accountId, line);
  }

  /**
   * Places of clients that hung up are given back before anyone is refused: let go without a lane,
   * they do no work (their handler sees the client gone).
   */
  function letGoneGo(line: Line): void {
    const staying: Place[] = [];
    for (const place of line.queue) {
      if (!place.gone()) staying.push(place);
      else {
        waiting--;
        place.letIn(NOTHING_TO_LEAVE);
      }
    }
    line.queue = staying;
  }

  function hold(accountId: string): Hold | null {
    if (opened) return { release: () => undefined };
    const line = lineOf(accountId);
    const full = () => line.running + line.queue.length + line.held >= perAccount + waitingPerAccount;
    if (full()) letGoneGo(line);
    if (full()) {
      forgetIfIdle(accountId, line);
      return null;
    }
    line.held++;
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        line.held--;
        forgetIfIdle(accountId, line);
      },
    };
  }

  return {
    perAccount,
    waitingPerAccount,
    maxWaitMs,
    hold,
    tryEnter,
    openAll() {
      opened = true;
      for (const line of lines.values()) {
        for (const next of line.queue.splice(0)) next.letIn(NOTHING_TO_LEAVE);
      }
      waiting = 0;
    },
    waitFor(accountId, gone = () => false, held) {
      const entered = tryEnter(accountId, held);
      if (entered) return Promise.resolve(entered);
      const line = lines.get(accountId)!;
      // Places kept for requests on their way count: a request that kept none (a key new to the
      // process) must not take the place of one that did.
      const full = () => line.queue.length + line.held >= waitingPerAccount;
      if (full()) {
        letGoneGo(line);
        if (full()) return null;
      }
      waiting++;
      return new Promise((answer) => {
        const place: Place = {
          letIn: (leave) => {
            clearTimeout(timer);
            answer(leave);
          },
          gone,
        };
        const since = performance.now();
        let timer: NodeJS.Timeout | undefined;
        // Waits on while the line serves: gives up once nothing was served for maxWaitMs of its wait.
        const check = () => {
          const stalledFor = performance.now() - Math.max(since, line.lastServed);
          if (stalledFor < maxWaitMs) {
            timer = setTimeout(check, maxWaitMs - stalledFor);
            return;
          }
          const at = line.queue.indexOf(place);
          if (at === -1) return;
          line.queue.splice(at, 1);
          waiting--;
          forgetIfIdle(accountId, line);
          answer(null);
        };
        if (maxWaitMs < FOREVER) timer = setTimeout(check, maxWaitMs);
        line.queue.push(place);
      });
    },
    get waiting() {
      return waiting;
    },
    get accounts() {
      return lines.size;
    },
  };
}
