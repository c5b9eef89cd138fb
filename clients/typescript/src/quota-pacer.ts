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
   * got no rate-limit headers back (a proxy took them off) or no answer at all (the API hung or
   * is down: the others must not wait in line behind one timeout after another); on again at the
   * next answer that has them.
   */
  private mayProbe = true;
  /** Requests let go so far, those waiting for their turn included. */
  private decided = 0;
  /** Requests sent so far. */
  private sent = 0;
  /** When the last turn given out comes; requests waiting for a turn. */
  private lastTurnMs = 0;
  private waitingTurns = 0;
  private probe: { answered: Promise<void>; settle: () => void } | null = null;

  constructor(
    private readonly options: { paceBelow: number; maxWaitMs: number; probeWaitMs: number; wait: Wait },
    private readonly now: () => number = Date.now,
  ) {}

  /** Waits until a request may be sent. */
  async turn(signal: AbortSignal): Promise<Turn> {
    for (;;) {
      signal.throwIfAborted();
      if (this.probe) {
        // At most as long as an attempt may take: a fetch that ignores its signal holds no one for good.
        const answered = await settledWithin(this.probe.answered, this.options.probeWaitMs, signal);
        if (!answered && !signal.aborted) return this.letGo(false);
        continue;
      }
      const now = this.now();
      const quota = this.quota;
      const low = (q: Quota) => this.left(q) <= q.limit * this.options.paceBelow;
      if (this.mayProbe && (quota === null || (quota.resetMs <= now && low(quota)))) {
        let settle = () => undefined as void;
        const answered = new Promise<void>((resolve) => (settle = resolve));
        this.probe = { answered, settle };
        return this.letGo(true);
      }
      if (quota === null) return this.letGo(false);
      const untilReset = quota.resetMs - now;
      const left = this.left(quota);
      if (untilReset <= 0 || !low(quota)) return this.letGo(false);
      if (left <= 0) {
        if (untilReset > this.options.maxWaitMs) throw spent(untilReset);
        // Then look again: the window's first answer after the reset says what it has room for.
        await this.options.wait(untilReset, signal);
        continue;
      }
      // Spread what is left until the reset, requests taking turns one spread apart. Alone, with
      // a spread longer than it may wait, it spends it now (and stops when it is gone, above);
      // behind others, a turn further off than it may wait is a quota spent for it.
      const spread = untilReset / left;
      if (this.waitingTurns === 0 && spread > this.options.maxWaitMs) return this.letGo(false);
      const turn = Math.max(now, this.lastTurnMs) + spread;
      if (turn - now > this.options.maxWaitMs) throw spent(turn - now);
      this.lastTurnMs = turn;
      this.decided++;
      this.waitingTurns++;
      try {
        await this.options.wait(turn - now, signal);
      } catch (err) {
        // Stopped before it was sent: it spends nothing, and must not count as spent for good;
        // and when no one else waits, the turns it held up are given back.
        this.decided--;
        if (this.waitingTurns === 1) this.lastTurnMs = Math.min(this.lastTurnMs, this.now());
        throw err;
      } finally {
        this.waitingTurns--;
      }
      return { asked: ++this.sent, probe: false };
    }
  }

  /** What a request's answer said of the quota; `response` is null when there was none (a network error). */
  answered(turn: Turn, response: Response | null): void {
    if (response) this.remember(response, turn.asked);
    else if (turn.probe) this.mayProbe = false;
    if (turn.probe && this.probe) {
      this.probe.settle();
      this.probe = null;
    }
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
    if (this.quota === null || asked >= this.quota.asked) this.quota = { limit, remaining, resetMs: reset * 1000, asked };
  }
}

/** A turn further off than the client may wait. */
function spent(waitMs: number): QuotaExhausted {
  return new QuotaExhausted('rate_limit_exceeded', 'The quota is spent until its window resets', Math.ceil(waitMs / 1000));
}
