import type { RedisClient } from '../../infra/redis.js';
import { redisKeys } from './redis-keys.js';

/**
 * A key that stops authenticating (revoked, or rotated out at `fromMs`, Redis's clock), or every
 * key of an account (disabled). `fromMs` 0: at once.
 */
export type Withdrawal = { kind: 'key'; hash: string; fromMs: number } | { kind: 'account'; accountId: string; fromMs: number };

// Entries kept: a process that polls every second misses none unless ten thousand keys are
// revoked in one second.
const KEPT = 10_000;
const READ_PAGE = 1_000;

/**
 * The log of withdrawals, a Redis stream: written before the change it announces, so a process
 * that reads of one may find the key still working (harmless: it asks Redis again), never the
 * reverse. The admission script stays the authority; the log only tells each process which of
 * the keys it verified it must not admit on its own while Redis does not answer (admission.ts).
 */
export function createWithdrawalLog(redis: RedisClient) {
  return {
    async announce(withdrawal: Withdrawal): Promise<void> {
      const id = withdrawal.kind === 'key' ? withdrawal.hash : withdrawal.accountId;
      await redis.xadd(redisKeys.withdrawals, 'MAXLEN', '~', String(KEPT), '*', 'kind', withdrawal.kind, 'id', id, 'from', String(withdrawal.fromMs));
    },

    /** The withdrawals after entry `after` ('0-0': from the oldest kept), at most a page, and the last entry read. */
    async readAfter(after: string): Promise<{ last: string; withdrawals: Withdrawal[] }> {
      const reply = await redis.xread('COUNT', READ_PAGE, 'STREAMS', redisKeys.withdrawals, after);
      const entries = reply?.[0]?.[1] ?? [];
      const withdrawals: Withdrawal[] = [];
      for (const [, fields] of entries) {
        const entry = new Map<string, string>();
        for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i]!, fields[i + 1]!);
        const id = entry.get('id') ?? '';
        const fromMs = Number(entry.get('from')) || 0;
        if (entry.get('kind') === 'key') withdrawals.push({ kind: 'key', hash: id, fromMs });
        else if (entry.get('kind') === 'account') withdrawals.push({ kind: 'account', accountId: id, fromMs });
      }
      return { last: entries.at(-1)?.[0] ?? after, withdrawals };
    },
  };
}

export type WithdrawalLog = ReturnType<typeof createWithdrawalLog>;
