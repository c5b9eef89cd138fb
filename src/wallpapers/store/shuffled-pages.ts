import { type Shared, share } from '../../infra/shared-result.js';
import type { ListParams, Position } from '../params.js';
import type { ShuffledRead } from './build-queries.js';
import type { Page } from './repository.js';
import { RecentValues } from './recent-values.js';
import { BOTTOM_KEY, type Shuffle, TOP_KEY, shuffleKey, shuffleOf } from './shuffle.js';

/**
 * One search of the page's query (a list's or a search's), as `read` says: on `index` when given
 * (the one the page's first part came from, so an alias moved meanwhile cannot mix two catalogues
 * in a page), else where the page's params say.
 */
export type ShuffledReader = (read: ShuffledRead, index?: string) => Promise<Shared<Page>>;

type Items = Page['items'];

/**
 * The highest key a read from `lowest` needs to find `wanted` of `total` matches, with room to
 * spare (about four standard deviations and 40 more), never past `highest`. Keys are spread evenly
 * over 2^32 whatever the filters, so matches are too. Reading a span of keys costs Elasticsearch
 * what the span holds: 1-3 ms at 10M wallpapers, against 8-14 ms for the same page sorted from the
 * offset over the whole key, where skipping what lies below still walks every document's place.
 */
function spanEnd(lowest: number, wanted: number, total: number | undefined, highest: number): number {
  if (total === undefined) return highest;
  const expected = wanted + 4 * Math.sqrt(wanted) + 40;
  return Math.min(highest, lowest + Math.ceil((2 ** 32 * expected) / Math.max(1, total)));
}

interface Found {
  items: Items;
  /** The index the wallpapers came from, when any did. */
  index?: string;
}

/**
 * Up to `size` wallpapers after `after` (or from `lowest`) with keys up to `highest`, in key order:
 * one read of a span that holds them, and when it fell short, one more to `highest`.
 */
async function readAfter(
  read: ShuffledReader,
  { after, lowest, highest, size }: { after: Position['after'] | null; lowest: number; highest: number; size: number },
  total: number | undefined,
  index: string | undefined,
): Promise<Found> {
  const end = spanEnd(lowest, size, total, highest);
  const first = await read({ read: 'after', after, lowest, highest: end, size }, index);
  if (first.items.length === size || end === highest) return { items: first.items, index: first.last?.index ?? index };
  const from = first.last?.after ?? after;
  const rest = await read({ read: 'after', after: from, lowest, highest, size: size - first.items.length }, first.last?.index ?? index);
  return { items: [...first.items, ...rest.items], index: rest.last?.index ?? first.last?.index ?? index };
}

/**
 * The `size` wallpapers from the `from`-th on among keys `lowest` to `highest`, and how many that
 * range holds when the page ran past its end: a rank read of a span that holds them, or of the
 * whole range when the span fell short.
 */
async function readRank(
  read: ShuffledReader,
  { from, lowest, highest, size }: { from: number; lowest: number; highest: number; size: number },
  total: number,
  index: string | undefined,
): Promise<Found & { held: number }> {
  const end = spanEnd(lowest, from + size, total, highest);
  let page = await read({ read: 'rank', from, lowest, highest: end, size }, index);
  if (page.total < from + size && end !== highest) page = await read({ read: 'rank', from, lowest, highest, size }, index);
  return { items: page.items, index: page.last?.index ?? index, held: page.total };
}

/** Where a page ends: the last wallpaper's key and id, on the walk's index. */
function page(items: Items, total: number, index: string | undefined, shuffle: Shuffle): Shared<Page> {
  const last = items.at(-1);
  const position: Position | undefined = last && index ? { index, after: [shuffleKey(last.id, shuffle.key), last.id], shuffled: true } : undefined;
  return share({ items, total, ...(position ? { last: position } : {}) });
}

// From this many matches a query is shuffled along a key; below it, by random_score. Scoring every
// match costs 68 ms in Elasticsearch at 1,000,000 and 780 ms at 10,000,000, but it gives every
// seed a permutation of its own, in which each wallpaper is as likely as any to come first. Along a
// key, the first of a page is the one whose key follows the seed's offset, so a wallpaper comes
// first in proportion to the gap below its key: up to 3.8 times the even share, or 0.06 times
// (measured at 10,000). Above this size that skew is the price of a page in 10 ms.
const SHUFFLE_FROM_TOTAL = 1_000_000;

/**
 * How many matches queries had lately, by a key of the query: which way the next page 1 or
 * numbered page is read first. Never a total served: every such page counts its own.
 */
export class RecentTotals extends RecentValues<number> {
  /** `shuffleFrom`: how many matches make a query shuffled along a key (SHUFFLE_FROM_TOTAL; tests lower it). */
  constructor(
    readonly shuffleFrom = SHUFFLE_FROM_TOTAL,
    max = 2_000,
  ) {
    super(max);
  }
}

/** Where a page learns which way to read: the totals seen lately, and the key of this page's query among them. */
export interface Recent {
  totals: RecentTotals;
  key: () => string;
}

/**
 * Page 1, or the page after a cursor's position: the walk from the offset to the top of the key
 * (the first lap), then from the bottom up to the offset (the second). The matches are counted
 * beside the first read, whose span is sized by the total known before (the cursor's, or the one
 * seen last time): the count says where the walk ends, even after an import added wallpapers.
 */
async function afterPosition(params: ListParams, shuffle: Shuffle, read: ShuffledReader, known: number): Promise<Shared<Page> | null> {
  const { position, per_page } = params;
  const at = position ? Number(position.after[0]) : shuffle.offset;
  const onFirstLap = at >= shuffle.offset;
  const lap = onFirstLap
    ? { after: position?.after ?? null, lowest: at, highest: TOP_KEY }
    : { after: position!.after, lowest: at, highest: shuffle.offset - 1 };
  const [{ total }, first] = await Promise.all([read({ read: 'count' }), readAfter(read, { ...lap, size: per_page }, known, position?.index)]);
  if (total === 0) return share({ items: [], total });
  let found = first;
  const served = (position?.depth ?? 0) + found.items.length;
  if (onFirstLap && found.items.length < per_page && served < total) {
    const rest = { after: null, lowest: BOTTOM_KEY, highest: shuffle.offset - 1, size: per_page - found.items.length };
    const below = await readAfter(read, rest, total, found.index);
    found = { items: [...found.items, ...below.items], index: below.index ?? found.index };
  }
  // Matches counted and none found on any lap: the catalogue has no keys.
  if (!position && found.items.length === 0) return null;
  return page(found.items, total, found.index, shuffle);
}

/**
 * Page N by number: search_after cannot start at a rank, so the page is read by rank among the keys
 * of the first lap, and past it, of the second, each from a span that holds the ranks asked.
 */
async function byNumber(params: ListParams, shuffle: Shuffle, read: ShuffledReader): Promise<Shared<Page> | null> {
  const { page: number, per_page } = params;
  const from = (number - 1) * per_page;
  const { total } = await read({ read: 'count' });
  if (from >= total) return share({ items: [], total });
  const above = await readRank(read, { from, lowest: shuffle.offset, highest: TOP_KEY, size: per_page }, total, undefined);
  let found: Found = above;
  if (above.items.length < per_page && from + above.items.length < total) {
    const rank = { from: Math.max(0, from - above.held), lowest: BOTTOM_KEY, highest: shuffle.offset - 1, size: per_page - above.items.length };
    const below = await readRank(read, rank, total, above.index);
    found = { items: [...above.items, ...below.items], index: below.index ?? above.index };
  }
  // Matches counted and none found where they must be: the catalogue has no keys.
  if (found.items.length === 0) return null;
  return page(found.items, total, found.index, shuffle);
}

/**
 * A page of sort=random. A query of SHUFFLE_FROM_TOTAL matches or more walks the seed's cycle along
 * one key (shuffle.ts); a smaller one is scored by random_score, as is any page of a catalogue
 * loaded before the keys, and a walk goes on the way its cursor says it began. Which way a page 1
 * or numbered page goes follows its query's count: it reads the way the total seen last time
 * points, and reads again the other way when this time's count says otherwise.
 */
export async function readShuffledPage(params: ListParams, read: ShuffledReader, recent: Recent): Promise<Shared<Page>> {
  const { position } = params;
  if (position) {
    if (!position.shuffled) return read({ read: 'scored' });
    return (await afterPosition(params, shuffleOf(params.seed ?? ''), read, position.total ?? 0)) ?? read({ read: 'scored' });
  }
  const key = recent.key();
  const large = (total: number) => total >= recent.totals.shuffleFrom;
  const seen = recent.totals.get(key);
  if (seen === undefined || !large(seen)) {
    const scored = await read({ read: 'scored' });
    recent.totals.set(key, scored.total);
    if (!large(scored.total)) return scored;
  }
  const shuffle = shuffleOf(params.seed ?? '');
  const keyed = params.page > 1 ? await byNumber(params, shuffle, read) : await afterPosition(params, shuffle, read, recent.totals.get(key)!);
  if (keyed !== null) recent.totals.set(key, keyed.total);
  if (keyed === null || large(keyed.total)) return keyed ?? read({ read: 'scored' });
  return read({ read: 'scored' });
}
