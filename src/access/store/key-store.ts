import type { Cluster, Redis } from 'ioredis';
import { generateApiKey, hashApiKey, newAccountId, randomBase62 } from '../api-key.js';
import { redisKeys } from './redis-keys.js';
import { type OnUnlogged, type WithdrawalNotice, announced, createWithdrawalLog } from './withdrawal-log.js';
import { HISTORY } from './sliding-window-lua.js';
import { printable } from '../../infra/visible-text.js';

export interface KeySummary {
  key_id: string;
  name: string;
  account: string;
  account_id: string;
  tier: string;
  created_at: string;
  revoked_at: string | null;
  /** When its account was disabled (`keys disable`): its keys answer 403 while it is. */
  account_disabled_at: string | null;
}

export interface CreatedKey {
  apiKey: string;
  keyId: string;
  accountId: string;
  account: string;
  tier: string;
  /** When its account was disabled: the key answers 403 until the account is enabled. */
  disabledAt: string | null;
}

export class KeyStoreError extends Error {}
/** The account already holds MAX_WORKING_KEYS keys that authenticate. */
export class TooManyKeys extends KeyStoreError {}
/** Another change to the account's keys is being made: the caller tries again. */
export class KeysBusy extends KeyStoreError {}

/**
 * Why an operator's command by name does not reach a portal account: a portal account is named by
 * the email its owner typed, and nothing proves that owner holds the mailbox, so a stranger could
 * register a customer's email first and receive the keys and tiers meant for the customer. The
 * account id, which only its owner sees (on the portal's API Keys page), names it explicitly.
 */
export function portalAccountRefused(name: string): string {
  return (
    `account '${printable(name)}' was registered in the developer portal, and a name alone does not reach it (anyone can register any email). ` +
    "Ask its owner for the account id shown on the portal's API Keys page and name it as id:<account id>."
  );
}

interface IndexEntry {
  account_id: string;
  hash: string;
}

/** One key of an account as its owner sees it in the portal. */
export interface AccountKey {
  key_id: string;
  name: string;
  created_at: string;
  /** ISO time of the last admitted request, or null. */
  last_used: string | null;
  /** Requests admitted with this key in the last hour, counted by the minute. */
  recent_requests: number;
  revoked_at: string | null;
  /** ISO time a rotated key stops working, or null. */
  expires_at: string | null;
}

/** A rotation's longest grace for the old key. */
export const MAX_ROTATION_GRACE_SECONDS = 24 * 3600;
const KEY_NAME_MAX = 64;
/**
 * Keys of a portal account that authenticate (neither revoked nor past their rotation grace):
 * each adds a usage-read cap of its own and a row to every load of the keys page, so an account
 * cannot make them without end.
 */
export const MAX_WORKING_KEYS = 20;
/** Revoked and expired keys kept for the keys page, the latest first; older ones are removed. */
export const DEAD_KEYS_KEPT = 20;
// How long one change to an account's keys may hold its lock, should its process die holding it.
const KEYS_LOCK_MS = 10_000;
const UNLOCK_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
// A revocation keeps the time of the first: revoking again (a repeated command, a double click)
// must not rewrite when a key stopped working, which an audit asks.
const REVOKE_LUA =
  "local at = redis.call('HGET', KEYS[1], 'revoked_at') if at and at ~= '' then return {1, at} end " +
  "redis.call('HSET', KEYS[1], 'revoked_at', ARGV[1]) return {0, ARGV[1]}";

/** A key revoked: when, and whether it had been before this asked. */
export interface Revoked {
  revokedAt: string;
  already: boolean;
}

interface OwnedKey {
  keyId: string;
  hash: string;
  record: Record<string, string>;
}

interface KeysNow {
  keys: OwnedKey[];
  nowMs: number;
}

/**
 * Administrative operations on accounts and keys (used by the keys CLI and tests).
 *
 * An account's records and its keys share one hash tag, while the name index and the key index
 * are global, so no write spans two of them in one command: on Redis Cluster those are different
 * slots. Each change is instead ordered so that a crash between its writes leaves nothing that
 * works half-way: a name is claimed only for an account whose record is complete, and a key is
 * listed (so it can be revoked) before it can authenticate.
 */
export function createKeyStore(redis: Redis | Cluster, { onUnlogged }: { onUnlogged?: OnUnlogged } = {}) {
  const withdrawals = createWithdrawalLog(redis);
  const withdrawn = <T>(notice: WithdrawalNotice, accountId: string, keyId: string, change: () => Promise<T>): Promise<T> =>
    announced(withdrawals, notice, change, (reason) => onUnlogged?.({ notice, accountId, keyId, reason }));
  async function accountIdFor(name: string, tier: string): Promise<{ accountId: string; disabledAt: string | null }> {
    const existing = await redis.hget(redisKeys.accountNames, name);
    if (existing) {
      const [current, password, disabledAt] = await redis.hmget(redisKeys.account(existing), 'tier', 'password', 'disabled_at');
      if (password) throw new KeyStoreError(portalAccountRefused(name));
      if (current !== tier) {
        throw new KeyStoreError(`account '${name}' is on tier '${current}', not '${tier}' (to move it: keys tier ${name} ${tier})`);
      }
      return { accountId: existing, disabledAt: disabledAt || null };
    }
    const accountId = newAccountId();
    await redis.hset(redisKeys.account(accountId), { account_id: accountId, name, tier, created_at: new Date().toISOString() });
    const claimed = await redis.hsetnx(redisKeys.accountNames, name, accountId);
    if (claimed === 1) return { accountId, disabledAt: null };
    // Another run claimed the name first: its account is the one; ours was never reachable.
    await redis.del(redisKeys.account(accountId));
    return accountIdFor(name, tier);
  }

  async function existingAccount(accountId: string, tier: string): Promise<{ name: string; disabledAt: string | null }> {
    const [current, name, disabledAt] = await redis.hmget(redisKeys.account(accountId), 'tier', 'name', 'disabled_at');
    if (!current) throw new KeyStoreError(`no account with id ${accountId}`);
    if (current !== tier) {
      throw new KeyStoreError(
        `account ${accountId} ('${name}') is on tier '${current}', not '${tier}' (to move it: keys tier id:${accountId} ${tier})`,
      );
    }
    return { name: name ?? '', disabledAt: disabledAt || null };
  }

  // Listed in both indexes (so it can be found and revoked) before its record lets it authenticate.
  async function addKey(accountId: string, name: string): Promise<{ apiKey: string; keyId: string }> {
    const apiKey = generateApiKey(accountId);
    const hash = hashApiKey(apiKey);
    const keyId = `key_${randomBase62(12)}`;
    const entry: IndexEntry = { account_id: accountId, hash };
    await redis.hset(redisKeys.keyIndex, keyId, JSON.stringify(entry));
    await redis.hset(redisKeys.accountKeys(accountId), keyId, hash);
    await redis.hset(redisKeys.apiKey(accountId, hash), {
      key_id: keyId,
      account_id: accountId,
      // In characters, as the portal counts them: a cut by UTF-16 units kept half of an emoji.
      name: [...name].slice(0, KEY_NAME_MAX).join(''),
      created_at: new Date().toISOString(),
      revoked_at: '',
    });
    return { apiKey, keyId };
  }

  async function ownedHash(accountId: string, keyId: string): Promise<string | null> {
    return redis.hget(redisKeys.accountKeys(accountId), keyId);
  }

  async function redisNowMs(): Promise<number> {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  async function ownedKeys(accountId: string): Promise<OwnedKey[]> {
    const owned = await redis.hgetall(redisKeys.accountKeys(accountId));
    return Promise.all(
      Object.entries(owned).map(async ([keyId, hash]) => ({ keyId, hash, record: await redis.hgetall(redisKeys.apiKey(accountId, hash)) })),
    );
  }

  const isWorking = ({ record }: OwnedKey, nowMs: number) =>
    Boolean(record['key_id']) && !record['revoked_at'] && !(record['expires_at'] && Number(record['expires_at']) <= nowMs);

  /**
   * One change to an account's keys at a time, over every API process: counting its working keys
   * and adding one must not interleave with another such change, or requests at once would each
   * count room for themselves.
   */
  async function oneChangeAtATime<T>(accountId: string, change: () => Promise<T>): Promise<T> {
    const lock = redisKeys.keysLock(accountId);
    const token = randomBase62(16);
    if ((await redis.set(lock, token, 'PX', KEYS_LOCK_MS, 'NX')) !== 'OK') throw new KeysBusy('another change to these keys is being made');
    try {
      return await change();
    } finally {
      await redis.eval(UNLOCK_LUA, 1, lock, token);
    }
  }

  async function revoke(accountId: string, hash: string, keyId: string): Promise<Revoked> {
    const [already, revokedAt] = (await withdrawn({ kind: 'key', hash, fromMs: 0 }, accountId, keyId, () =>
      redis.eval(REVOKE_LUA, 1, redisKeys.apiKey(accountId, hash), new Date().toISOString()),
    )) as [number, string];
    return { revokedAt, already: already === 1 };
  }

  /** The account's keys and Redis's clock, read together: what one change counts and prunes from. */
  async function keysNow(accountId: string): Promise<KeysNow> {
    const [keys, nowMs] = await Promise.all([ownedKeys(accountId), redisNowMs()]);
    return { keys, nowMs };
  }

  /** The keys as read, when one more may work beside them (TooManyKeys otherwise). */
  async function roomForOneMore(accountId: string): Promise<KeysNow> {
    const now = await keysNow(accountId);
    const working = now.keys.filter((key) => isWorking(key, now.nowMs)).length;
    if (working >= MAX_WORKING_KEYS) throw new TooManyKeys(`the account holds ${working} working keys, the most it may`);
    return now;
  }

  /**
   * Removes the account's revoked and expired keys past the DEAD_KEYS_KEPT latest: from both
   * indexes, then their records. A removed key answers 403, as a key never issued does. A change
   * that only added a working key prunes from what it read before (`read`); one that ended a key
   * reads again.
   */
  async function forgetOldDeadKeys(accountId: string, read?: KeysNow): Promise<void> {
    const { keys, nowMs } = read ?? (await keysNow(accountId));
    const diedAt = ({ record }: OwnedKey) =>
      record['revoked_at'] || (record['expires_at'] ? new Date(Number(record['expires_at'])).toISOString() : '');
    const dead = keys.filter((key) => !isWorking(key, nowMs)).sort((a, b) => diedAt(b).localeCompare(diedAt(a)) || b.keyId.localeCompare(a.keyId));
    for (const { keyId, hash } of dead.slice(DEAD_KEYS_KEPT)) {
      await redis.hdel(redisKeys.keyIndex, keyId);
      await redis.hdel(redisKeys.accountKeys(accountId), keyId);
      await redis.del(redisKeys.apiKey(accountId, hash), redisKeys.keyUse(accountId, hash));
    }
  }

  return {
    /**
     * A key for an operator's account: `account` names one the operators made (created on first
     * use; a portal account is refused, see portalAccountRefused), `accountId` reaches any existing
     * account, the portal's included. Neither: a new anonymous account.
     */
    async createKey({
      tier,
      account,
      accountId: givenId,
      name = '',
    }: {
      tier: string;
      account?: string;
      accountId?: string;
      name?: string;
    }): Promise<CreatedKey> {
      let accountName: string;
      let accountId: string;
      let disabledAt: string | null;
      if (givenId !== undefined) {
        accountId = givenId;
        ({ name: accountName, disabledAt } = await existingAccount(givenId, tier));
      } else {
        accountName = account ?? `account-${randomBase62(8).toLowerCase()}`;
        ({ accountId, disabledAt } = await accountIdFor(accountName, tier));
      }
      const { apiKey, keyId } = await addKey(accountId, name);
      return { apiKey, keyId, accountId, account: accountName, tier, disabledAt };
    },

    /**
     * A new named key for an existing account (the portal's "generate"): TooManyKeys when it holds
     * MAX_WORKING_KEYS already, KeysBusy while another change to its keys is being made.
     */
    async createAccountKey(accountId: string, name: string): Promise<{ apiKey: string; keyId: string }> {
      return oneChangeAtATime(accountId, async () => {
        const read = await roomForOneMore(accountId);
        const created = await addKey(accountId, name);
        await forgetOldDeadKeys(accountId, read);
        return created;
      });
    },

    /** The account's keys, newest first, with their recent use. */
    async listAccountKeys(accountId: string): Promise<AccountKey[]> {
      const owned = await redis.hgetall(redisKeys.accountKeys(accountId));
      const nowMinute = Math.floor((await redisNowMs()) / 60_000);
      const keys = await Promise.all(
        Object.entries(owned).map(async ([keyId, hash]): Promise<AccountKey | null> => {
          const [record, use] = await Promise.all([
            redis.hgetall(redisKeys.apiKey(accountId, hash)),
            redis.hgetall(redisKeys.keyUse(accountId, hash)),
          ]);
          if (!record['key_id']) return null;
          let recent = 0;
          for (const [field, count] of Object.entries(use)) {
            const minute = field.startsWith('m') ? Number(field.slice(1)) : NaN;
            if (minute > nowMinute - HISTORY.minutes) recent += Number(count);
          }
          return {
            key_id: keyId,
            name: record['name'] ?? '',
            created_at: record['created_at'] ?? '',
            last_used: use['last'] ? new Date(Number(use['last'])).toISOString() : null,
            recent_requests: recent,
            revoked_at: record['revoked_at'] || null,
            expires_at: record['expires_at'] ? new Date(Number(record['expires_at'])).toISOString() : null,
          };
        }),
      );
      return keys
        .filter((k): k is AccountKey => k !== null)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.key_id.localeCompare(b.key_id));
    },

    /** Revokes one of the account's keys; false when the account has no such key. */
    async revokeAccountKey(accountId: string, keyId: string): Promise<boolean> {
      const hash = await ownedHash(accountId, keyId);
      if (!hash) return false;
      await revoke(accountId, hash, keyId);
      await oneChangeAtATime(accountId, () => forgetOldDeadKeys(accountId)).catch((err: unknown) => {
        // Revoked either way; the next change removes what this one could not.
        if (!(err instanceof KeysBusy)) throw err;
      });
      return true;
    },

    /**
     * A new key with the same name; the old one keeps working for `graceSeconds` (Redis's clock,
     * as the admission script reads it), then answers 403. Null when the account has no such live key.
     * With a grace, the two work at once, so it needs room for one more (TooManyKeys otherwise).
     */
    async rotateAccountKey(
      accountId: string,
      keyId: string,
      graceSeconds: number,
    ): Promise<{ apiKey: string; keyId: string; name: string; expiresAt: string } | null> {
      if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_SECONDS) {
        throw new KeyStoreError(`grace must be 0 to ${MAX_ROTATION_GRACE_SECONDS} seconds`);
      }
      const hash = await ownedHash(accountId, keyId);
      if (!hash) return null;
      return oneChangeAtATime(accountId, async () => {
        const old = await redis.hmget(redisKeys.apiKey(accountId, hash), 'name', 'revoked_at', 'expires_at');
        if (old[1] || old[2]) return null;
        // With no grace the old key stops as the new one starts: the account holds no more keys.
        if (graceSeconds > 0) await roomForOneMore(accountId);
        const name = old[0] ?? '';
        const created = await addKey(accountId, name);
        const expiresAtMs = (await redisNowMs()) + graceSeconds * 1000;
        await withdrawn({ kind: 'key', hash, fromMs: expiresAtMs }, accountId, keyId, () =>
          redis.hset(redisKeys.apiKey(accountId, hash), 'expires_at', String(expiresAtMs)),
        );
        await forgetOldDeadKeys(accountId);
        return { ...created, name, expiresAt: new Date(expiresAtMs).toISOString() };
      });
    },

    /** The account's admitted requests per hour over the last day, oldest first, ending with the current hour. */
    async hourlyUsage(accountId: string): Promise<{ hourStartMs: number; requests: number }[]> {
      const counts = await redis.hgetall(redisKeys.accountHours(accountId));
      const nowHour = Math.floor((await redisNowMs()) / 3_600_000);
      return Array.from({ length: HISTORY.hours }, (_, i) => {
        const hour = nowHour - HISTORY.hours + 1 + i;
        return { hourStartMs: hour * 3_600_000, requests: Number(counts[String(hour)] ?? 0) };
      });
    },

    async listKeys(): Promise<KeySummary[]> {
      const index = await redis.hgetall(redisKeys.keyIndex);
      const out: KeySummary[] = [];
      for (const [keyId, raw] of Object.entries(index)) {
        const { account_id, hash } = JSON.parse(raw) as IndexEntry;
        const [key, account] = await Promise.all([redis.hgetall(redisKeys.apiKey(account_id, hash)), redis.hgetall(redisKeys.account(account_id))]);
        // Listed, never written: its creation died before the key was shown to anyone.
        if (!key['key_id']) continue;
        out.push({
          key_id: keyId,
          name: key['name'] ?? '',
          account: account['name'] ?? '?',
          account_id,
          tier: account['tier'] ?? '?',
          created_at: key['created_at'] ?? '',
          revoked_at: key['revoked_at'] ? key['revoked_at'] : null,
          account_disabled_at: account['disabled_at'] ? account['disabled_at'] : null,
        });
      }
      return out.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.key_id.localeCompare(b.key_id));
    },

    /** Revokes a key by its id (the next request with it is refused); null when there is no such key. */
    async revokeKey(keyId: string): Promise<Revoked | null> {
      const raw = await redis.hget(redisKeys.keyIndex, keyId);
      if (!raw) return null;
      const { account_id, hash } = JSON.parse(raw) as IndexEntry;
      return revoke(account_id, hash, keyId);
    },
  };
}
