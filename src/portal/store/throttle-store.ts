import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

export interface Taken {
  /** Whether this attempt is within the limit. */
  allowed: boolean;
  /** Attempts counted in the window, this one included. */
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counters of attempts in fixed windows (sign-in per client, per account and per device, sign-up
 * per client). An attempt is counted before the work it asks for (INCR, then decide), so N
 * attempts sent at once pass at most the limit: reading first and counting after the password
 * check let every parallel guess through. What is counted is hashed, so Redis holds no addresses
 * or emails in key names.
 */
export function createThrottleStore(redis: Redis | Cluster) {
  const key = (scope: string, subject: string) => `wpc:throttle:${scope}:${createHash('sha256').update(subject).digest('base64url')}`;
  return {
    /** Counts one attempt and says whether it is within `limit`. */
    async take(scope: string, subject: string, limit: number, windowSeconds: number): Promise<Taken> {
      const k = key(scope, subject);
      const [[, count], , [, ttl]] = (await redis.multi().incr(k).expire(k, windowSeconds, 'NX').pttl(k).exec()) as [
        [unknown, number],
        [unknown, number],
        [unknown, number],
      ];
      return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    /** Gives back an attempt that turned out to be legitimate (a sign-in that succeeded). */
    async refund(scope: string, subject: string): Promise<void> {
      const k = key(scope, subject);
      // DECR of an expired counter would start a new one at -1, with no expiry.
      await redis.eval("if redis.call('GET', KEYS[1]) then return redis.call('DECR', KEYS[1]) end return 0", 1, k);
    },
    async clear(scope: string, subject: string): Promise<void> {
      await redis.del(key(scope, subject));
    },
  };
}

export type ThrottleStore = ReturnType<typeof createThrottleStore>;
