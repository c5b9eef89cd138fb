import { createHash, randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** How long a browser that signed in stays known to its account without signing in again. */
export const DEVICE_DAYS = 180;

const deviceKey = (token: string) => `wpc:device:${createHash('sha256').update(token).digest('hex')}`;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Browsers that signed in to an account before (OWASP's "device cookies"). The per-account lockout
 * for guessing stops only clients the account has never seen, so someone who knows an email can
 * lock out strangers but not the owner's own browser, which has a lockout of its own. The cookie
 * holds a random token; Redis holds only its hash and the account it belongs to.
 */
export function createDeviceStore(redis: Redis | Cluster) {
  return {
    async issue(accountId: string): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await redis.set(deviceKey(token), accountId, 'EX', DEVICE_DAYS * 86400);
      return token;
    },
    /** The account this browser signed in to, or null for an unknown, expired or malformed token. */
    async accountOf(token: string | undefined): Promise<string | null> {
      if (!token || !TOKEN.test(token)) return null;
      return redis.get(deviceKey(token));
    },
  };
}

export type DeviceStore = ReturnType<typeof createDeviceStore>;
