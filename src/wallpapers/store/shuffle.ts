import { hash } from 'node:crypto';

/**
 * sort=random without scoring every match. Each wallpaper keeps SHUFFLE_KEYS random keys, derived
 * from its id alone, so a seed, an import and a reindex give every wallpaper the same keys without
 * agreeing on anything. A seed picks one key and a place in its range (the offset); its order is
 * that key ascending from the offset to the top, then from the bottom up to the offset: a cycle.
 * Elasticsearch reads a page of it from a position within a stretch of the key sized to hold the
 * page (shuffled-pages.ts), so a page costs about the same at 10,000 wallpapers as at 10,000,000:
 * 10 ms at 10M, where scoring every match by a hash of the seed (random_score) took 780 ms
 * (bench/results/flat-with-size).
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

/** Where a seed's walk runs: along which key, from where. */
export interface Shuffle {
  field: string;
  /** The key of the walk: shuffleKey(id, key) orders it. */
  key: number;
  /** Keys from here up come first, then the keys below it. */
  offset: number;
}

/** The walk a seed names: a digest of the seed picks the key and the offset. */
export function shuffleOf(seed: string): Shuffle {
  const digest = hash('sha256', seed, 'buffer');
  const key = digest[0]! % SHUFFLE_KEYS;
  return { field: shuffleField(key), key, offset: digest.readInt32BE(1) };
}
