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

// How many bounded windows a page tries, and how much wider each may be than the one before: as
// much as the one before fell short, at most 16 times.
const MAX_WINDOWS = 4;
const MAX_GROWTH = 16;

/**
 * A page of sort=oldest over a large catalogue: read within a window of dates from the page's
 * start (the cursor's position, or the oldest date), and counted apart, beside it. The window is
 * the page when it holds everything up to the page's end: the whole page for a cursor, every rank
 * up to the page's last for a page number. A window reaching past the newest date has no end.
 *
 * Dates are not spread evenly (the demo catalogue's first day holds a seventh of an average day),
 * so a window is the even span times `scale.value`, learned from the pages before: what the last
 * window held, by its count, says how wide one should be. It moves there by the square root of the
 * step, so that where dates crowd (a narrower window holds fewer than in proportion) it still holds
 * its page. A window that falls short is followed by one as much wider as it fell short; after
 * MAX_WINDOWS, the window has no end.
 */
export async function readWindowedPage(
  params: ListParams,
  read: WindowReader,
  { extent, matches, scale }: { extent: Extent; matches: number; scale: { value: number } },
): Promise<Shared<Page>> {
  const { position, page, per_page } = params;
  const wanted = position ? per_page : page * per_page;
  const start = position ? Number(position.after[0]) : extent.oldest;
  const even = evenSpan(wanted, matches, extent);
  const counting = read({ read: 'count' });
  let span = Math.ceil(even * scale.value);
  for (let tries = 0; ; tries++) {
    const bounded = tries < MAX_WINDOWS && start + span < extent.newest;
    const [counted, window] = await Promise.all([counting, read({ read: 'window', end: bounded ? start + span : null })]);
    const held = position ? window.items.length : window.total;
    if (window.total > 0) {
      const spanned = Math.min(span, Math.max(1, extent.newest - start));
      const step = roomFor(wanted) / window.total;
      scale.value = (spanned * (step < 1 ? Math.sqrt(step) : step)) / even;
    }
    // Everything the query matches lies in the window: a short page is the last.
    if (!bounded || held >= wanted || (!position && window.total >= counted.total)) return withTotal(window, counted.total);
    span = Math.ceil(span * Math.min(MAX_GROWTH, roomFor(wanted) / Math.max(1, held)));
  }
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
