import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config.js';

const BLOCKED_MAX = 100_000;

/**
 * Counts failed authentications (401/403) per client IP in Redis (fixed
 * window, rate-limiter-flexible). Once an IP is over the limit it is blocked
 * in process until its window ends, so a blocked client costs no Redis call
 * and cannot keep probing keys: every request from it gets 429.
 */
export function createAuthFailureLimiter(redis: Redis, config: RateLimitConfig) {
  const options = { points: config.authFailureLimit, duration: config.authFailureWindowSeconds };
  const limiter = new RateLimiterRedis({
    ...options,
    storeClient: redis,
    keyPrefix: 'wpc:auth-failures',
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ ...options, keyPrefix: 'auth-failures-insurance' }),
  });
  const blockedUntil = new Map<string, number>();

  return {
    /** Seconds the IP must wait, or 0 when it is not blocked. */
    blockedFor(ip: string): number {
      const until = blockedUntil.get(ip);
      if (until === undefined) return 0;
      const ms = until - Date.now();
      if (ms <= 0) {
        blockedUntil.delete(ip);
        return 0;
      }
      return Math.ceil(ms / 1000);
    },

    /** Records one failure; returns seconds to wait when this failure crossed the limit, else 0. */
    async recordFailure(ip: string): Promise<number> {
      try {
        await limiter.consume(ip);
        return 0;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) return 0;
        const ms = Math.max(1000, rejection.msBeforeNext);
        if (blockedUntil.size >= BLOCKED_MAX) blockedUntil.delete(blockedUntil.keys().next().value as string);
        blockedUntil.set(ip, Date.now() + ms);
        return Math.ceil(ms / 1000);
      }
    },
  };
}

export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;
