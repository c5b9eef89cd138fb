import { type Shared, share } from '../../infra/shared-result.js';
import type { ListParams, Position } from '../params.js';
import type { ShuffledRead } from './build-queries.js';
import type { Page } from './repository.js';
import { BOTTOM_KEY, NO_KEY, type Shuffle, TOP_KEY, shuffleKey, shuffleOf } from './shuffle.js';

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

// Below this many matches, page 1 reads the first lap sorted whole and counts the matches in the
// same read (3 ms in Elasticsearch at 1,000,000, measured): one read costs the API less than the two
// of a count and a span.
const SPAN_FROM_TOTAL = 1_000_000;

/**
 * How many matches queries had lately, by a key of the query: a hint of which way to read page 1,
 * never a total served (every page 1 counts its own). Oldest out first past `max`.
 */
export class RecentTotals {
  private readonly totals = new Map<string, number>();
  /** `spanFrom`: how many matches make a query large (SPAN_FROM_TOTAL; tests lower it). */
  constructor(
    readonly spanFrom = SPAN_FROM_TOTAL,
    private readonly max = 2_000,
  ) {}
  get(key: string): number | undefined {
    return this.totals.get(key);
  }
  set(key: string, total: number): void {
    this.totals.delete(key);
    this.totals.set(key, total);
    if (this.totals.size > this.max) this.totals.delete(this.totals.keys().next().value!);
  }
}

/** Where page 1 learns which way to read: the totals seen lately, and the key of this page's query among them. */
export interface Recent {
  totals: RecentTotals;
  key: () => string;
}

/**
 * Page 1's first read: the matches counted, and with the count, on a catalogue small enough, the
 * first lap's wallpapers; null when they come from a catalogue without keys (each sorts as NO_KEY).
 */
async function firstOfWalk(
  params: ListParams,
  shuffle: Shuffle,
  read: ShuffledReader,
  recent: Recent,
): Promise<{ total: number; found?: Found } | null> {
  const key = recent.key();
  const seen = recent.totals.get(key);
  if (seen !== undefined && seen >= recent.totals.spanFrom) {
    // The span is sized by the total seen last time, beside the count of this time: one round trip.
    // A span that fell short reads on to the top (readAfter), so a stale total costs a read, never a wallpaper.
    const lap = { after: null, lowest: shuffle.offset, highest: TOP_KEY, size: params.per_page };
    const [{ total }, found] = await Promise.all([read({ read: 'count' }), readAfter(read, lap, seen, undefined)]);
    recent.totals.set(key, total);
    return { total, found };
  }
  const first = await read({
    read: 'after',
    after: [shuffle.offset, 0],
    lowest: shuffle.offset,
    highest: TOP_KEY,
    size: params.per_page,
    counts: true,
  });
  recent.totals.set(key, first.total);
  if (first.last?.after[0] === NO_KEY) return null;
  return { total: first.total, found: { items: first.items, index: first.last?.index } };
}

/**
 * Page 1, or the page after a cursor's position: the walk from the offset to the top of the key
 * (the first lap), then from the bottom up to the offset (the second). On a large catalogue page 1
 * counts apart (Elasticsearch answers a count from index statistics or its request cache when it
 * can), so its reads, like a cursor's, span only the keys that hold the page.
 */
async function afterPosition(params: ListParams, shuffle: Shuffle, read: ShuffledReader, recent: Recent): Promise<Shared<Page> | null> {
  const { position, per_page } = params;
  const start = position ? { total: position.total } : await firstOfWalk(params, shuffle, read, recent);
  if (start === null) return null;
  const { total } = start;
  if (total === 0) return share({ items: [], total });
  const at = position ? Number(position.after[0]) : shuffle.offset;
  const onFirstLap = at >= shuffle.offset;
  let found: Found = ('found' in start && start.found) || { items: [], index: position?.index };
  if (onFirstLap && !('found' in start)) {
    found = await readAfter(read, { after: position?.after ?? null, lowest: at, highest: TOP_KEY, size: per_page }, total, found.index);
  }
  const served = (position?.depth ?? 0) + found.items.length;
  if (found.items.length < per_page && (total === undefined || served < total)) {
    const lap = onFirstLap ? { after: null, lowest: BOTTOM_KEY } : { after: position!.after, lowest: at };
    const rest = await readAfter(read, { ...lap, highest: shuffle.offset - 1, size: per_page - found.items.length }, total, found.index);
    found = { items: [...found.items, ...rest.items], index: rest.index ?? found.index };
  }
  // Matches counted and none found on any lap: the catalogue has no keys.
  if (!position && found.items.length === 0) return null;
  return page(found.items, total ?? 0, found.index, shuffle);
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
 * A page of sort=random: the seed's walk along one key (shuffle.ts). A walk a cursor began by
 * score goes on by score, and so does any page of a catalogue loaded before the keys.
 */
export async function readShuffledPage(params: ListParams, read: ShuffledReader, recent: Recent): Promise<Shared<Page>> {
  if (params.position && !params.position.shuffled) return read({ read: 'scored' });
  const shuffle = shuffleOf(params.seed ?? '');
  const numbered = params.position === undefined && params.page > 1;
  const keyed = numbered ? await byNumber(params, shuffle, read) : await afterPosition(params, shuffle, read, recent);
  return keyed ?? read({ read: 'scored' });
}
