import type { RedisClient } from '../infra/redis.js';
import { AUTHENTICATE_LUA, type KeyLocation } from './authenticate-lua.js';
import { rateLimitKey, usageReadsKey } from './redis-keys.js';
import { SLIDING_WINDOW_LUA } from './sliding-window-lua.js';

/** The script's answer: {1 allowed | 2 limited | 3 unknown tier | 4 usage reads capped | 0 invalid key, key_id, tier, limit, remaining, reset ms, now ms}. */
export type AdmissionReply = [number, string?, string?, number?, number?, number?, number?];

type ScriptedRedis = RedisClient & {
  wpcAdmit(keyRecord: string, account: string, counters: string, ...args: (string | number)[]): Promise<AdmissionReply>;
  wpcUsage(keyRecord: string, account: string, counters: string, reads: string, ...args: (string | number)[]): Promise<AdmissionReply>;
};

export interface AdmissionStore {
  /** Authenticates and admits one request against its account's quota. */
  admit(at: KeyLocation): Promise<AdmissionReply>;
  /** Authenticates and reads the quota without admitting anything (capped per key, see USAGE_CAP). */
  peek(at: KeyLocation): Promise<AdmissionReply>;
}

/**
 * Authentication and the rate-limit decision as one script (one EVALSHA, one round trip). Its
 * three keys share the account's hash tag, so it runs on Redis Cluster too.
 */
export function createAdmissionStore(redis: RedisClient, { windowMs, tiers }: { windowMs: number; tiers: Record<string, number> }): AdmissionStore {
  if (!('wpcAdmit' in redis)) redis.defineCommand('wpcAdmit', { numberOfKeys: 3, lua: AUTHENTICATE_LUA + SLIDING_WINDOW_LUA });
  if (!('wpcUsage' in redis)) redis.defineCommand('wpcUsage', { numberOfKeys: 4, lua: AUTHENTICATE_LUA + SLIDING_WINDOW_LUA });
  const scripted = redis as ScriptedRedis;
  const tierArgs = Object.entries(tiers).flatMap(([tier, limit]) => [tier, limit]);
  return {
    admit: (at) => scripted.wpcAdmit(at.keyRecord, at.account, rateLimitKey(at.accountId), windowMs, ...tierArgs),
    peek: (at) =>
      scripted.wpcUsage(at.keyRecord, at.account, rateLimitKey(at.accountId), usageReadsKey(at.accountId, at.hash), windowMs, ...tierArgs),
  };
}
