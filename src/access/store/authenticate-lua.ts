import { parseApiKey } from '../api-key.js';
import { redisKeys } from './redis-keys.js';

/**
 * Lua fragment: with KEYS[1] the key record and KEYS[2] its account, leaves
 * `key_id`, `tier` and `now` (Redis's clock, ms) set, or returns {0} from the
 * script when the key is unknown, revoked, past the end of a rotation's grace
 * (`expires_at`, ms), or its account is disabled. Composed into the admission
 * script so authentication and rate limiting share one round trip.
 */
export const AUTHENTICATE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = redis.call('HMGET', KEYS[1], 'key_id', 'revoked_at', 'expires_at')
if not key[1] or (key[2] and key[2] ~= '') then return {0} end
if key[3] and key[3] ~= '' and now >= tonumber(key[3]) then return {0} end
local key_id = key[1]
local account = redis.call('HMGET', KEYS[2], 'tier', 'disabled_at')
local tier = account[1]
if not tier or (account[2] and account[2] ~= '') then return {0} end
`;

/**
 * The key's verification alone, read-only (flags=no-writes), so a replica can run it: {1, key_id,
 * tier}, or {0} as above. Asked only when the key's master does not answer (see verifyOnAnyCopy).
 */
export const VERIFY_LUA = `#!lua flags=no-writes
${AUTHENTICATE_LUA}
return {1, key_id, tier}
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
