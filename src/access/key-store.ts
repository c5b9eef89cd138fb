import type { Cluster, Redis } from 'ioredis';
import { generateApiKey, hashApiKey, newAccountId, randomBase62 } from './api-key.js';
import { redisKeys } from './redis-keys.js';

export interface KeySummary {
  key_id: string;
  account: string;
  account_id: string;
  tier: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CreatedKey {
  apiKey: string;
  keyId: string;
  accountId: string;
  account: string;
  tier: string;
}

export class KeyStoreError extends Error {}

interface IndexEntry {
  account_id: string;
  hash: string;
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
export function createKeyStore(redis: Redis | Cluster) {
  async function accountIdFor(name: string, tier: string): Promise<string> {
    const existing = await redis.hget(redisKeys.accountNames, name);
    if (existing) {
      const current = await redis.hget(redisKeys.account(existing), 'tier');
      if (current !== tier) {
        throw new KeyStoreError(`account '${name}' is on tier '${current}', not '${tier}'`);
      }
      return existing;
    }
    const accountId = newAccountId();
    await redis.hset(redisKeys.account(accountId), { account_id: accountId, name, tier, created_at: new Date().toISOString() });
    const claimed = await redis.hsetnx(redisKeys.accountNames, name, accountId);
    if (claimed === 1) return accountId;
    // Another run claimed the name first: its account is the one; ours was never reachable.
    await redis.del(redisKeys.account(accountId));
    return accountIdFor(name, tier);
  }

  return {
    async createKey({ tier, account }: { tier: string; account?: string }): Promise<CreatedKey> {
      const name = account ?? `account-${randomBase62(8).toLowerCase()}`;
      const accountId = await accountIdFor(name, tier);
      const apiKey = generateApiKey(accountId);
      const hash = hashApiKey(apiKey);
      const keyId = `key_${randomBase62(12)}`;
      const entry: IndexEntry = { account_id: accountId, hash };
      await redis.hset(redisKeys.keyIndex, keyId, JSON.stringify(entry));
      await redis.hset(redisKeys.apiKey(accountId, hash), {
        key_id: keyId,
        account_id: accountId,
        created_at: new Date().toISOString(),
        revoked_at: '',
      });
      return { apiKey, keyId, accountId, account: name, tier };
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
          account: account['name'] ?? '?',
          account_id,
          tier: account['tier'] ?? '?',
          created_at: key['created_at'] ?? '',
          revoked_at: key['revoked_at'] ? key['revoked_at'] : null,
        });
      }
      return out.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.key_id.localeCompare(b.key_id));
    },

    /** Marks the key revoked; the next request with it is refused. Returns false for an unknown key id. */
    async revokeKey(keyId: string): Promise<boolean> {
      const raw = await redis.hget(redisKeys.keyIndex, keyId);
      if (!raw) return false;
      const { account_id, hash } = JSON.parse(raw) as IndexEntry;
      await redis.hset(redisKeys.apiKey(account_id, hash), 'revoked_at', new Date().toISOString());
      return true;
    },
  };
}
