import { type Shared, derivedOnce, share } from '../../infra/shared-result.js';
import type { ListParams } from '../params.js';
import type { WindowRead } from './build-queries.js';
import type { Page } from './repository.js';

/** One search of the page's query (a list's or a search's), as `read` says. */
export type WindowReader = (read: WindowRead) => Promise<Shared<Page>>;

/** The dates a catalogue spans and how many wallpapers it holds, as read a moment ago. */
export interface Extent {
  oldest: number;
  newest: number;
  count: number;
}

// From this many wallpapers a catalogue's sort=oldest pages read a window of dates. The index is
// sorted newest first, which makes sort=newest stop early and sort=oldest the worst case: every
// match is visited before the oldest are known, 1 s a page at 10,000,000 wallpapers against 2 ms at
// 10,000 (bench/results/flat-with-size). A range of dates is a stretch of that order, so a window
// costs what it holds.
export const WINDOW_FROM_COUNT = 200_000;

/** How many a window is sized to hold when `wanted` are needed: about four standard deviations and 40 more. */
const roomFor = (wanted: number) => wanted + 4 * Math.sqrt(wanted) + 40;

/** The dates a window from `start` should span to hold `wanted` of `matches`, were they spread evenly over the catalogue's. */
export function evenSpan(wanted: number, matches: number, extent: Extent): number {
  return Math.ceil((roomFor(wanted) * Math.max(1, extent.newest - extent.oldest)) / Math.max(1, matches));
}

// After a window falls short, what the next may hold: spans are tried by their count alone (a
// count of a date range is cheap: one stretch of the index order), growing at most 16 times a
// step, and halved back while one holds more than OVERSHOOT times the room a page needs, so a gap
// of decades between an outlier and the rest neither ends in a read to the newest date nor in a
// window that holds most of the catalogue. At most MAX_PROBES counts a page.
const MAX_GROWTH = 16;
const OVERSHOOT = 8;
const MAX_PROBES = 24;
// How far a learned scale may stray from an even spread of dates either way.
const MAX_SCALE = 64;

/** How a page's windows are sized and what they teach: see readWindowedPage. */
export interface WindowSizing {
  extent: Extent;
  /** How many wallpapers the query matches, as last seen; `known` false when it is the catalogue's count, a guess. */
  matches: number;
  known: boolean;
  /** The even span's multiplier for this query: read, and updated from what a bounded window held when `known`. */
  scale: { value: number };
  /** The page's total when the caller has it already (a walk deep enough to have counted before): no count is read. */
  total?: number;
}

/**
 * A page of sort=oldest over a large catalogue: read within a window of dates from the page's
 * start (the cursor's position, or the oldest date), and counted apart, beside it. The window is
 * the page when it holds everything up to the page's end: the whole page for a cursor, every rank
 * up to the page's last for a page number. A window reaching past the newest date has no end.
 *
 * Dates are not spread evenly (the demo catalogue's first day holds a seventh of an average day),
 * so a window is the even span times `scale.value`, learned from this query's pages before: what
 * the last bounded window held, by its count, says how wide one should be. It moves there by the
 * square root of the step, so that where dates crowd (a narrower window holds fewer than in
 * proportion) it still holds its page. A window that falls short is followed by one whose span
 * its counts found (spanHolding).
 */
export async function readWindowedPage(params: ListParams, read: WindowReader, sizing: WindowSizing): Promise<Shared<Page>> {
  const { extent, matches, known, scale, total } = sizing;
  const { position, page, per_page } = params;
  const wanted = position ? per_page : page * per_page;
  const start = position ? Number(position.after[0]) : extent.oldest;
  const even = evenSpan(wanted, matches, extent);
  const counting = total === undefined ? read({ read: 'count' }) : Promise.resolve({ total });
  let span = Math.ceil(even * scale.value);
  for (;;) {
    const bounded = start + span < extent.newest;
    const [counted, window] = await Promise.all([counting, read({ read: 'window', end: bounded ? start + span : null })]);
    const held = position ? window.items.length : window.total;
    if (bounded && known && window.total > 0) {
      const step = roomFor(wanted) / window.total;
      const learned = (span * (step < 1 ? Math.sqrt(step) : step)) / even;
      scale.value = Math.min(MAX_SCALE, Math.max(1 / MAX_SCALE, learned));
    }
    // Everything the query matches lies in the window: a short page is the last.
    if (!bounded || held >= wanted || (!position && window.total >= counted.total)) return withTotal(window, counted.total);
    // A cursor's window also holds what shares its position's date and comes before it.
    const before = window.total - held;
    span = await spanHolding(read, { start, short: span, held, wanted: wanted + before, all: counted.total + before, newest: extent.newest });
  }
}

/**
 * A span from `start` that holds at least `wanted` (counted), or every match (`all`), and not many
 * more than a page needs, longer than `short`, which held `held`. Spans grow until one holds enough,
 * never past the newest date, then are halved back towards the last that held too few while they
 * hold more than OVERSHOOT times the room. When none short of the newest holds enough, the span
 * returned reaches it, and the window has no end.
 */
async function spanHolding(
  read: WindowReader,
  { start, short, held, wanted, all, newest }: { start: number; short: number; held: number; wanted: number; all: number; newest: number },
): Promise<number> {
  const toNewest = newest - start;
  const limit = toNewest - 1;
  const enough = (count: number) => count >= Math.min(wanted, all);
  const holds = async (span: number) => (await read({ read: 'held', end: start + span })).total;
  let below = short;
  let long = Math.min(limit, Math.ceil(short * Math.min(MAX_GROWTH, roomFor(wanted) / Math.max(1, held))));
  let count: number;
  let probes = 0;
  for (; ; probes++) {
    if (long <= below || probes >= MAX_PROBES) return toNewest;
    count = await holds(long);
    if (enough(count)) break;
    if (long >= limit) return toNewest;
    below = long;
    long = Math.min(limit, Math.ceil(long * MAX_GROWTH));
  }
  for (; count > OVERSHOOT * roomFor(wanted) && long - below > 1 && probes < MAX_PROBES; probes++) {
    const middle = Math.floor((below + long) / 2);
    const inMiddle = await holds(middle);
    if (enough(inMiddle)) [long, count] = [middle, inMiddle];
    else below = middle;
  }
  return long;
}

// Requests coalesced into the same reads get the same page with its total, so its envelope and
// bytes are built once for all of them.
const totalled = derivedOnce<Map<number, Shared<Page>>>();
function withTotal(found: Shared<Page>, total: number): Shared<Page> {
  if (found.total === total) return found;
  const byTotal = totalled(found, () => new Map());
  let page = byTotal.get(total);
  if (page === undefined) byTotal.set(total, (page = share({ ...found, total })));
  return page;
}
