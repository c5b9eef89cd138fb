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
 * is said by the request path too); what the watch missed meanwhile it reads once Redis is back,
 * unless the log was trimmed past it, which it then says (onGap).
 */
export function watchWithdrawals({ log, ready, onWithdrawal, onGap, logger, everyMs = WITHDRAWALS_READ_EVERY_MS }: WithdrawalWatchOptions): {
  stop(): void;
} {
  let after = '0-0';
  let failing = false;
  // A tick skipped or failed: the log may have been trimmed past what was read.
  let behind = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function readAll(): Promise<void> {
    if (behind && after !== '0-0') {
      const oldest = await log.oldest();
      if (oldest !== null && entryAfter(oldest, after)) onGap();
    }
    for (;;) {
      const { last, withdrawals } = await log.readAfter(after);
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
        behind = false;
      } catch (err) {
        if (!failing) {
          logger.warn('cannot read withdrawn keys: a key revoked meanwhile may be admitted by the fallback until Redis answers', {
            reason: err instanceof Error ? err.message : String(err),
          });
        }
        failing = true;
        behind = true;
      }
    } else {
      behind = true;
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
