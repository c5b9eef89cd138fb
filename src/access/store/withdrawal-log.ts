import type { RedisClient } from '../../infra/redis.js';
import { redisKeys } from './redis-keys.js';

/**
 * What stopped authenticating, or may again: a key revoked (`fromMs` 0) or rotated out when its
 * grace ends (`fromMs`, Redis's clock); every key of an account disabled; an account enabled again.
 */
export type WithdrawalNotice =
  { kind: 'key'; hash: string; fromMs: number } | { kind: 'account'; accountId: string } | { kind: 'account-restored'; accountId: string };

/** A notice as read: with when Redis wrote it (its entry id's time), on Redis's clock. */
export type Withdrawal = WithdrawalNotice & { writtenMs: number };

// Entries kept, at least (MAXLEN ~ trims whole nodes of the stream, so a few more are kept): a
// process that reads every second misses none unless ten thousand are written meanwhile, and
// then it knows (oldest).
const KEPT = 10_000;
const READ_PAGE = 1_000;

/** Whether stream entry id `a` comes after `b`. */
export function entryAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am > bm || (am === bm && as > bs);
}

function noticeOf(fields: string[]): WithdrawalNotice | null {
  const entry = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i]!, fields[i + 1]!);
  const id = entry.get('id') ?? '';
  switch (entry.get('kind')) {
    case 'key':
      return { kind: 'key', hash: id, fromMs: Number(entry.get('from')) || 0 };
    case 'account':
      return { kind: 'account', accountId: id };
    case 'account-restored':
      return { kind: 'account-restored', accountId: id };
    default:
      return null;
  }
}

/**
 * The log of withdrawals, a Redis stream. A withdrawal is written before the change it announces,
 * so a process may hear of a key that still works (harmless: it asks Redis again) rather than
 * miss one. The admission script stays the authority; the log only tells each process which keys
 * it must not admit on its own word while Redis does not answer (withdrawn-keys.ts).
 */
export function createWithdrawalLog(redis: RedisClient) {
  return {
    async announce(notice: WithdrawalNotice): Promise<void> {
      const id = notice.kind === 'key' ? notice.hash : notice.accountId;
      const from = notice.kind === 'key' ? notice.fromMs : 0;
      await redis.xadd(redisKeys.withdrawals, 'MAXLEN', '~', String(KEPT), '*', 'kind', notice.kind, 'id', id, 'from', String(from));
    },

    /** The withdrawals after entry `after` ('0-0': from the oldest kept), at most a page, and the last entry read. */
    async readAfter(after: string): Promise<{ last: string; withdrawals: Withdrawal[] }> {
      const reply = await redis.xread('COUNT', READ_PAGE, 'STREAMS', redisKeys.withdrawals, after);
      const entries = reply?.[0]?.[1] ?? [];
      const withdrawals: Withdrawal[] = [];
      for (const [entryId, fields] of entries) {
        const notice = noticeOf(fields);
        if (notice) withdrawals.push({ ...notice, writtenMs: Number(entryId.split('-')[0]) });
      }
      return { last: entries.at(-1)?.[0] ?? after, withdrawals };
    },

    /** The oldest entry kept, or null when the log is empty. */
    async oldest(): Promise<string | null> {
      const first = await redis.xrange(redisKeys.withdrawals, '-', '+', 'COUNT', 1);
      return first[0]?.[0] ?? null;
    },
  };
}

export type WithdrawalLog = ReturnType<typeof createWithdrawalLog>;

/** A change made while its withdrawal could not be logged, for the operator. */
export interface UnloggedWithdrawal {
  notice: WithdrawalNotice;
  accountId: string;
  /** The key's id, for a key's withdrawal. */
  keyId?: string;
  /** Why the second write failed too. */
  reason: string;
}

/** Told of a change whose withdrawal could not be logged; the stores' callers say it to the operator. */
export type OnUnlogged = (unlogged: UnloggedWithdrawal) => void;

/**
 * What a missing log entry leaves open: the log only matters while Redis does not answer, when a
 * process admits keys on Redis's earlier verification (AUTH_GRACE_MS) unless it has read their
 * withdrawal. An enable unsaid fails closed instead.
 */
export function unloggedSentence({ notice, accountId, keyId, reason }: UnloggedWithdrawal): string {
  const cannot = `the withdrawal log could not be written (${reason})`;
  const lost = 'an API process that loses Redis within AUTH_GRACE_MS of verifying';
  switch (notice.kind) {
    case 'key':
      return notice.fromMs > 0
        ? `key ${keyId ?? '?'} rotated, but ${cannot}: ${lost} it may admit it past its grace, until Redis answers again`
        : `key ${keyId ?? '?'} revoked, but ${cannot}: ${lost} it may admit it until Redis answers again`;
    case 'account':
      return `account id:${accountId} disabled, but ${cannot}: ${lost} one of its keys may admit that key until Redis answers again`;
    case 'account-restored':
      return `account id:${accountId} enabled, but ${cannot}: an API process that heard of its disable goes on refusing its keys while it cannot reach Redis, until it restarts`;
  }
}

/**
 * Runs `change` with its withdrawal announced first. When the log cannot be written (on a Redis
 * Cluster its shard may be down while the key's is not), the change is made all the same, being
 * the authority, and the log is tried once more after it: a revocation must not wait on the log.
 * Should that fail too, `onUnlogged` is told, so the operator learns what the log leaves open.
 */
export async function announced<T>(
  log: WithdrawalLog,
  notice: WithdrawalNotice,
  change: () => Promise<T>,
  onUnlogged?: (reason: string) => void,
): Promise<T> {
  const before = await log.announce(notice).then(
    () => true,
    () => false,
  );
  const result = await change();
  if (!before) await log.announce(notice).catch((error: unknown) => onUnlogged?.(error instanceof Error ? error.message : String(error)));
  return result;
}
