import type { Client } from '@elastic/elasticsearch';
import { Random } from '../../src/catalogue/generation/prng.js';
import { LIST_SORT } from '../../src/wallpapers/store/build-queries.js';
import { createCursorCodec, queryDigest } from '../../src/wallpapers/edge/cursor.js';
import type { Position } from '../../src/wallpapers/params.js';
import type { Workload } from './workloads.js';

/** Every API the bench starts signs cursors with this, so the bench can make cursors of its own. */
export const BENCH_CURSOR_SECRET = 'bench-cursor-secret-not-for-production-use';
export const CURSOR_PER_PAGE = 100;
// Page numbers reach 10,000 results; a walk of 1M at 100 a page has 10,000 pages.
const MAX_PAGE = 10_000;

/** The index behind an alias: a cursor names it. */
export async function concreteIndex(es: Client, alias: string): Promise<string> {
  const [index] = Object.keys(await es.indices.getAlias({ name: alias }));
  if (!index) throw new Error(`alias ${alias} points at no index`);
  return index;
}

/**
 * Where each asked page of a newest-first walk at `perPage` begins: the sort values of the last
 * wallpaper of the page before, read by walking the index itself with search_after.
 */
export async function pageStarts(es: Client, alias: string, perPage: number, pages: readonly number[]): Promise<Map<number, Position>> {
  const index = await concreteIndex(es, alias);
  const { count: total } = await es.count({ index });
  const wanted = new Map(pages.filter((p) => p > 1).map((p) => [(p - 1) * perPage - 1, p]));
  const last = Math.max(-1, ...wanted.keys());
  const starts = new Map<number, Position>();
  let after: (string | number)[] | undefined;
  for (let rank = 0; rank <= last;) {
    const response = await es.search({
      index,
      size: 10_000,
      _source: false,
      track_total_hits: false,
      sort: LIST_SORT,
      ...(after ? { search_after: after } : {}),
      filter_path: ['hits.hits.sort'],
    });
    const hits = response.hits?.hits ?? [];
    if (hits.length === 0) break;
    for (const hit of hits) {
      const page = wanted.get(rank);
      if (page !== undefined) starts.set(page, { index, after: hit.sort as (string | number)[], total });
      rank++;
    }
    after = hits.at(-1)!.sort as (string | number)[];
  }
  return starts;
}

/** The cursor the API would have issued for `page` of a newest-first walk at `perPage`. */
export function benchCursor(position: Position, page: number, perPage = CURSOR_PER_PAGE): string {
  const query = queryDigest('list', { per_page: perPage, sort: 'newest' });
  return createCursorCodec(BENCH_CURSOR_SECRET).encode({ position, page, query });
}

/** A mirror deep in its walk: `count` pages at random depths of a newest-first walk at 100 a page. */
export async function cursorWorkload(es: Client, alias: string, docs: number, seed: number, count: number): Promise<Workload> {
  const random = new Random(seed, docs + 13);
  const maxPage = Math.min(MAX_PAGE, Math.floor(docs / CURSOR_PER_PAGE));
  const pages = [...new Set(Array.from({ length: count }, () => 2 + Math.floor(random.next() * (maxPage - 1))))];
  const starts = await pageStarts(es, alias, CURSOR_PER_PAGE, pages);
  return pages.map((page) => {
    const position = starts.get(page)!;
    return {
      kind: 'list' as const,
      params: { page: 1, per_page: CURSOR_PER_PAGE, sort: 'newest' as const, position },
      cursor: benchCursor(position, page),
    };
  });
}
