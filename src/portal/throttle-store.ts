import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * Counters of failed attempts in fixed windows (sign-in per client and per account, sign-up per
 * client). What is counted is hashed, so Redis holds no addresses or emails in key names.
 */
export function createThrottleStore(redis: Redis | Cluster) {
  const key = (scope: string, subject: string) => `wpc:throttle:${scope}:${createHash('sha256').update(subject).digest('base64url')}`;
  return {
    /** Attempts counted so far and the seconds until the window ends. */
    async read(scope: string, subject: string): Promise<{ count: number; retryAfterSeconds: number }> {
      const k = key(scope, subject);
      const [[, count], [, ttl]] = (await redis.multi().get(k).pttl(k).exec()) as [[unknown, string | null], [unknown, number]];
      return { count: Number(count ?? 0), retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async hit(scope: string, subject: string, windowSeconds: number): Promise<void> {
      const k = key(scope, subject);
      await redis.multi().incr(k).expire(k, windowSeconds, 'NX').exec();
    },
    async clear(scope: string, subject: string): Promise<void> {
      await redis.del(key(scope, subject));
    },
  };
}

export type ThrottleStore = ReturnType<typeof createThrottleStore>;
