import type { Logger } from '../../infra/logger.js';
import { type Withdrawal, type WithdrawalLog, entryAfter } from '../store/withdrawal-log.js';

/** How often each process reads the withdrawal log: how late, at most, it hears of a revocation. */
export const WITHDRAWALS_READ_EVERY_MS = 1_000;

export interface WithdrawalWatchOptions {
  log: Pick<WithdrawalLog, 'readAfter' | 'oldest'>;
  /** Whether the log can be read now (its connection is up); a tick that cannot is skipped quietly. */
  ready: () => boolean;
  onWithdrawal: (withdrawal: Withdrawal) => void;
  /** The log lost entries this watch had not read (trimmed while it could not read). */
  onGap: () => void;
  logger: Logger;
  everyMs?: number;
}

/**
 * Reads the withdrawal log from its oldest kept entry, then every `everyMs`, one read at a time,
 * and hands each withdrawal on. Failures are logged once until a read succeeds (Redis being down
 * is said by the request path too); what the watch missed meanwhile it reads once Redis is back.
 * After each read it asks for the oldest entry kept: a log trimmed past what was read before is
 * said (onGap).
 */
export function watchWithdrawals({ log, ready, onWithdrawal, onGap, logger, everyMs = WITHDRAWALS_READ_EVERY_MS }: WithdrawalWatchOptions): {
  stop(): void;
} {
  let after = '0-0';
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function readAll(): Promise<void> {
    for (;;) {
      const from = after;
      const { last, withdrawals } = await log.readAfter(from);
      // Trimmed past what was read before (while this process could not read, or when more than
      // the log keeps were written between two reads): asked after the read, as trimming only
      // moves on, so an entry trimmed before the read is never missed.
      if (from !== '0-0') {
        const oldest = await log.oldest();
        if (oldest !== null && entryAfter(oldest, from)) onGap();
      }
      if (last === after) return;
      after = last;
      for (const withdrawal of withdrawals) onWithdrawal(withdrawal);
    }
  }

  async function tick(): Promise<void> {
    if (ready()) {
      try {
        await readAll();
        if (failing) logger.info('withdrawn keys readable again');
        failing = false;
      } catch (err) {
        if (!failing) {
          logger.warn('cannot read withdrawn keys: a key revoked meanwhile may be admitted by the fallback until Redis answers', {
            reason: err instanceof Error ? err.message : String(err),
          });
        }
        failing = true;
      }
    }
    if (stopped) return;
    timer = setTimeout(() => void tick(), everyMs);
    timer.unref();
  }

  void tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
