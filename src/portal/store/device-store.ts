import { createHash, randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** How long a browser that signed in stays known to its account without signing in again. */
export const DEVICE_DAYS = 180;
/**
 * Browsers an account keeps known, the most recent first: each sign-in from a new browser had
 * stored one for 180 days, without bound (helper-96: ten sign-ins, ten records). Past this, the
 * oldest is forgotten, and that browser signs in as a new one.
 */
export const DEVICES_PER_ACCOUNT = 10;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const deviceKey = (hash: string) => `wpc:device:${hash}`;
const devicesOf = (accountId: string) => `wpc:devices-of:${accountId}`;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Browsers that signed in to an account before (OWASP's "device cookies"). The per-account lockout
 * for guessing stops only clients the account has never seen, so someone who knows an email can
 * lock out strangers but not the owner's own browser, which has a lockout of its own. The cookie
 * holds a random token; Redis holds only its hash and the account it belongs to, and per account
 * the hashes of its known browsers by when they were issued.
 */
export function createDeviceStore(redis: Redis | Cluster) {
  const lifetimeSeconds = DEVICE_DAYS * 86400;
  return {
    async issue(accountId: string): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const hash = digest(token);
      const list = devicesOf(accountId);
      // To the microsecond, so browsers issued in one millisecond still leave oldest first.
      const now = performance.timeOrigin + performance.now();
      await redis.set(deviceKey(hash), accountId, 'EX', lifetimeSeconds);
      // One key per command group: the device records and the account's list may sit on different
      // nodes of a cluster, so the list is trimmed first and the records it let go deleted after.
      const [, , [, known]] = (await redis
        .multi()
        .zadd(list, now, hash)
        .zremrangebyscore(list, 0, now - lifetimeSeconds * 1000)
        .zcard(list)
        .expire(list, lifetimeSeconds)
        .exec()) as [unknown, unknown, [unknown, number], unknown];
      if (known > DEVICES_PER_ACCOUNT) {
        const popped = await redis.zpopmin(list, known - DEVICES_PER_ACCOUNT);
        const forgotten = popped.filter((_, i) => i % 2 === 0);
        if (forgotten.length > 0) await Promise.all(forgotten.map((gone) => redis.del(deviceKey(gone))));
      }
      return token;
    },
    /**
     * Forgets every browser the account knows but `keep` (the one asking, when it is the account's):
     * after a password change, a browser that knew the old password is a stranger again, under the
     * account's lockout rather than a lockout of its own (helper-109: ten such cookies had let ten
     * guesses each through a locked account). Returns how many were forgotten.
     */
    async forgetOthers(accountId: string, keep?: string): Promise<number> {
      const list = devicesOf(accountId);
      const kept = keep && TOKEN.test(keep) ? digest(keep) : null;
      const known = (await redis.zrange(list, 0, -1)).filter((hash) => hash !== kept);
      if (known.length === 0) return 0;
      // The list first: a browser is known only while both its record and its place in the list stand.
      await redis.zrem(list, ...known);
      await Promise.all(known.map((hash) => redis.del(deviceKey(hash))));
      return known.length;
    },
    /** Forgets one browser: a sign-in that turned out not to stand (a password changed meanwhile). */
    async forget(token: string): Promise<void> {
      if (!TOKEN.test(token)) return;
      const hash = digest(token);
      const accountId = await redis.get(deviceKey(hash));
      if (accountId !== null) await redis.zrem(devicesOf(accountId), hash);
      await redis.del(deviceKey(hash));
    },
    /** The account this browser signed in to, or null for an unknown, expired or malformed token. */
    async accountOf(token: string | undefined): Promise<string | null> {
      if (!token || !TOKEN.test(token)) return null;
      return redis.get(deviceKey(digest(token)));
    },
  };
}

export type DeviceStore = ReturnType<typeof createDeviceStore>;
