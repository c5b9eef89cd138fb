import type { Cluster, Redis } from 'ioredis';
import { newAccountId } from './api-key.js';
import { redisKeys } from './redis-keys.js';

/** An account as the portal and the operators' CLI see it. */
export interface Account {
  accountId: string;
  /** The account's name: its email for portal accounts, any name for CLI-made ones. */
  name: string;
  tier: string;
  createdAt: string;
  disabled: boolean;
  /** The password hash, absent for accounts made by the CLI (they cannot sign in). */
  passwordHash: string | null;
}

/**
 * Accounts in Redis: `wpc:{<id>}:account` (a hash) and the global name index. Portal accounts are
 * named by their email, so an operator's `keys create --account <email>` adds a key to the same
 * account the portal shows.
 */
export function createAccountStore(redis: Redis | Cluster) {
  async function byId(accountId: string): Promise<Account | null> {
    const record = await redis.hgetall(redisKeys.account(accountId));
    if (!record['tier']) return null;
    return {
      accountId,
      name: record['name'] ?? '',
      tier: record['tier'],
      createdAt: record['created_at'] ?? '',
      disabled: Boolean(record['disabled_at']),
      passwordHash: record['password'] || null,
    };
  }

  async function byName(name: string): Promise<Account | null> {
    const accountId = await redis.hget(redisKeys.accountNames, name);
    return accountId ? byId(accountId) : null;
  }

  return {
    byId,
    byName,

    /**
     * A new account with a password; false when the name is taken. The record is complete before
     * the name points at it, so a crash in between leaves an unreachable record, never a half account.
     */
    async create({ name, tier, passwordHash }: { name: string; tier: string; passwordHash: string }): Promise<boolean> {
      if (await redis.hexists(redisKeys.accountNames, name)) return false;
      const accountId = newAccountId();
      await redis.hset(redisKeys.account(accountId), {
        account_id: accountId,
        name,
        tier,
        created_at: new Date().toISOString(),
        password: passwordHash,
      });
      if ((await redis.hsetnx(redisKeys.accountNames, name, accountId)) === 1) return true;
      await redis.del(redisKeys.account(accountId));
      return false;
    },

    /** False when there is no such account. */
    async setTier(name: string, tier: string): Promise<boolean> {
      const account = await byName(name);
      if (!account) return false;
      await redis.hset(redisKeys.account(account.accountId), 'tier', tier);
      return true;
    },

    /** A disabled account's keys answer 403 and it cannot sign in; false when there is no such account. */
    async setDisabled(name: string, disabled: boolean): Promise<boolean> {
      const account = await byName(name);
      if (!account) return false;
      await redis.hset(redisKeys.account(account.accountId), 'disabled_at', disabled ? new Date().toISOString() : '');
      return true;
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
