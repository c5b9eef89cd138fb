import { createCipheriv, createHmac, createSecretKey, hash, hkdfSync, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from '../../http/http-error.js';
import { type JsonObject, openApiDocument } from '../../openapi/document.js';
import type { Position } from '../params.js';
import { versionedNamePattern } from '../store/index-names.js';
import { BOTTOM_KEY, TOP_KEY } from '../store/shuffle.js';

/** What a cursor carries: where the walk is, which page comes next, and the query it belongs to. */
export interface CursorState {
  position: Position;
  /** The page number the next page reports in meta.current_page. */
  page: number;
  /** A digest of every parameter the walk was asked with, except the cursor itself, facets and include. */
  query: string;
  /** A change-feed position's history (change-log.ts); a build before histories ignores it. */
  history?: string;
  /**
   * A sort=random walk's seed, so that following `meta.next_cursor` alone goes on with the seed the
   * walk began with, also one the API picked; a build before it ignores it (and asks for the seed).
   */
  seed?: string;
  /**
   * The walk's page size, so that a cursor sent without `per_page` goes on in the pages it was issued
   * for, not in the default's (a client resuming a stopped walk holds the cursor, not the size); a
   * build before it ignores it, and a cursor it issued carries none.
   */
  perPage?: number;
}

export interface CursorCodec {
  encode(state: CursorState): string;
  /** The state of a cursor this API issued, or a 400 naming `cursor` for anything else. */
  decode(text: string): CursorState;
}

// 128 bits of HMAC-SHA-256: forging a cursor means guessing them.
const MAC_BYTES = 16;
// The first byte of a sealed cursor; another seal, later, would take another.
const VERSION = 2;
// A sealed cursor's IV is its MAC too.
const IV_BYTES = MAC_BYTES;
const INDEX_NAME = /^[a-z0-9][a-z0-9_.-]{0,254}$/;
// As the catalogue tools write a history's id (change-recorder.ts), with room to spare.
const HISTORY = /^[A-Za-z0-9_-]{1,64}$/;
// As the contract's `seed` parameter takes it.
const seedSchema = (((openApiDocument['components'] as JsonObject)['parameters'] as JsonObject)['seed'] as JsonObject)['schema'] as JsonObject;
const SEED = new RegExp(seedSchema['pattern'] as string);
const isSeed = (value: string) => SEED.test(value) && value.length >= seedSchema['minLength'] && value.length <= seedSchema['maxLength'];
/** The `index` of a change-feed position (change-feed.ts), which reads no index by that name. */
export const FEED_POSITION = 'changes';

const tampered = () =>
  invalidRequest("Invalid query parameter 'cursor': not a cursor this API issued; pass meta.next_cursor of the previous page unchanged");

const UNBOUND = new Set(['page', 'facets', 'include', 'position']);

/**
 * The digest a cursor is bound to: the route and every parameter but `cursor`, `page`, `facets`
 * and `include` (they change what a page tells, not which wallpapers it holds, so they may be
 * asked on any page of a walk), in a fixed order.
 */
export function queryDigest(route: string, params: object): string {
  const entries = Object.entries(params)
    .filter(([name, value]) => value !== undefined && !UNBOUND.has(name))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return hash('sha256', JSON.stringify([route, entries]), 'base64url').slice(0, 16);
}

function isPosition(value: unknown): value is Position {
  if (typeof value !== 'object' || value === null) return false;
  const { index, after } = value as Record<string, unknown>;
  return (
    typeof index === 'string' &&
    INDEX_NAME.test(index) &&
    Array.isArray(after) &&
    after.length > 0 &&
    after.length <= 4 &&
    after.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
  );
}

/**
 * Whether an index name is one of this catalogue's, as the catalogue tools name them
 * (store/index-names.ts), or the change feed's position, which names no index. Any digits had let
 * the alias `h100a` take `h100a-2`'s indices for its own (helper-98).
 */
function isIndexOf(alias: string): (index: string) => boolean {
  const own = versionedNamePattern(alias);
  return (index) => index === FEED_POSITION || own.test(index);
}

/**
 * A place along a shuffle key (a sort=random walk's position or start): a key within the key's
 * range and an id. Sealed cursors hold only what the API wrote; this keeps a key Elasticsearch's
 * integer field would refuse from ever reaching it as a bound.
 */
function isPlace(value: unknown): value is [number, number] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((v) => Number.isSafeInteger(v)) &&
    value[0] >= BOTTOM_KEY &&
    value[0] <= TOP_KEY &&
    value[1] >= 0
  );
}

/**
 * Opaque, sealed cursors: the state is encrypted and authenticated, so a client can neither read
 * it (it holds the catalogue index's name and the sort values of the last hit, relevance scores
 * among them, which no response shows) nor change it. Any instance holding the same CURSOR_SECRET
 * continues a walk another began.
 *
 * The seal is a synthetic-IV construction (deterministic authenticated encryption, the idea of
 * RFC 5297 with HMAC-SHA-256 in place of its S2V over CMAC): the IV is HMAC-SHA-256 of the version
 * and the state, kept to 128 bits, and the state is encrypted with AES-256-CTR from it, OpenSSL
 * counting over the whole 128-bit block; opening decrypts and checks that the IV is the HMAC of
 * what came out, before anything reads it. Each key is derived from the secret by HKDF for its one
 * use. The length is not hidden: a client can tell how many characters the hidden values take
 * (an index name of a fixed pattern, a score's digits), nothing of what they are.
 * - Deterministic on purpose: one position always gets one cursor, so a page's body, and with it
 *   its ETag, stays the same between requests (a client polling the feed's tail keeps its 304s).
 *   It tells a client only that two cursors are one position, which it can see anyway.
 * - Not AES-GCM with random nonces: 96 bits allow about 2^32 cursors per key before a repeat is
 *   likely, and a repeated GCM nonce gives away the authentication key; a cursor secret lives for
 *   years and seals every page of every client. Two states share an IV here only by a 128-bit
 *   collision, and even then show only their XOR.
 *
 * Cursors issued before the seal (base64url JSON, a dot, an HMAC of it with the secret itself)
 * are still read, so a walk or a change-feed position saved before an upgrade goes on; every
 * cursor issued now is sealed. `onLegacyRead` counts them, so that acceptance can go once none
 * come any more.
 */
export function createCursorCodec(secret: string, { onLegacyRead, catalogue }: { onLegacyRead?: () => void; catalogue?: string } = {}): CursorCodec {
  const ownIndex = catalogue === undefined ? () => true : isIndexOf(catalogue);
  const derive = (use: string) =>
    Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `wallpaper-catalogue cursor ${use}`, 32));
  const cipherKey = createSecretKey(derive('aes-256-ctr'));
  const ivKey = createSecretKey(derive('siv-hmac-sha-256'));
  // Imported once: building the key from the text on every page cost a fifth of each MAC (measured).
  const legacyKey = createSecretKey(Buffer.from(secret, 'utf8'));
  const versionByte = Buffer.from([VERSION]);
  const syntheticIv = (state: Buffer) => createHmac('sha256', ivKey).update(versionByte).update(state).digest().subarray(0, IV_BYTES);
  // CTR is a stream cipher, its own inverse: update() returns every byte, and final() would add none.
  const ctr = (iv: Buffer, bytes: Buffer) => createCipheriv('aes-256-ctr', cipherKey, iv).update(bytes);

  /** The JSON a sealed cursor holds, or null when the text is not one this secret sealed. */
  function opened(text: string): string | null {
    const bytes = Buffer.from(text, 'base64url');
    // base64url decoding skips what is not its alphabet and ignores the spare bits of the last
    // character: only the one spelling this codec writes is taken.
    if (bytes.length < 1 + IV_BYTES + 2 || bytes[0] !== VERSION || bytes.toString('base64url') !== text) return null;
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const state = ctr(iv, bytes.subarray(1 + IV_BYTES));
    return timingSafeEqual(syntheticIv(state), iv) ? state.toString('utf8') : null;
  }

  /** The JSON of a cursor issued before the seal, or null when its HMAC does not match. */
  function signed(text: string): string | null {
    const [payload = '', signature = '', extra] = text.split('.');
    if (extra !== undefined) return null;
    // Compared as text, for the same spare bits.
    const given = Buffer.from(signature);
    const expected = Buffer.from(createHmac('sha256', legacyKey).update(payload).digest().subarray(0, MAC_BYTES).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return Buffer.from(payload, 'base64url').toString('utf8');
  }

  return {
    encode({ position, page, query, history, seed, perPage }) {
      // `r`, a shuffled walk's start, apart from `s`: an instance of the build before reads such a
      // cursor as a walk begun at the offset, rather than refusing it during a rolling upgrade.
      const shuffled = position.shuffled ? { s: 1, r: position.start } : {};
      const walk = {
        i: position.index,
        a: position.after,
        t: position.total,
        k: position.ranking,
        ...shuffled,
        p: page,
        q: query,
        c: catalogue,
        h: history,
        e: seed,
        n: perPage,
      };
      const state = Buffer.from(JSON.stringify(walk), 'utf8');
      const iv = syntheticIv(state);
      return Buffer.concat([versionByte, iv, ctr(iv, state)]).toString('base64url');
    },
    decode(text) {
      const legacy = text.includes('.');
      const json = legacy ? signed(text) : opened(text);
      if (json === null) throw tampered();
      if (legacy) onLegacyRead?.();
      let state: unknown;
      try {
        state = JSON.parse(json);
      } catch {
        throw tampered();
      }
      const { i, a, t, k, s, r, p, q, c, h, e, n } = (state ?? {}) as Record<string, unknown>;
      // A cursor of another catalogue sealed with the same secret (staging and production, two
      // tenants) had read that catalogue's index (helper-94). One issued by a build before `c`
      // must name an index of this catalogue, as the catalogue tools name them.
      if (catalogue !== undefined && (c === undefined ? typeof i !== 'string' || !ownIndex(i) : c !== catalogue)) throw tampered();
      const shuffled = s === 1 ? { shuffled: true, ...(isPlace(r) ? { start: r } : {}) } : {};
      const position = { index: i, after: a, ...(t === undefined ? {} : { total: t }), ...(k === undefined ? {} : { ranking: k }), ...shuffled };
      if (!isPosition(position) || !Number.isSafeInteger(p) || (p as number) < 2 || typeof q !== 'string') throw tampered();
      if (t !== undefined && (!Number.isSafeInteger(t) || (t as number) < 0)) throw tampered();
      if (k !== undefined && !Number.isSafeInteger(k)) throw tampered();
      if (s !== undefined && s !== 1) throw tampered();
      if (s === 1 && (!isPlace(a) || (r !== undefined && !isPlace(r)))) throw tampered();
      if (s === undefined && r !== undefined) throw tampered();
      if (h !== undefined && (typeof h !== 'string' || !HISTORY.test(h))) throw tampered();
      if (e !== undefined && (typeof e !== 'string' || !isSeed(e))) throw tampered();
      if (n !== undefined && (!Number.isSafeInteger(n) || (n as number) < 1)) throw tampered();
      return {
        position,
        page: p as number,
        query: q,
        ...(h === undefined ? {} : { history: h }),
        ...(e === undefined ? {} : { seed: e }),
        ...(n === undefined ? {} : { perPage: n as number }),
      };
    },
  };
}
