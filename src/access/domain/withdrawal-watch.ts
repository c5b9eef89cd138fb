import type { Logger } from '../../infra/logger.js';
import type { Withdrawal, WithdrawalLog } from '../store/withdrawal-log.js';

/** How often each process reads the withdrawal log: how late, at most, it hears of a revocation. */
export const WITHDRAWALS_READ_EVERY_MS = 1_000;

export interface WithdrawalWatchOptions {
  log: Pick<WithdrawalLog, 'readAfter'>;
  /** Whether the log can be read now (its connection is up); a tick that cannot is skipped quietly. */
  ready: () => boolean;
  onWithdrawal: (withdrawal: Withdrawal) => void;
  /** Called every tick, whether the log answers or not (rotations' graces end on time in an outage too). */
  onTick: () => void;
  logger: Logger;
  everyMs?: number;
}

/**
 * Reads the withdrawal log from its oldest kept entry, then every `everyMs`, one read at a time,
 * and hands each withdrawal to admission. Failures are logged once until a read succeeds: Redis
 * being down is said by the request path too, and what the watch missed it reads once Redis is back.
 */
export function watchWithdrawals({ log, ready, onWithdrawal, onTick, logger, everyMs = WITHDRAWALS_READ_EVERY_MS }: WithdrawalWatchOptions): {
  stop(): void;
} {
  let after = '0-0';
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function readAll(): Promise<void> {
    for (;;) {
      const { last, withdrawals } = await log.readAfter(after);
      if (last === after) return;
      after = last;
      for (const withdrawal of withdrawals) onWithdrawal(withdrawal);
    }
  }

  async function tick(): Promise<void> {
    onTick();
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
