import type { Cluster, Redis } from 'ioredis';
import { newAccountId } from '../api-key.js';
import { redisKeys } from './redis-keys.js';
import { type OnUnlogged, type WithdrawalNotice, announced, createWithdrawalLog } from './withdrawal-log.js';

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

/** How an operator names an account: by its name, or explicitly by its id (`id:<account id>`). */
export type AccountRef = { name: string } | { id: string };

export function parseAccountRef(text: string): AccountRef {
  return text.startsWith('id:') ? { id: text.slice(3) } : { name: text };
}

/** What an operator's change to an account came to. */
export type OperatorChange = 'done' | 'no-account' | 'portal-account';

/**
 * Accounts in Redis: `wpc:{<id>}:account` (a hash) and the global name index. Portal accounts are
 * named by their email and operators' accounts by any name, in one index, so a name is one
 * account. Operators reach a portal account only by its id (see portalAccountRefused).
 */
export function createAccountStore(redis: Redis | Cluster, { onUnlogged }: { onUnlogged?: OnUnlogged } = {}) {
  const withdrawals = createWithdrawalLog(redis);
  const unlogged = (notice: WithdrawalNotice, accountId: string) => (reason: string) => onUnlogged?.({ notice, accountId, reason });
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

  /** The account an operator's command acts on: any account by id; by name, only one without a portal password. */
  async function operatorAccount(ref: AccountRef): Promise<Account | 'no-account' | 'portal-account'> {
    const account = 'id' in ref ? await byId(ref.id) : await byName(ref.name);
    if (!account) return 'no-account';
    if ('name' in ref && account.passwordHash !== null) return 'portal-account';
    return account;
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

    /**
     * A portal account's new password hash, over the one the current password was checked against;
     * false when the account holds another (an operator's account has none, so never gains one
     * here). Two changes made at once, each with the right password, both passed the check: the
     * first to write wins, and the other, whose session the first ends, is refused.
     */
    async setPassword(accountId: string, checkedHash: string, passwordHash: string): Promise<boolean> {
      const key = redisKeys.account(accountId);
      const done = await redis.eval(
        "if redis.call('HGET', KEYS[1], 'password') == ARGV[1] then redis.call('HSET', KEYS[1], 'password', ARGV[2]) return 1 end return 0",
        1,
        key,
        checkedHash,
        passwordHash,
      );
      return done === 1;
    },

    /** Moves an operator's account to `tier`, or a portal account named by its id. */
    async setTier(ref: AccountRef, tier: string): Promise<OperatorChange> {
      const found = await operatorAccount(ref);
      if (typeof found === 'string') return found;
      await redis.hset(redisKeys.account(found.accountId), 'tier', tier);
      return 'done';
    },

    /** A disabled account's keys answer 403 and it cannot sign in. */
    async setDisabled(ref: AccountRef, disabled: boolean): Promise<OperatorChange> {
      const found = await operatorAccount(ref);
      if (typeof found === 'string') return found;
      const { accountId } = found;
      if (disabled) {
        const notice = { kind: 'account', accountId } as const;
        await announced(
          withdrawals,
          notice,
          () => redis.hset(redisKeys.account(accountId), 'disabled_at', new Date().toISOString()),
          unlogged(notice, accountId),
        );
        return 'done';
      }
      await redis.hset(redisKeys.account(accountId), 'disabled_at', '');
      // Said after the change: until it is read, the fallback only goes on refusing the account's
      // keys on its own word, as it did while the account was disabled; a log that cannot be
      // written leaves it so until the process restarts, which fails closed, never open.
      const notice = { kind: 'account-restored', accountId } as const;
      await withdrawals
        .announce(notice)
        .catch((error: unknown) => unlogged(notice, accountId)(error instanceof Error ? error.message : String(error)));
      return 'done';
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
