import { createHmac, createSecretKey, hash, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from '../../http/http-error.js';
import type { Position } from '../params.js';

/** What a cursor carries: where the walk is, which page comes next, and the query it belongs to. */
export interface CursorState {
  position: Position;
  /** The page number the next page reports in meta.current_page. */
  page: number;
  /** A digest of every parameter the walk was asked with, except the cursor itself, facets and include. */
  query: string;
}

export interface CursorCodec {
  encode(state: CursorState): string;
  /** The state of a cursor this API issued, or a 400 naming `cursor` for anything else. */
  decode(text: string): CursorState;
}

// 128 bits of HMAC-SHA-256: forging a cursor means guessing them.
const MAC_BYTES = 16;
const INDEX_NAME = /^[a-z0-9][a-z0-9_.-]{0,254}$/;

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
 * Opaque, tamper-evident cursors: base64url JSON of the state, a dot, and a MAC over it with a
 * secret shared by every instance of the API (CURSOR_SECRET), so any instance continues a walk
 * another began. A cursor is not encrypted: it reveals a catalogue index name and sort values,
 * nothing a client could not see in the results.
 */
export function createCursorCodec(secret: string): CursorCodec {
  // Imported once: building the key from the text on every page cost a fifth of each MAC (measured).
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
  return {
    encode({ position, page, query }) {
      const walk = { i: position.index, a: position.after, t: position.total, s: position.shuffled ? 1 : undefined, p: page, q: query };
      const payload = Buffer.from(JSON.stringify(walk)).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    decode(text) {
      const [payload = '', signature = '', extra] = text.split('.');
      if (extra !== undefined) throw tampered();
      // Compared as text: base64url decoding ignores the spare bits of the last character, so two
      // spellings of one MAC would otherwise both pass.
      const given = Buffer.from(signature);
      const expected = Buffer.from(mac(payload).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw tampered();
      let state: unknown;
      try {
        state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw tampered();
      }
      const { i, a, t, s, p, q } = (state ?? {}) as Record<string, unknown>;
      const position = { index: i, after: a, ...(t === undefined ? {} : { total: t }), ...(s === 1 ? { shuffled: true } : {}) };
      if (!isPosition(position) || !Number.isSafeInteger(p) || (p as number) < 2 || typeof q !== 'string') throw tampered();
      if (t !== undefined && (!Number.isSafeInteger(t) || (t as number) < 0)) throw tampered();
      if (s !== undefined && s !== 1) throw tampered();
      return { position, page: p as number, query: q };
    },
  };
}
