import type { RedisClient } from '../../infra/redis.js';
import { AUTHENTICATE_LUA, type KeyLocation, VERIFY_LUA } from './authenticate-lua.js';
import { rateLimitKey, redisKeys, usageReadsKey } from './redis-keys.js';
import { MODE_LUA, SLIDING_WINDOW_LUA } from './sliding-window-lua.js';

/** The script's answer: {1 allowed | 2 limited | 3 unknown tier | 4 usage reads capped | 5 already replayed | 0 invalid key, key_id, tier, limit, remaining, reset ms, now ms}. */
export type AdmissionReply = [number, string?, string?, number?, number?, number?, number?];

/** The script with a sixth key: key record (or account), account, log, hours, key use, reads counter or replay id, then ARGV. */
type ReadingScript = (
  keyRecord: string,
  account: string,
  log: string,
  hours: string,
  use: string,
  reads: string,
  ...args: (string | number)[]
) => Promise<AdmissionReply>;

type ScriptedRedis = RedisClient & {
  wpcAdmit(keyRecord: string, account: string, log: string, hours: string, use: string, ...args: (string | number)[]): Promise<AdmissionReply>;
  wpcUsage: ReadingScript;
  wpcReplay: ReadingScript;
  wpcVerify(keyRecord: string, account: string): Promise<[number, string?, string?]>;
};

export interface AdmissionStore {
  /** Authenticates and admits one request against its account's quota. */
  admit(at: KeyLocation): Promise<AdmissionReply>;
  /** Authenticates and reads the quota without admitting anything (capped per key, see USAGE_CAP). */
  peek(at: KeyLocation): Promise<AdmissionReply>;
  /**
   * Admits one request the fallback admitted during an outage, at most once per `id` however often
   * it is sent (5 when that id was charged already).
   */
  replay(at: KeyLocation, id: string): Promise<AdmissionReply>;
  /** Whether there are replicas to verify keys on: a Redis Cluster. */
  readonly replicas: boolean;
  /**
   * Verifies the key on a replica of its slot, admitting nothing: {1, key id, tier} or {0}. For when
   * the master does not answer. A single Redis has no replica to ask: it fails at once.
   */
  verifyOnReplica(at: KeyLocation): Promise<[number, string?, string?]>;
}

/**
 * Authentication, the rate-limit decision and the usage history as one script (one EVALSHA, one
 * round trip). Its keys share the account's hash tag, so it runs on Redis Cluster too.
 */
export function createAdmissionStore(redis: RedisClient, { windowMs, tiers }: { windowMs: number; tiers: Record<string, number> }): AdmissionStore {
  if (!('wpcAdmit' in redis)) redis.defineCommand('wpcAdmit', { numberOfKeys: 5, lua: AUTHENTICATE_LUA + MODE_LUA.admit + SLIDING_WINDOW_LUA });
  if (!('wpcUsage' in redis)) redis.defineCommand('wpcUsage', { numberOfKeys: 6, lua: AUTHENTICATE_LUA + MODE_LUA.peek + SLIDING_WINDOW_LUA });
  if (!('wpcReplay' in redis))
    redis.defineCommand('wpcReplay', { numberOfKeys: 6, lua: AUTHENTICATE_LUA + MODE_LUA.replayOnce + SLIDING_WINDOW_LUA });
  // Declared read-only: a Redis Cluster client sends it to a replica (see createRedis).
  if (!('wpcVerify' in redis)) redis.defineCommand('wpcVerify', { numberOfKeys: 2, lua: VERIFY_LUA, readOnly: true });
  const scripted = redis as ScriptedRedis;
  const hours = (at: KeyLocation) => redisKeys.accountHours(at.accountId);
  const use = (at: KeyLocation) => redisKeys.keyUse(at.accountId, at.hash);
  const tierArgs = Object.entries(tiers).flatMap(([tier, limit]) => [tier, limit]);
  return {
    replicas: redis.isCluster,
    admit: (at) => scripted.wpcAdmit(at.keyRecord, at.account, rateLimitKey(at.accountId), hours(at), use(at), windowMs, ...tierArgs),
    peek: (at) =>
      scripted.wpcUsage(
        at.keyRecord,
        at.account,
        rateLimitKey(at.accountId),
        hours(at),
        use(at),
        usageReadsKey(at.accountId, at.hash),
        windowMs,
        ...tierArgs,
      ),
    replay: (at, id) =>
      scripted.wpcReplay(
        at.keyRecord,
        at.account,
        rateLimitKey(at.accountId),
        hours(at),
        use(at),
        redisKeys.replay(at.accountId, id),
        windowMs,
        ...tierArgs,
      ),
    verifyOnReplica: (at) =>
      redis.isCluster ? scripted.wpcVerify(at.keyRecord, at.account) : Promise.reject(new Error('a single Redis has no replica')),
  };
}

// Stands in for AUTHENTICATE_LUA when the portal reads an account's quota: no key, the account's tier.
const ACCOUNT_PRELUDE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key_id = ''
local tier = redis.call('HGET', KEYS[2], 'tier')
if not tier then return {0} end
`;

type QuotaRedis = RedisClient & { wpcAccountQuota: ReadingScript };

/**
 * An account's quota as the API's headers would report it, read by the same script in its
 * read-only mode (the portal's usage page): limit, remaining and reset of the sliding window.
 */
export type AccountQuota = (accountId: string) => Promise<{ tier: string; limit: number; remaining: number; resetMs: number; nowMs: number } | null>;

export function createAccountQuotaReader(redis: RedisClient, { windowMs, tiers }: { windowMs: number; tiers: Record<string, number> }): AccountQuota {
  if (!('wpcAccountQuota' in redis))
    redis.defineCommand('wpcAccountQuota', { numberOfKeys: 6, lua: ACCOUNT_PRELUDE_LUA + MODE_LUA.peek + SLIDING_WINDOW_LUA });
  const scripted = redis as QuotaRedis;
  const tierArgs = Object.entries(tiers).flatMap(([tier, limit]) => [tier, limit]);
  return async (accountId) => {
    const [status, , tier, limit, remaining, resetMs, nowMs] = await scripted.wpcAccountQuota(
      redisKeys.account(accountId),
      redisKeys.account(accountId),
      rateLimitKey(accountId),
      redisKeys.accountHours(accountId),
      redisKeys.keyUse(accountId, 'portal'),
      usageReadsKey(accountId, 'portal'),
      windowMs,
      ...tierArgs,
    );
    if (status !== 1) return null;
    return { tier: tier!, limit: limit!, remaining: remaining!, resetMs: resetMs!, nowMs: nowMs! };
  };
}
