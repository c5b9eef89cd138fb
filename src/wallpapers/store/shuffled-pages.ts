import { type Shared, share } from '../../infra/shared-result.js';
import type { ListParams, Position } from '../params.js';
import type { ShuffledRead } from './build-queries.js';
import type { Page } from './repository.js';
import { RecentValues } from './recent-values.js';
import { BOTTOM_KEY, type KeyAndId, type Shuffle, TOP_KEY, comesBefore, shuffleKey, shuffleOf } from './shuffle.js';

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
 * before `until`, when given), and how many that range holds when the page ran past its end: a rank
 * read of a span that holds them, or of the whole range when the span fell short.
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
// Along a key, seeds share four cycles, and a wallpaper comes first with 0.87 to 1.16 times the even
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
  const served = (position.depth ?? 0) + found.items.length;
  if (onFirstLap(at, start) && found.items.length < per_page && served < total) {
    found = joined(found, await readSecondLap(read, start, per_page - found.items.length, total, found.index));
  }
  return page(found.items, total, found.index, shuffle, start);
}

/** The first wallpapers of a walk from its start, which `through` says how far up the key they were read. */
interface Opening extends Found {
  start: KeyAndId | null;
  through: number;
}

/**
 * Where a walk starts, and its first `size` wallpapers up to `through`: the `skip`-th match from
 * the offset up, counted round the key (past the top, on from the bottom; past every match, from
 * the offset again). The skip is what makes the first wallpaper an even draw (shuffle.ts). Mostly
 * one read: with a million matches or more, fewer than SHUFFLE_SPREAD lie above the offset about
 * once in a thousand seeds, and the count beside it tells how to go round.
 */
async function openWalk(read: ShuffledReader, shuffle: Shuffle, size: number, known: number, counted: Promise<number>): Promise<Opening> {
  const { offset, skip } = shuffle;
  const above = await readRank(read, { from: skip, lowest: offset, highest: TOP_KEY, size }, known, undefined);
  const first = above.items[0];
  if (first) return { ...above, start: placeOf(shuffle, first.id), through: TOP_KEY };
  // Fewer than skip + 1 from the offset up: `held` of them.
  const total = await counted;
  if (total === 0) return { items: [], start: null, through: TOP_KEY };
  const rank = skip % total;
  const [lowest, highest, from] = rank < above.held ? [offset, TOP_KEY, rank] : [BOTTOM_KEY, offset - 1, rank - above.held];
  const again = await readRank(read, { from, lowest, highest, size }, total, above.index);
  const found = again.items[0];
  return { ...again, start: found ? placeOf(shuffle, found.id) : null, through: highest };
}

/** Page 1: the walk's opening, and when it falls short, the rest of the first lap, then the second. */
async function pageOne(read: ShuffledReader, shuffle: Shuffle, opening: Opening & { start: KeyAndId }, size: number, total: number): Promise<Found> {
  const { start, through } = opening;
  let found: Found = opening;
  const short = () => found.items.length < size && found.items.length < total;
  if (short() && through !== TOP_KEY) {
    const last = placeOf(shuffle, found.items.at(-1)!.id);
    found = joined(found, await readOn(read, start, last, size - found.items.length, total, found.index));
  }
  if (short()) found = joined(found, await readSecondLap(read, start, size - found.items.length, total, found.index));
  return found;
}

/**
 * Page N by number: search_after cannot start at a rank, so the page is read by rank among the keys
 * of the first lap, and past it, of the second, each from a span that holds the ranks asked.
 */
async function rankedPage(
  read: ShuffledReader,
  start: KeyAndId,
  from: number,
  size: number,
  total: number,
  index: string | undefined,
): Promise<Found> {
  const first = await readRank(read, { from, lowest: start[0], since: start, highest: TOP_KEY, size }, total, index);
  if (first.items.length === size || from + first.items.length >= total) return first;
  // Short of the page, the first read covered the whole lap: `held` is all it holds.
  const rest = { from: Math.max(0, from - first.held), lowest: BOTTOM_KEY, highest: start[0], until: start, size: size - first.items.length };
  return joined(first, await readRank(read, rest, total, first.index));
}

/**
 * Page 1 or page N by number. The matches are counted beside the walk's opening, whose span is
 * sized by the total seen last time; page N reads its start alone there, then its own ranks.
 */
async function byNumber(params: ListParams, shuffle: Shuffle, read: ShuffledReader, known: number): Promise<Shared<Page> | null> {
  const { page: number, per_page } = params;
  const from = (number - 1) * per_page;
  const counted = read({ read: 'count' }).then(({ total }) => total);
  const [total, opening] = await Promise.all([counted, openWalk(read, shuffle, from === 0 ? per_page : 1, known, counted)]);
  if (from >= total) return share({ items: [], total });
  const { start } = opening;
  // Matches counted and none found where they must be: the catalogue has no keys.
  if (start === null) return null;
  const found =
    from === 0
      ? await pageOne(read, shuffle, { ...opening, start }, per_page, total)
      : await rankedPage(read, start, from, per_page, total, opening.index);
  return page(found.items, total, found.index, shuffle, start);
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
  const keyed = await byNumber(params, shuffle, read, recent.totals.get(key)!);
  if (keyed !== null) recent.totals.set(key, keyed.total);
  if (keyed === null || large(keyed.total)) return keyed ?? read({ read: 'scored' });
  return read({ read: 'scored' });
}
