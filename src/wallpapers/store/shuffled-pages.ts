import { type Shared, share } from '../../infra/shared-result.js';
import type { ListParams, Position } from '../params.js';
import type { ShuffledRead } from './build-queries.js';
import type { Page } from './repository.js';
import { RecentValues } from './recent-values.js';
import { BOTTOM_KEY, type KeyAndId, SHUFFLE_SPREAD, type Shuffle, TOP_KEY, comesBefore, shuffleKey, shuffleOf } from './shuffle.js';
import { LARGEST_PAGE } from './result-window.js';

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

const joined = (first: Found, rest: Found): Found => ({ items: [...first.items, ...rest.items], index: rest.index ?? first.index });

/**
 * Up to `size` wallpapers after `after` (or from `lowest`) with keys up to `highest`, and before
 * `until` when given, in key order: one read of a span that holds them, and when it fell short, one
 * more to `highest`.
 */
async function readAfter(
  read: ShuffledReader,
  { after, lowest, highest, until, size }: { after: Position['after'] | null; lowest: number; highest: number; until?: KeyAndId; size: number },
  total: number | undefined,
  index: string | undefined,
): Promise<Found> {
  const bound = until ? { until } : {};
  const end = spanEnd(lowest, size, total, highest);
  const first = await read({ read: 'after', after, lowest, highest: end, size, ...bound }, index);
  if (first.items.length === size || end === highest) return { items: first.items, index: first.last?.index ?? index };
  const from = first.last?.after ?? after;
  const rest = await read({ read: 'after', after: from, lowest, highest, size: size - first.items.length, ...bound }, first.last?.index ?? index);
  return { items: [...first.items, ...rest.items], index: rest.last?.index ?? first.last?.index ?? index };
}

/**
 * The `size` wallpapers from the `from`-th on among keys `lowest` to `highest` (from `since` and
 * before `until`, when given), and how many that range holds when the page ran past its end: a
 * rank read of a span that holds them, or of the whole range when the span fell short.
 */
async function readRank(
  read: ShuffledReader,
  { from, lowest, highest, size, ...bounds }: { from: number; lowest: number; highest: number; size: number; since?: KeyAndId; until?: KeyAndId },
  total: number,
  index: string | undefined,
): Promise<Found & { held: number }> {
  const end = spanEnd(lowest, from + size, total, highest);
  let page = await read({ read: 'rank', from, lowest, highest: end, size, ...bounds }, index);
  if (page.total < from + size && end !== highest) page = await read({ read: 'rank', from, lowest, highest, size, ...bounds }, index);
  return { items: page.items, index: page.last?.index ?? index, held: page.total };
}

/** A wallpaper's place along the walk's key. */
const placeOf = (shuffle: Shuffle, id: number): KeyAndId => [shuffleKey(id, shuffle.key), id];

/**
 * A walk's two laps: the first from its start (included) to the top of the key, the second from
 * the bottom of the key up to its start. Whether a place lies on the first.
 */
const onFirstLap = (place: KeyAndId, start: KeyAndId): boolean => !comesBefore(place, start);

/** Up to `size` wallpapers after `after` on its lap: to the top of the key on the first, up to the start on the second. */
function readOn(read: ShuffledReader, start: KeyAndId, after: KeyAndId, size: number, total: number | undefined, index?: string): Promise<Found> {
  const lap = onFirstLap(after, start) ? { highest: TOP_KEY } : { highest: start[0], until: start };
  return readAfter(read, { after, lowest: after[0], ...lap, size }, total, index);
}

/** Up to `size` wallpapers of the second lap from its beginning: from the bottom of the key up to the start. */
function readSecondLap(read: ShuffledReader, start: KeyAndId, size: number, total: number, index: string | undefined): Promise<Found> {
  return readAfter(read, { after: null, lowest: BOTTOM_KEY, highest: start[0], until: start, size }, total, index);
}

/** Where a page ends (the last wallpaper's place) and where its walk started, on the walk's index. */
function page(items: Items, total: number, index: string | undefined, shuffle: Shuffle, start: KeyAndId): Shared<Page> {
  const last = items.at(-1);
  const position: Position | undefined = last && index ? { index, after: placeOf(shuffle, last.id), shuffled: true, start } : undefined;
  return share({ items, total, ...(position ? { last: position } : {}) });
}

// From this many matches a query is shuffled along a key; below it, by random_score. Scoring every
// match costs 68 ms in Elasticsearch at 1,000,000 and 780 ms at 10,000,000, but it gives every
// seed a permutation of its own, in which each wallpaper is exactly as likely as any to come first.
// Along a key, seeds share four cycles, and a wallpaper comes first with 0.75 to 1.32 times the even
// share (the skip, shuffle.ts). Above this size that is the price of a page in 10 ms.
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

/** The start of a walk begun before walks had starts: the seed's offset, every match from it up on the first lap. */
const startOf = (position: Position, shuffle: Shuffle): KeyAndId => position.start ?? [shuffle.offset, 0];

/**
 * The page after a cursor's position: the rest of the lap the position is on, and after the first
 * lap, the second. The matches are counted beside the first read, whose span is sized by the
 * total the cursor carries: the count says where the walk ends, even after an import added
 * wallpapers.
 */
async function afterPosition(params: ListParams, shuffle: Shuffle, read: ShuffledReader, position: Position): Promise<Shared<Page>> {
  const { per_page } = params;
  const start = startOf(position, shuffle);
  const at: KeyAndId = [Number(position.after[0]), Number(position.after[1])];
  const [{ total }, first] = await Promise.all([read({ read: 'count' }), readOn(read, start, at, per_page, position.total ?? 0, position.index)]);
  if (total === 0) return share({ items: [], total });
  let found = first;
  // Whatever the count says: wallpapers the walk served and that were deleted since leave it below
  // what the walk served, and trusting it would leave the second lap unread.
  if (onFirstLap(at, start) && found.items.length < per_page) {
    found = joined(found, await readSecondLap(read, start, per_page - found.items.length, total, found.index));
  }
  return page(found.items, total, found.index, shuffle, start);
}

/**
 * The matches of a seed's round from the `from`-th on, `size` of them: the round runs from the
 * offset up to the top of the key, then from the bottom up to the offset, and round again; the walk
 * is the round begun at the skip-th. A stretch of it is read by rank in parts, from the offset up
 * (`above`, read by the caller beside the count), from the bottom up, and on round: at most four,
 * as a page holds at most the whole walk. Each part that falls short has read its whole range, so
 * its `held` says how many ranks the next part begins past.
 */
async function readRound(
  read: ShuffledReader,
  { offset }: Shuffle,
  from: number,
  size: number,
  total: number,
  above: Found & { held: number },
): Promise<Found> {
  const parts = [
    { lowest: offset, highest: TOP_KEY },
    { lowest: BOTTOM_KEY, highest: offset - 1 },
  ] as const;
  let found: Found = above;
  let passed = above.held;
  for (let part = 1; part < 4 && found.items.length < size; part++) {
    const range = parts[part % 2]!;
    const next = await readRank(read, { from: Math.max(0, from - passed), ...range, size: size - found.items.length }, total, found.index);
    found = joined(found, next);
    passed += next.held;
    // Neither side of the offset holds a match that was counted: the catalogue has no keys.
    if (passed === 0) break;
  }
  return found;
}

/**
 * A page by number too deep to read its ranks from the offset: past the result window, which
 * Elasticsearch counts from the first rank a read skips, the skip's up to SHUFFLE_SPREAD ranks
 * would not fit. The walk's start is read first, and the page's ranks are counted from it: along
 * the first lap from the start on, then the second up to the start. One round trip more than a
 * shallower page.
 */
async function deepPage(read: ShuffledReader, start: KeyAndId, from: number, size: number, total: number): Promise<Found> {
  const first = await readRank(read, { from, lowest: start[0], since: start, highest: TOP_KEY, size }, total, undefined);
  if (first.items.length >= size) return first;
  // Short of the page, the first read covered the whole lap: `held` is all it holds.
  const rest = { from: Math.max(0, from - first.held), lowest: BOTTOM_KEY, highest: start[0], until: start, size: size - first.items.length };
  return joined(first, await readRank(read, rest, total, first.index));
}

/**
 * Page 1 or page N by number: a stretch of the seed's round from its skip-th match on. Beside the
 * count go the page's ranks from the offset up and, for a later page, the walk's start, both read
 * as if the skip-th match lay above the offset, as it does for all but about one seed in 7,800 at
 * a million matches; the others read on from the bottom. Spans are sized by the total seen last
 * time. A page whose ranks from the offset would pass the result window reads its start first
 * (deepPage).
 */
async function byNumber(
  params: ListParams,
  shuffle: Shuffle,
  read: ShuffledReader,
  known: number,
  resultWindow: number,
): Promise<Shared<Page> | null> {
  const { page: number, per_page } = params;
  const from = (number - 1) * per_page;
  const { offset } = shuffle;
  // A result window below SHUFFLE_SPREAD + LARGEST_PAGE (MAX_RESULT_WINDOW goes down to 100) could
  // not hold page 1 from the skip: the skip is drawn from as far as it can.
  const skip = shuffle.skip % Math.max(1, Math.min(SHUFFLE_SPREAD, resultWindow - LARGEST_PAGE));
  const fromOffset = (rank: number, size: number, total: number) =>
    readRank(read, { from: rank, lowest: offset, highest: TOP_KEY, size }, total, undefined);
  const deep = skip + from + per_page > resultWindow;
  const [{ total }, above, starting] = await Promise.all([
    read({ read: 'count' }),
    deep ? null : fromOffset(skip + from, per_page, known),
    from === 0 ? null : fromOffset(skip, 1, known),
  ]);
  if (from >= total) return share({ items: [], total });
  const size = Math.min(per_page, total - from);
  // Fewer matches than the skip (a catalogue far below SHUFFLE_FROM_TOTAL): the count goes round again.
  const begin = skip % total;
  const startOfWalk = async () => {
    const startAbove = begin === skip && starting ? starting : await fromOffset(begin, 1, total);
    const found = (await readRound(read, shuffle, begin, 1, total, startAbove)).items[0];
    return found ? placeOf(shuffle, found.id) : null;
  };
  if (deep) {
    const start = await startOfWalk();
    // Matches counted and none found where they must be: the catalogue has no keys.
    if (start === null) return null;
    const found = await deepPage(read, start, from, size, total);
    return found.items.length === 0 ? null : page(found.items, total, found.index, shuffle, start);
  }
  const firstAbove = begin === skip && above ? above : await fromOffset(begin + from, size, total);
  const found = await readRound(read, shuffle, begin + from, size, total, firstAbove);
  const first = found.items[0];
  if (!first) return null;
  const start = from === 0 ? placeOf(shuffle, first.id) : await startOfWalk();
  if (start === null) return null;
  return page(found.items, total, found.index, shuffle, start);
}

/**
 * A page of sort=random. A query of SHUFFLE_FROM_TOTAL matches or more walks the seed's cycle along
 * one key (shuffle.ts); a smaller one is scored by random_score, as is any page of a catalogue
 * loaded before the keys, and a walk goes on the way its cursor says it began. Which way a page 1
 * or numbered page goes follows its query's count: it reads the way the total seen last time
 * points, and reads again the other way when this time's count says otherwise. `resultWindow` is
 * MAX_RESULT_WINDOW, within which a numbered page starts: a read ends before it, or, for the page
 * that starts within it and ends past it, at most a page past it, which the index serves
 * (index-mappings: max_result_window is MAX_RESULT_WINDOW and the largest page).
 */
export async function readShuffledPage(
  params: ListParams,
  read: ShuffledReader,
  recent: Recent,
  { resultWindow = 10_000 }: { resultWindow?: number } = {},
): Promise<Shared<Page>> {
  const { position } = params;
  if (position) {
    if (!position.shuffled) return read({ read: 'scored' });
    return afterPosition(params, shuffleOf(params.seed ?? ''), read, position);
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
  const keyed = await byNumber(params, shuffle, read, recent.totals.get(key)!, resultWindow);
  if (keyed !== null) recent.totals.set(key, keyed.total);
  if (keyed === null || large(keyed.total)) return keyed ?? read({ read: 'scored' });
  return read({ read: 'scored' });
}
