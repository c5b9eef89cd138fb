import { QuotaExhausted } from './errors.js';
import { settledWithin } from './stoppable.js';

/** A wait that a signal ends early, with its reason. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

/** A request let go by the pacer: hand it back with its answer through `answered`. */
export interface Turn {
  /** The request's number, in the order requests are sent. */
  readonly asked: number;
  /** Whether it asks for the others: they wait for its answer, the quota being unknown. */
  readonly probe: boolean;
}

interface Quota {
  limit: number;
  remaining: number;
  resetMs: number;
  /** The number of the request whose answer said this. */
  asked: number;
}

/**
 * What one client knows of its quota, from the API's rate-limit headers, shared by every call of
 * that client, so calls made at once see each other:
 * - a request is counted as spent from when it is let go, before it is sent;
 * - when nothing is known (the first request, or a window that has reset since the quota ran low),
 *   one request asks and the others wait for its answer, instead of all going at once into a
 *   quota that may have room for one;
 * - below `paceBelow` of the limit, the requests left are spread until the reset, one after
 *   another, and one whose turn is further off than `maxWaitMs` throws QuotaExhausted; at none
 *   left, they wait for the reset, or throw QuotaExhausted past `maxWaitMs`.
 */
export class QuotaPacer {
  private quota: Quota | null = null;
  /**
   * Whether a request may ask for the others while the quota is unknown. Off once one asked and
   * got no rate-limit headers back (a proxy took them off), or no answer within its time (the API
   * hangs: the others must not wait in line behind one timeout after another); on again at the
   * next answer that has them. One stopped by its caller, or refused a connection, hands the
   * asking to the next.
   */
  private mayProbe = true;
  /** Requests let go so far, those waiting for their turn included. */
  private decided = 0;
  /** Requests sent so far. */
  private sent = 0;
  /** When the last turn given out comes, and how many requests wait for theirs. */
  private lastTurnMs = 0;
  private waitingTurns = 0;
  private probe: { asked: number; answered: Promise<void>; settle: () => void } | null = null;

  constructor(
    private readonly options: { paceBelow: number; maxWaitMs: number; probeWaitMs: number; wait: Wait },
    private readonly now: () => number = Date.now,
  ) {}

  /** Waits until a request may be sent. */
  async turn(signal: AbortSignal): Promise<Turn> {
    for (;;) {
      signal.throwIfAborted();
      const probe = this.probe;
      if (probe) {
        // At most as long as an attempt may take; past that the API is taken to hang (a fetch that
        // ignores its signal would otherwise hold every later call as long), and no one asks again
        // for the others until an answer comes.
        const answered = await settledWithin(probe.answered, signal, this.options.probeWaitMs);
        if (!answered && !signal.aborted) {
          this.settleProbe(probe.asked, false);
          return this.letGo(false);
        }
        continue;
      }
      const now = this.now();
      const quota = this.quota;
      const low = (q: Quota) => this.left(q) <= q.limit * this.options.paceBelow;
      if (this.mayProbe && (quota === null || (quota.resetMs <= now && low(quota)))) {
        const turn = this.letGo(true);
        let settle = () => undefined as void;
        const answered = new Promise<void>((resolve) => (settle = resolve));
        this.probe = { asked: turn.asked, answered, settle };
        return turn;
      }
      if (quota === null) return this.letGo(false);
      const untilReset = quota.resetMs - now;
      const left = this.left(quota);
      if (untilReset <= 0 || !low(quota)) return this.letGo(false);
      if (left <= 0) {
        if (untilReset > this.options.maxWaitMs) throw spent(untilReset, 'The quota is spent until its window resets');
        // Then look again: the window's first answer after the reset says what it has room for.
        await this.options.wait(untilReset, signal);
        continue;
      }
      // Spread what is left until the reset: from now, or from the last turn given to those still
      // waiting, what time is left until the reset over the requests left after theirs (`left`
      // counts them as spent). Spread from now and added after their turns, the gaps had grown
      // call by call: 9 calls with 9 left and 31 s had waited until 56 s, and the ninth was refused
      // (helper-110). Alone, with a spread longer than it may wait, it spends it now (and stops
      // when it is gone, above); behind others, a turn further off than it may wait is refused.
      const queued = this.waitingTurns > 0;
      const from = queued ? Math.max(now, this.lastTurnMs) : now;
      const spread = Math.max(0, quota.resetMs - from) / left;
      if (!queued && spread > this.options.maxWaitMs) return this.letGo(false);
      const turn = from + spread;
      if (turn - now > this.options.maxWaitMs) {
        throw spent(
          turn - now,
          `The quota left is spread across the ${this.waitingTurns} calls waiting: this one's turn is further off than maxWaitMs`,
        );
      }
      this.lastTurnMs = turn;
      this.decided++;
      this.waitingTurns++;
      try {
        await this.options.wait(turn - now, signal);
      } catch (err) {
        // Stopped before it was sent: it spends nothing, and must not count as spent for good.
        this.decided--;
        throw err;
      } finally {
        this.waitingTurns--;
      }
      return { asked: ++this.sent, probe: false };
    }
  }

  /**
   * What a request's answer said of the quota. `response` is null when there was none: `hung` when
   * its time ran out, else it was stopped or refused a connection.
   */
  answered(turn: Turn, response: Response | null, { hung = false }: { hung?: boolean } = {}): void {
    if (response) this.remember(response, turn.asked);
    if (turn.probe) this.settleProbe(turn.asked, response !== null || !hung);
  }

  /** The asking request is done with; if it learnt nothing of the API's health, no one asks again for now. */
  private settleProbe(asked: number, mayAskAgain: boolean): void {
    if (this.probe?.asked !== asked) return;
    if (!mayAskAgain) this.mayProbe = false;
    this.probe.settle();
    this.probe = null;
  }

  /**
   * Requests let go after the one whose answer was read may not be in its count yet: they are
   * taken as spent, those sent after it and those waiting for their turn.
   */
  private left(quota: Quota): number {
    return quota.remaining - (this.decided - quota.asked);
  }

  private letGo(probe: boolean): Turn {
    this.decided++;
    return { asked: ++this.sent, probe };
  }

  // An older answer, read after a newer one, knows less: it does not replace it.
  private remember(response: Response, asked: number): void {
    const limit = Number(response.headers.get('X-RateLimit-Limit'));
    const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
    const reset = Number(response.headers.get('X-RateLimit-Reset'));
    if (!response.headers.has('X-RateLimit-Remaining') || !Number.isFinite(limit + remaining + reset)) {
      if (this.quota === null) this.mayProbe = false;
      return;
    }
    this.mayProbe = true;
    if (this.quota === null || asked >= this.quota.asked) this.quota = { limit, remaining, resetMs: this.resetMsOf(response, reset), asked };
  }

  /**
   * When the window resets, on this machine's clock: from `RateLimit`'s `t=` (seconds from now)
   * when the answer has it, else X-RateLimit-Reset (Unix seconds, on the server's clock). A clock
   * 30 s slow had refused 61 of 100 calls as past the reset's wait, one 30 s fast met 80 429s
   * (helper-110): an app runs on its users' machines, whose clocks are what they are.
   */
  private resetMsOf(response: Response, reset: number): number {
    const seconds = /(?:^|;)\s*t=(\d+)\s*(?:;|$)/.exec(response.headers.get('RateLimit') ?? '')?.[1];
    return seconds === undefined ? reset * 1000 : this.now() + Number(seconds) * 1000;
  }
}

/** A wait further off than the client may wait: `waitMs` is when this call would have room. */
function spent(waitMs: number, message: string): QuotaExhausted {
  return new QuotaExhausted('rate_limit_exceeded', message, Math.ceil(waitMs / 1000));
}
