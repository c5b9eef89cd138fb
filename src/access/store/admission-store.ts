import type { Cluster } from 'ioredis';
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
  /** Whether there are other copies to verify keys on: a Redis Cluster's replicas. */
  readonly replicas: boolean;
  /**
   * Verifies the key, admitting nothing: {1, key id, tier} or {0}, from the first node that holds
   * its slot to answer, master or replica. For when the master does not answer. A single Redis has
   * no other copy to ask: it fails at once.
   */
  verifyOnAnyCopy(at: KeyLocation): Promise<[number, string?, string?]>;
}

type Verdict = [number, string?, string?];

/**
 * The verification asked of every node of the cluster at once; the nodes that hold the key's slot
 * answer (the others refuse with MOVED). The first that knows the key decides; a key no answering
 * copy knows is unknown once every node but one has answered or failed (a replica still
 * resynchronising may not know it yet). Not through the client's slot map: at the moment of a failover it may name
 * the hung master as the slot's replica, or not yet name the promoted one, and a verification that
 * followed it waited out the command timeout (a chaos soak met that). A replica answers because
 * the client put its connection in READONLY mode.
 */
function firstAnswer(cluster: Cluster, at: KeyLocation): Promise<Verdict> {
  return new Promise((resolve, reject) => {
    const asked = cluster.nodes('all').map((node) => node.eval(VERIFY_LUA, 2, at.keyRecord, at.account) as Promise<Verdict>);
    let unknown = false;
    let settled = 0;
    // Unknown once a copy said so and every node but one has answered: the one left may be the
    // hung master, whose answer would only come with the command timeout.
    const done = () => {
      settled++;
      if (unknown && settled >= asked.length - 1) resolve([0]);
      else if (settled === asked.length) reject(new Error('no copy of the key`s slot answered'));
    };
    for (const answer of asked) {
      answer.then((verdict) => {
        if (verdict[0] === 1) resolve(verdict);
        else unknown = true;
        done();
      }, done);
    }
    if (asked.length === 0) reject(new Error('no node to ask'));
  });
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
    verifyOnAnyCopy: (at) => (redis.isCluster ? firstAnswer(redis as Cluster, at) : Promise.reject(new Error('a single Redis has no other copy'))),
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
export type AccountQuota = (
  accountId: string,
) => Promise<{ tier: string; limit: number; remaining: number; resetMs: number; nowMs: number } | { cappedUntilMs: number; nowMs: number } | null>;

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
    // Read as often as /v1/usage may be (USAGE_CAP), so the page is no cheaper way to poll Redis.
    if (status === 4) return { cappedUntilMs: resetMs!, nowMs: nowMs! };
    if (status !== 1) return null;
    return { tier: tier!, limit: limit!, remaining: remaining!, resetMs: resetMs!, nowMs: nowMs! };
  };
}
