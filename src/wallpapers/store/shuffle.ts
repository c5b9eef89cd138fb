import { hash } from 'node:crypto';

/**
 * sort=random without scoring every match. Each wallpaper keeps SHUFFLE_KEYS random keys, derived
 * from its id alone, so a seed, an import and a reindex give every wallpaper the same keys without
 * agreeing on anything. A seed picks one key, a place in its range (the offset) and how many
 * matches past it the walk starts (the skip); its order is that key ascending from the start to the
 * top, then from the bottom up to the start: a cycle. Elasticsearch reads a page of it from a
 * position within a stretch of the key sized to hold the page (shuffled-pages.ts), so a page costs
 * about the same at 10,000 wallpapers as at 10,000,000: 10 ms at 10M, where scoring every match
 * by a hash of the seed (random_score) took 780 ms (bench/results/flat-with-size).
 *
 * The price is variety: seeds that pick the same key walk the same cycle from different places.
 * Four keys give four cycles; a rotator showing a page from a seed of its own sees a stretch of
 * one of them that another seed reaches only by walking as far. Each key costs about 10 bytes of
 * doc values and points per wallpaper (4 MB per 100,000, about 9 % of the index: _disk_usage).
 */
export const SHUFFLE_KEYS = 4;

/**
 * What Elasticsearch sorts a wallpaper without the key as (the largest integer: `missing` is last
 * in ascending order). No key takes it, so reads of a range of keys never meet such a wallpaper.
 */
export const NO_KEY = 2 ** 31 - 1;

/** The range of keys a walk reads: every key but NO_KEY. */
export const BOTTOM_KEY = -(2 ** 31);
export const TOP_KEY = NO_KEY - 1;

export const shuffleField = (key: number): string => `shuffle_${key}`;

/** The stored fields, as in index-mappings/wallpapers.json. */
export const SHUFFLE_FIELDS: readonly string[] = Array.from({ length: SHUFFLE_KEYS }, (_, key) => shuffleField(key));

/** murmur3's finaliser: every input bit moves about half the output bits. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Key `key` of wallpaper `id`: a signed 32-bit integer (the field is an `integer`), never NO_KEY. */
export function shuffleKey(id: number, key: number): number {
  // Ids go up to 2^53: both halves count.
  const low = id % 2 ** 32;
  const high = Math.floor(id / 2 ** 32);
  const mixed = fmix32(fmix32(low ^ Math.imul(key + 1, 0x9e3779b9)) ^ fmix32(high + key)) | 0;
  return mixed === NO_KEY ? NO_KEY - 1 : mixed;
}

/**
 * How far past the offset a walk starts, at most: a seed starts its walk at the `skip`-th match
 * from the offset up, `skip` drawn evenly below this. Started at the offset itself, a walk's first
 * wallpaper would be the one whose key follows a random place, so each came first in proportion to
 * the gap below its key: from 0.002 to 16 times the even share at 10,000,000 (the gaps are
 * exponential; worked out from the keys, bench/search/first-picks.ts). Skipping an even draw of up
 * to SPREAD matches averages SPREAD gaps: 0.75 to 1.32 times the even share (98 % of wallpapers
 * within 0.86 to 1.15), a coefficient of variation of 0.063 where it was 1.0. The price is a read
 * that collects up to SPREAD more keys, which Elasticsearch keeps in its request cache: at 1,024
 * (0.031) those entries took 8.5 KB each and crowded its 1 % of a 512 MB heap, and a rotator's mix
 * at 10,000,000 served half the pages a second; at 256 it serves 0.87–0.91 of the pages a second
 * of the walk started at the offset (bench/results/even-first-picks).
 */
export const SHUFFLE_SPREAD = 256;

/** Where a wallpaper stands along a key: its key, then its id for wallpapers whose keys tie. */
export type KeyAndId = readonly [key: number, id: number];

/** Whether `a` comes before `b` along a key. */
export const comesBefore = (a: KeyAndId, b: KeyAndId): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** Where a seed's walk runs: along which key, from where. */
export interface Shuffle {
  field: string;
  /** The key of the walk: shuffleKey(id, key) orders it. */
  key: number;
  /** The place in the key's range the walk is found from. */
  offset: number;
  /** How many matches past the offset the walk starts (round the key: past the top, on from the bottom). */
  skip: number;
}

/** The walk a seed names: a digest of the seed picks the key, the offset and the skip. */
export function shuffleOf(seed: string): Shuffle {
  const digest = hash('sha256', seed, 'buffer');
  const key = digest[0]! % SHUFFLE_KEYS;
  return { field: shuffleField(key), key, offset: digest.readInt32BE(1), skip: digest.readUInt16BE(5) % SHUFFLE_SPREAD };
}
