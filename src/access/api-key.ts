import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

// Format: wpc_<account id: 12 base62>_<secret: 40 base62><checksum: 6 base62>
//  - the prefix makes leaked keys recognisable to secret scanners;
//  - 40 base62 characters carry ~238 bits of entropy, so an unsalted SHA-256
//    is a sufficient one-way hash (no password-style stretching needed);
//  - the account id lets every Redis key of one request share a hash tag, so
//    authentication and rate limiting run as one script on Redis Cluster;
//  - the CRC32 checksum rejects typos and garbage without a Redis round trip.
export const KEY_PREFIX = 'wpc_';
const KEY_PREFIX_HEX = Buffer.from(KEY_PREFIX).toString('hex');
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ACCOUNT_ID_LENGTH = 12;
const SECRET_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const KEY_RE = new RegExp(`^${KEY_PREFIX}([0-9A-Za-z]{${ACCOUNT_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

// Anything shaped like a key, whole or cut short, in any case and percent-encoded or not (a path
// is logged as it came): a client that puts its key in the path, by mistake or by a tool's doing,
// must not have it written to the log.
const KEY_LIKE = /(?:w|%77)(?:p|%70)(?:c|%63)(?:_|%5f)(?:[0-9a-z_]|%[0-9a-f]{2}){8,}/gi;
// A key's body without its prefix, or behind one encoded twice (`w%2570c_`): any run as long as a
// secret. No path of the API has one, so nothing a log reader needs is lost.
const SECRET_LIKE = /(?:[0-9a-z_]|%[0-9a-f]{2}){40,}/gi;
// A key's secret and checksum (46 letters and digits) lower- or upper-cased by some tool: still a
// key, since its case comes back in about 2^34 guesses that the checksum narrows offline to about a
// hundred. Such a run holds a letter past f in all but about 1 in 10^20 keys; a hash in hex never does.
const ONE_CASE_SECRET = /[0-9a-z]{40,}/gi;

/**
 * Whether a client's text may hold a key, or a key's body without its prefix, to keep it out of
 * values that are logged whole (a request id). Narrower than withoutKeys: a secret is base62, so
 * a run as long as a secret holds both cases in all but about one in 10^10 keys, or, put in one
 * case, a letter past f; the ids tracing tools make (a SHA-1 or SHA-256 in hex, `trace-<hex>`,
 * snake_case names, whose underscores break the run) are taken.
 */
export function holdsKey(text: string): boolean {
  // A key in hex (126 characters, within a request id's 128) starts with the prefix's bytes.
  if (text.search(KEY_LIKE) !== -1 || text.toLowerCase().includes(KEY_PREFIX_HEX)) return true;
  if ((text.match(SECRET_LIKE) ?? []).some((run) => /[a-z]/.test(run) && /[A-Z]/.test(run))) return true;
  return (text.match(ONE_CASE_SECRET) ?? []).some((run) => /[g-z]/i.test(run));
}

/** The text with every key-like run replaced, for logging what a client sent. */
export function withoutKeys(text: string): string {
  return text.replace(KEY_LIKE, `${KEY_PREFIX}[redacted]`).replace(SECRET_LIKE, '[redacted]');
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function newAccountId(): string {
  return randomBase62(ACCOUNT_ID_LENGTH);
}

export function generateApiKey(accountId: string): string {
  const body = `${KEY_PREFIX}${accountId}_${randomBase62(SECRET_LENGTH)}`;
  return body + checksum(body);
}

export interface ParsedKey {
  accountId: string;
  hash: string;
}

/** Returns null for anything that is not a well-formed key with a valid checksum. */
export function parseApiKey(key: string): ParsedKey | null {
  const match = KEY_RE.exec(key);
  if (!match) return null;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== match[3]) return null;
  return { accountId: match[1] as string, hash: hashApiKey(key) };
}

// One-shot: a Hash object per request cost about 1 µs more (measured), on every request.
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
