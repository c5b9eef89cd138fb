import { parseApiKey } from './api-key.js';
import { redisKeys } from './redis-keys.js';

/**
 * Lua fragment: with KEYS[1] the key record and KEYS[2] its account, leaves
 * `key_id` and `tier` set, or returns {0} from the script when the key is
 * unknown or revoked. Composed into the admission script so authentication
 * and rate limiting share one round trip.
 */
export const AUTHENTICATE_LUA = `
local key = redis.call('HMGET', KEYS[1], 'key_id', 'revoked_at')
if not key[1] or (key[2] and key[2] ~= '') then return {0} end
local key_id = key[1]
local tier = redis.call('HGET', KEYS[2], 'tier')
if not tier then return {0} end
`;

export interface KeyLocation {
  accountId: string;
  hash: string;
  /** The Redis keys the script reads for this API key. */
  keyRecord: string;
  account: string;
}

/** Where an API key would live in Redis, or null when it is malformed (no Redis call needed). */
export function locateKey(apiKey: string): KeyLocation | null {
  const parsed = parseApiKey(apiKey);
  if (!parsed) return null;
  return {
    ...parsed,
    keyRecord: redisKeys.apiKey(parsed.accountId, parsed.hash),
    account: redisKeys.account(parsed.accountId),
  };
}
