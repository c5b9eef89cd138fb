import { createHash, randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A signed-in browser: whose it is and the token its forms must carry. */
export interface Session {
  accountId: string;
  csrf: string;
}

// Sessions end after this long without a request; each request starts the idle time again.
export const SESSION_IDLE_SECONDS = 8 * 3600;

const sessionKey = (token: string) => `wpc:session:${createHash('sha256').update(token).digest('hex')}`;

/**
 * Server-side sessions in Redis. The cookie holds a random token; Redis holds only its hash, so
 * a copy of Redis does not let anyone sign in as anyone.
 */
export function createSessionStore(redis: Redis | Cluster) {
  return {
    async create(accountId: string): Promise<{ token: string; session: Session }> {
      const token = randomBytes(32).toString('base64url');
      const session = { accountId, csrf: randomBytes(24).toString('base64url') };
      await redis.hset(sessionKey(token), { account_id: accountId, csrf: session.csrf, created_at: new Date().toISOString() });
      await redis.expire(sessionKey(token), SESSION_IDLE_SECONDS);
      return { token, session };
    },

    async get(token: string): Promise<Session | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const key = sessionKey(token);
      const [[, record], [, alive]] = (await redis.multi().hgetall(key).expire(key, SESSION_IDLE_SECONDS).exec()) as [
        [unknown, Record<string, string>],
        [unknown, number],
      ];
      if (!alive || !record['account_id'] || !record['csrf']) return null;
      return { accountId: record['account_id'], csrf: record['csrf'] };
    },

    async destroy(token: string): Promise<void> {
      await redis.del(sessionKey(token));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
