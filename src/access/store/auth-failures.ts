import { createHash } from 'node:crypto';
import type { RedisClient } from '../../infra/redis.js';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../../config.js';
import type { CircuitBreaker } from '../../infra/circuit-breaker.js';

const BLOCKED_MAX = 100_000;

// Client addresses never appear in Redis key names (nor in the block list's keys in memory
// dumps): a hash names the counter.
function counterName(client: string): string {
  return createHash('sha256').update(client).digest('base64url').slice(0, 22);
}

type Consumed = { limited: false } | { limited: true; msBeforeNext: number };

async function consume(limiter: RateLimiterMemory | RateLimiterRedis, key: string): Promise<Consumed> {
  try {
    await limiter.consume(key);
    return { limited: false };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { limited: true, msBeforeNext: rejection.msBeforeNext };
    throw rejection;
  }
}

/**
 * Counts failed authentications (401/403) per client (see clientAddress) in Redis, in a fixed
 * window of `authFailureWindowSeconds` (a minute by default, so a block is short). A client
 * over the limit is blocked in process until its window ends: its failing requests get 429
 * without another Redis call. A block never touches a request with a valid key, so a noisy
 * neighbour behind the same address cannot lock customers out. While the Redis breaker is
 * open, failures are counted in process instead.
 */
export function createAuthFailureLimiter(redis: RedisClient, config: RateLimitConfig, breaker: CircuitBreaker) {
  const options = { points: config.authFailureLimit, duration: config.authFailureWindowSeconds };
  const shared = new RateLimiterRedis({ ...options, storeClient: redis, keyPrefix: 'wpc:auth-failures', rejectIfRedisNotReady: true });
  const local = new RateLimiterMemory({ ...options, keyPrefix: 'auth-failures-local' });
  const blockedUntil = new Map<string, number>();

  async function count(key: string): Promise<Consumed> {
    try {
      return await breaker.run(() => consume(shared, key));
    } catch {
      return consume(local, key);
    }
  }

  return {
    /** Seconds the client must wait, or 0 when it is not blocked. */
    blockedFor(client: string): number {
      const key = counterName(client);
      const until = blockedUntil.get(key);
      if (until === undefined) return 0;
      const ms = until - Date.now();
      if (ms <= 0) {
        blockedUntil.delete(key);
        return 0;
      }
      return Math.ceil(ms / 1000);
    },

    /** Records one failure; returns seconds to wait when this failure crossed the limit, else 0. */
    async recordFailure(client: string): Promise<number> {
      const key = counterName(client);
      const counted = await count(key);
      if (!counted.limited) return 0;
      const ms = Math.max(1000, Math.min(counted.msBeforeNext, config.authFailureWindowSeconds * 1000));
      if (blockedUntil.size >= BLOCKED_MAX) blockedUntil.delete(blockedUntil.keys().next().value as string);
      blockedUntil.set(key, Date.now() + ms);
      return Math.ceil(ms / 1000);
    },
  };
}

export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;
