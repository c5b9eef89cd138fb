import { type Shared, variantsBy } from '../../infra/shared-result.js';
import type { ListParams } from '../params.js';
import type { Direction, WindowRead } from './build-queries.js';
import type { Page } from './repository.js';

/** One search of the page's query (a list's or a search's), as `read` says. */
export type WindowReader = (read: WindowRead) => Promise<Shared<Page>>;

/**
 * Where an order's leading field lies in a catalogue (the dates it spans, the downloads its
 * wallpapers have) and how many wallpapers it holds, as read a moment ago.
 */
export interface Extent {
  lowest: number;
  highest: number;
  count: number;
}

// From this many wallpapers a catalogue's pages in an order that the index is not sorted by read a
// window of its leading field. The index is sorted newest first, which makes sort=newest stop
// early and sort=oldest the worst case: every match is visited before the oldest are known, 1 s a
// page at 10,000,000 wallpapers against 2 ms at 10,000 (bench/results/flat-with-size). A range of
// dates is a stretch of that order, so a window costs what it holds. Downloads are in no order at
// all: Elasticsearch skips by their points, but page 400 still took 50-70 ms at 10M, against 8 ms
// within a range that holds it.
export const WINDOW_FROM_COUNT = 200_000;

/** How many a window is sized to hold when `wanted` are needed: about four standard deviations and 40 more. */
const roomFor = (wanted: number) => wanted + 4 * Math.sqrt(wanted) + 40;

/** How far a window from `start` should reach to hold `wanted` of `matches`, were they spread evenly over the extent. */
function evenSpan(wanted: number, matches: number, extent: Extent): number {
  return Math.ceil((roomFor(wanted) * Math.max(1, extent.highest - extent.lowest)) / Math.max(1, matches));
}

// After a window falls short, what the next may hold: spans are tried by their count alone (a
// count of a range is cheap: for dates one stretch of the index order, for downloads their points),
// growing at most 16 times a step, and halved back while one holds more than OVERSHOOT times the
// room a page needs, so a gap of decades between an outlier and the rest, or the long tail of
// downloads, neither ends in a read to the far end nor in a window that holds most of the
// catalogue. At most MAX_PROBES counts a page.
const MAX_GROWTH = 16;
const OVERSHOOT = 8;
const MAX_PROBES = 24;
// How far a learned scale may stray from an even spread either way.
const MAX_SCALE = 64;

// How many points a query's ladder keeps: the latest counted spans.
const LADDER_POINTS = 32;

/**
 * What a query's counts said of its matches from the extent's first end (the oldest date, the most
 * downloads): how many lie within each span counted. A page by number starts from its own depth on
 * this ladder rather than from an even spread, which neither a gap of decades before the rest nor
 * the long tail of downloads follows: the span is the first counted that holds the page's room,
 * or one between the two counts around it, in proportion.
 */
export class Ladder {
  private readonly counts = new Map<number, number>();

  add(span: number, count: number): void {
    this.counts.delete(span);
    this.counts.set(span, count);
    if (this.counts.size > LADDER_POINTS) this.counts.delete(this.counts.keys().next().value!);
  }

  /** The shortest span counted past `short` that held `wanted`: where a search for a span can stop growing. */
  spanAbove(short: number, wanted: number): number | undefined {
    let found: number | undefined;
    for (const [span, count] of this.counts) if (span > short && count >= wanted && (found === undefined || span < found)) found = span;
    return found;
  }

  /** A span that should hold `room` and not many more, when the counts say; undefined when none held as many. */
  spanFor(room: number): number | undefined {
    const points = [...this.counts].sort(([a], [b]) => a - b);
    const above = points.findIndex(([, count]) => count >= room);
    if (above === -1) return undefined;
    const [span, count] = points[above]!;
    if (count <= OVERSHOOT * room) return span;
    const [lowerSpan, lowerCount] = above > 0 ? points[above - 1]! : [0, 0];
    return Math.ceil(lowerSpan + ((room - lowerCount) / Math.max(1, count - lowerCount)) * (span - lowerSpan));
  }
}

/** How a page's windows are sized and what they teach: see readWindowedPage. */
export interface WindowSizing {
  extent: Extent;
  direction: Direction;
  /** How many wallpapers the query matches, as last seen; `known` false when it is the catalogue's count, a guess. */
  matches: number;
  known: boolean;
  /** The even span's multiplier for this query: read, and updated from what a bounded window held when `known`. */
  scale: { value: number };
  /** The page's total when the caller has it already (a walk deep enough to have counted before): no count is read. */
  total?: number;
  /** This query's counted spans from the first end (Ladder): read and added to by pages by number; none for a cursor page. */
  ladder?: Ladder;
  /** Whether the page's time is running short: then it stops counting spans and reads on to the far end, exact all the same. */
  hurried?: () => boolean;
}

/**
 * A page of sort=oldest or sort=downloads over a large catalogue: read within a window of the
 * order's leading field from the page's start (the cursor's position, or the extent's first end),
 * and counted apart, beside it. The window is the page when it holds everything up to the page's
 * end: the whole page for a cursor, every rank up to the page's last for a page number. A window
 * reaching past the extent's far end has no end.
 *
 * Neither dates nor downloads are spread evenly (the demo catalogue's first day holds a seventh of
 * an average day; downloads have a long tail), so a window is the even span times `scale.value`,
 * learned from this query's pages before: what the last bounded window held, by its count, says
 * how wide one should be. It moves there by the square root of the step, so that where values
 * crowd (a narrower window holds fewer than in proportion) it still holds its page. A window that
 * falls short is followed by one whose span its counts found (spanHolding).
 */
export async function readWindowedPage(params: ListParams, read: WindowReader, sizing: WindowSizing): Promise<Shared<Page>> {
  const { extent, direction, matches, known, scale, total, ladder, hurried = () => false } = sizing;
  const { position, page, per_page } = params;
  const up = direction === 'up';
  const wanted = position ? per_page : page * per_page;
  const start = position ? Number(position.after[0]) : up ? extent.lowest : extent.highest;
  // Spans counted from the first end go on the ladder; a cursor's start is its own.
  const climbing = position ? undefined : ladder;
  const reach = {
    toFar: up ? extent.highest - start : start - extent.lowest,
    endOf: (span: number) => (up ? start + span : start - span),
    counted: (span: number, count: number) => climbing?.add(span, count),
    above: (span: number, wanted: number) => climbing?.spanAbove(span, wanted),
    hurried,
  };
  const even = evenSpan(wanted, matches, extent);
  const counting = total === undefined ? read({ read: 'count' }) : Promise.resolve({ total });
  let span = climbing?.spanFor(roomFor(wanted)) ?? Math.ceil(even * scale.value);
  for (;;) {
    const bounded = span < reach.toFar;
    const [counted, window] = await Promise.all([counting, read({ read: 'window', end: bounded ? reach.endOf(span) : null })]);
    const held = position ? window.items.length : window.total;
    if (bounded) reach.counted(span, window.total);
    if (bounded && known && window.total > 0) {
      const step = roomFor(wanted) / window.total;
      const learned = (span * (step < 1 ? Math.sqrt(step) : step)) / even;
      scale.value = Math.min(MAX_SCALE, Math.max(1 / MAX_SCALE, learned));
    }
    // Everything the query matches lies in the window: a short page is the last.
    if (!bounded || held >= wanted || (!position && window.total >= counted.total)) return withTotal(window, counted.total);
    // A cursor's window also holds what shares its position's value and comes before it.
    const before = window.total - held;
    span = await spanHolding(read, reach, { short: span, held, wanted: wanted + before, all: counted.total + before });
  }
}

/**
 * A span from the start that holds at least `wanted` (counted), or every match (`all`), and not
 * many more than a page needs, longer than `short`, which held `held`. Spans grow until one holds
 * enough (or up to the shortest the ladder knows to hold it), never past the far end, then are
 * halved back towards the last that held too few while they hold more than OVERSHOOT times the
 * room: by their geometric mean while the two are far apart (a long tail), by their middle after.
 * When none short of the far end holds enough, or the page's time runs short, the span returned
 * reaches the far end, and the window has no end.
 */
async function spanHolding(
  read: WindowReader,
  reach: {
    toFar: number;
    endOf: (span: number) => number;
    counted: (span: number, count: number) => void;
    above: (span: number, wanted: number) => number | undefined;
    hurried: () => boolean;
  },
  { short, held, wanted, all }: { short: number; held: number; wanted: number; all: number },
): Promise<number> {
  const { toFar, endOf, counted, above, hurried } = reach;
  const limit = toFar - 1;
  const enough = (count: number) => count >= Math.min(wanted, all);
  const holds = async (span: number) => {
    const { total } = await read({ read: 'held', end: endOf(span) });
    counted(span, total);
    return total;
  };
  let below = short;
  const grown = Math.ceil(short * Math.min(MAX_GROWTH, roomFor(wanted) / Math.max(1, held)));
  let long = Math.min(limit, above(short, wanted) ?? grown);
  let count: number;
  let probes = 0;
  for (; ; probes++) {
    if (long <= below || probes >= MAX_PROBES || hurried()) return toFar;
    count = await holds(long);
    if (enough(count)) break;
    if (long >= limit) return toFar;
    below = long;
    long = Math.min(limit, Math.ceil(long * MAX_GROWTH));
  }
  for (; count > OVERSHOOT * roomFor(wanted) && long - below > 1 && probes < MAX_PROBES && !hurried(); probes++) {
    const middle = below > 0 && long > 4 * below ? Math.floor(Math.sqrt(below * long)) : Math.floor((below + long) / 2);
    const inMiddle = await holds(middle);
    if (enough(inMiddle)) [long, count] = [middle, inMiddle];
    else below = middle;
  }
  return long;
}

// Requests coalesced into the same reads get the same page with its total, so its envelope and
// bytes are built once for all of them.
const withTotal = variantsBy<Page, 'total'>('total');
