import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt at N=2^15, r=8, p=3: one of OWASP's equivalent scrypt settings (2^17/8/1 is another),
// 32 MiB of memory per hash instead of 128, so a burst of sign-ins cannot exhaust the server's
// memory; each hash runs on libuv's thread pool, off the event loop (callers bound how many at
// once: see createWorkBudget). The parameters travel with the hash, so raising them later keeps
// old hashes verifiable.
const PARAMS = { N: 2 ** 15, r: 8, p: 3 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// `scrypt-nfkc$…` hashes a password normalised with NFKC, as NIST SP 800-63B asks, so the same
// password typed with composed or decomposed characters, or full-width digits, is one password.
// `scrypt$…` (earlier hashes) normalised with NFC and is still verified that way.
const FORMAT = /^(scrypt|scrypt-nfkc)\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/;
const NORMALIZATION = { scrypt: 'NFC', 'scrypt-nfkc': 'NFKC' } as const;

function derive(password: string, salt: Buffer, { N, r, p }: typeof PARAMS): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_BYTES, { N, r, p, maxmem: 128 * N * r * 2 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt-nfkc$N$r$p$salt$hash`, base64url; the whole password is hashed, however long. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password.normalize('NFKC'), salt, PARAMS);
  return `scrypt-nfkc$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, scheme, N, r, p, salt, hash] = match as unknown as [string, keyof typeof NORMALIZATION, string, string, string, string, string];
  const key = await derive(password.normalize(NORMALIZATION[scheme]), Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  const expected = Buffer.from(hash, 'base64url');
  return key.length === expected.length && timingSafeEqual(key, expected);
}
