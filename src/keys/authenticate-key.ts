import type { Redis } from 'ioredis';
import { parseApiKey } from './api-key.js';
import { redisKeys } from './redis-keys.js';

export interface Principal {
  keyId: string;
  accountId: string;
  tier: string;
}

// One round trip: key record and account tier read atomically.
const AUTHENTICATE_LUA = `
local key = redis.call('HMGET', KEYS[1], 'key_id', 'revoked_at')
if not key[1] or (key[2] and key[2] ~= '') then return false end
local tier = redis.call('HGET', KEYS[2], 'tier')
if not tier then return false end
return {key[1], tier}
`;

type AuthRedis = Redis & { wpcAuthenticate(keyRecord: string, account: string): Promise<[string, string] | null> };

export function createKeyAuthenticator(redis: Redis) {
  if (!('wpcAuthenticate' in redis)) {
    redis.defineCommand('wpcAuthenticate', { numberOfKeys: 2, lua: AUTHENTICATE_LUA });
  }
  const r = redis as AuthRedis;
  /** Null for an unknown, malformed or revoked key; throws when Redis cannot answer. */
  return async function authenticateKey(apiKey: string): Promise<Principal | null> {
    const parsed = parseApiKey(apiKey);
    if (!parsed) return null;
    const result = await r.wpcAuthenticate(redisKeys.apiKey(parsed.accountId, parsed.hash), redisKeys.account(parsed.accountId));
    if (!result) return null;
    return { keyId: result[0], accountId: parsed.accountId, tier: result[1] };
  };
}

export type KeyAuthenticator = ReturnType<typeof createKeyAuthenticator>;
