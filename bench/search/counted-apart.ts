// npx tsx bench/search/counted-apart.ts [alias] [seed]   (issue 31, step 4: a search's total apart)
// Through the repository, on a catalogue behind `alias` (api-bench-10m by default): 16 distinct
// queries of the benchmark's mix, each browsed as a client does: page 1, then pages 2 and 3 by
// number and three pages by cursor from page 1. Once by a repository that counts apart and once
// by one that reads page and total at once, alternating which goes first, each with page lengths
// of its own so neither is answered from the other's request cache. Page 1 teaches a query's
// total, so what differs is the pages after it. Prints each query's matches and times, and sums.
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { Random } from '../../src/catalogue/generation/prng.js';
import type { SearchParams } from '../../src/wallpapers/params.js';
import { parseSearchQuery } from '../../src/wallpapers/search-query.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { Page, WallpaperRepository } from '../../src/wallpapers/store/repository.js';
import { searchQuery } from '../api/workloads.js';

const alias = process.argv[2] ?? 'api-bench-10m';
const es = createEsClient({ url: process.env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200', requestTimeoutMs: 120_000 });
const repositories: Record<'apart' | 'single', WallpaperRepository> = {
  apart: createEsRepository(es, alias),
  single: createEsRepository(es, alias, { countApartFrom: Number.POSITIVE_INFINITY }),
};
const searchOf = (q: string, perPage: number, more: Partial<SearchParams> = {}): SearchParams => ({
  page: 1,
  per_page: perPage,
  q,
  text: parseSearchQuery(q),
  ...more,
});
// The first search starts reading the catalogue's size, which decides whether totals are kept.
await repositories.apart.search(searchOf('warm', 5));
await new Promise((resolve) => setTimeout(resolve, 300));

async function timed(run: () => Promise<Page>): Promise<{ ms: number; page: Page }> {
  const started = performance.now();
  const page = await run();
  return { ms: performance.now() - started, page };
}

/** Page 1, then pages 2 and 3 by number, then three by cursor from page 1: ms of page 1 and of the rest. */
async function browse(repository: WallpaperRepository, q: string, perPage: number): Promise<{ first: number; later: number; total: number }> {
  const first = await timed(() => repository.search(searchOf(q, perPage)));
  let later = 0;
  for (const page of [2, 3]) later += (await timed(() => repository.search(searchOf(q, perPage, { page })))).ms;
  let last = first.page;
  for (let step = 1; step <= 3 && last.last; step++) {
    const position = { ...last.last, total: last.total, depth: perPage * step };
    const next = await timed(() => repository.search(searchOf(q, perPage, { position })));
    later += next.ms;
    last = next.page;
  }
  return { first: first.ms, later, total: first.page.total };
}

const random = new Random(Number(process.argv[3] ?? 5), 1);
const sums = { apart: { first: 0, later: 0 }, single: { first: 0, later: 0 } };
for (let i = 0; i < 16; i++) {
  const q = searchQuery(random);
  const perPage = 20 + ((i * 37) % 60);
  const cells: string[] = [];
  let total = 0;
  for (const way of i % 2 === 0 ? (['single', 'apart'] as const) : (['apart', 'single'] as const)) {
    const browsed = await browse(repositories[way], q, perPage + (way === 'apart' ? 0 : 1));
    sums[way].first += browsed.first;
    sums[way].later += browsed.later;
    total = browsed.total;
    cells.push(`${way} ${browsed.first.toFixed(0)} + ${browsed.later.toFixed(0)} ms`);
  }
  console.log(`${q.padEnd(20)} ${String(total).padStart(8)} matches, ${perPage} a page: ${cells.join(', ')}`);
}
const ratio = (way: 'first' | 'later') => (sums.apart[way] / sums.single[way]).toFixed(2);
console.log(
  `summed, page 1: apart ${sums.apart.first.toFixed(0)} ms, single ${sums.single.first.toFixed(0)} ms (${ratio('first')}x); ` +
    `the five pages after it: apart ${sums.apart.later.toFixed(0)} ms, single ${sums.single.later.toFixed(0)} ms (${ratio('later')}x)`,
);
await es.close();
