import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A signed-in browser: whose it is and the token its forms must carry. */
export interface Session {
  accountId: string;
  csrf: string;
  /** When it was signed in to, in ms: it ends SESSION_LIFETIME_SECONDS later, however busy. */
  createdMs: number;
}

// Sessions end after this long without a request; each request starts the idle time again.
export const SESSION_IDLE_SECONDS = 8 * 3600;
// And this long after signing in, however busy (OWASP's absolute timeout): a stolen cookie kept in
// use would otherwise work for ever, and the owner has no way to end other browsers' sessions.
export const SESSION_LIFETIME_SECONDS = 24 * 3600;
// One-time form ids a session keeps at once (one per page view); older ones are dropped first.
const FORMS_KEPT = 32;

// A field set only on a session still there: a page's form id or hand-off written just after its
// session was signed out (the two requests at once) made the record again, with no expiry, and the
// sealed API key in it stayed for good (helper-96). Answers the fields then held, or 0.
const SET_IF_ALIVE =
  "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return redis.call('HLEN', KEYS[1])";

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const sessionKey = (token: string) => sessionKeyOf(tokenHash(token));
const sessionKeyOf = (hash: string) => `wpc:session:${hash}`;
// An account's sessions by when they began, so that all of them can be ended at once (a password
// changed, "sign out everywhere else"): a stolen cookie otherwise worked until its session's end.
const sessionsOf = (accountId: string) => `wpc:sessions-of:${accountId}`;
// The key that seals what a session hands to its next page: derived from the cookie's token,
// which Redis never holds, so a copy of Redis reveals no API key shown once.
const sealKey = (token: string) => createHash('sha256').update(`portal handoff\0${token}`).digest();

/**
 * Server-side sessions in Redis. The cookie holds a random token; Redis holds only its hash, so
 * a copy of Redis does not let anyone sign in as anyone. A session also holds its one-time form
 * ids (a form posted twice acts once) and, between a POST and the page it redirects to, what
 * that page shows once, sealed.
 */
export function createSessionStore(redis: Redis | Cluster) {
  return {
    async create(accountId: string): Promise<{ token: string; session: Session }> {
      const token = randomBytes(32).toString('base64url');
      const session = { accountId, csrf: randomBytes(24).toString('base64url'), createdMs: Date.now() };
      const hash = tokenHash(token);
      const key = sessionKeyOf(hash);
      await redis
        .multi()
        .hset(key, { account_id: accountId, csrf: session.csrf, created_at: new Date(session.createdMs).toISOString() })
        .expire(key, SESSION_IDLE_SECONDS)
        .exec();
      // Each key of its own (they may sit on different nodes of a cluster); those past every
      // session's lifetime leave the list as it grows.
      const list = sessionsOf(accountId);
      await redis
        .multi()
        .zadd(list, session.createdMs, hash)
        .zremrangebyscore(list, 0, session.createdMs - SESSION_LIFETIME_SECONDS * 1000)
        .expire(list, SESSION_LIFETIME_SECONDS)
        .exec();
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
      const createdMs = Date.parse(record['created_at'] ?? '');
      if (!(Date.now() - createdMs < SESSION_LIFETIME_SECONDS * 1000)) {
        await redis.del(key);
        return null;
      }
      return { accountId: record['account_id'], csrf: record['csrf'], createdMs };
    },

    /** Ends one session, and takes it off its account's list, which then names live sessions only. */
    async destroy(token: string): Promise<void> {
      const hash = tokenHash(token);
      const accountId = await redis.hget(sessionKeyOf(hash), 'account_id');
      await redis.del(sessionKeyOf(hash));
      if (accountId !== null) await redis.zrem(sessionsOf(accountId), hash);
    },

    /** Ends every session of the account but the one of `keep`; returns how many were ended. */
    async destroyOthers(accountId: string, keep: string): Promise<number> {
      const list = sessionsOf(accountId);
      const kept = tokenHash(keep);
      const others = (await redis.zrange(list, 0, -1)).filter((hash) => hash !== kept);
      if (others.length === 0) return 0;
      const ended = await Promise.all(others.map((hash) => redis.del(sessionKeyOf(hash))));
      await redis.zrem(list, ...others);
      return ended.reduce((sum, n) => sum + n, 0);
    },

    /** A new one-time form id for a page of this session. */
    async issueForm(token: string): Promise<string> {
      const id = randomBytes(16).toString('base64url');
      const key = sessionKey(token);
      const fields = (await redis.eval(SET_IF_ALIVE, 1, key, `form:${id}`, Date.now())) as number;
      if (fields > FORMS_KEPT + 8) {
        const forms = Object.entries(await redis.hgetall(key)).filter(([field]) => field.startsWith('form:'));
        const oldest = forms.sort(([, a], [, b]) => Number(a) - Number(b)).slice(0, forms.length - FORMS_KEPT);
        if (oldest.length > 0) await redis.hdel(key, ...oldest.map(([field]) => field));
      }
      return id;
    },

    /** True the first time a form id is used; false for one used before, dropped, or never issued. */
    async useForm(token: string, id: string): Promise<boolean> {
      if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return false;
      return (await redis.hdel(sessionKey(token), `form:${id}`)) === 1;
    },

    /** Keeps `value` for the next page of this session, sealed with a key only the cookie can derive. */
    async handOff(token: string, value: unknown): Promise<void> {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey(token), iv);
      const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
      await redis.eval(SET_IF_ALIVE, 1, sessionKey(token), 'handoff', sealed.toString('base64url'));
    },

    /** What handOff kept, once: it is gone after this read. Null when there is none. */
    async takeHandOff<T>(token: string): Promise<T | null> {
      const key = sessionKey(token);
      const [[, sealedText]] = (await redis.multi().hget(key, 'handoff').hdel(key, 'handoff').exec()) as [[unknown, string | null], unknown];
      if (!sealedText) return null;
      const sealed = Buffer.from(sealedText, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', sealKey(token), sealed.subarray(0, 12));
        decipher.setAuthTag(sealed.subarray(sealed.length - 16));
        return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8')) as T;
      } catch {
        return null;
      }
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
