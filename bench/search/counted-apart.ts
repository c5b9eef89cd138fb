// npx tsx bench/search/counted-apart.ts [alias] [seed]   (issue 31, step 4: a search's total apart)
// Through the repository, on a catalogue behind `alias` (api-bench-10m by default): 30 distinct
// queries of the benchmark's mix, 10-99 a page, each read by a repository that counts apart and
// by one that reads page and total at once, alternating which goes first. Each asks a page length
// of its own, so neither is answered from the other's request cache. Prints each query's matches
// and times, and the sums.
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { Random } from '../../src/catalogue/generation/prng.js';
import type { SearchParams } from '../../src/wallpapers/params.js';
import { parseSearchQuery } from '../../src/wallpapers/search-query.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import { searchQuery } from '../api/workloads.js';

const alias = process.argv[2] ?? 'api-bench-10m';
const es = createEsClient({ url: process.env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200', requestTimeoutMs: 120_000 });
const repositories = {
  apart: createEsRepository(es, alias),
  single: createEsRepository(es, alias, { countApartFrom: Number.POSITIVE_INFINITY, windowFromCount: Number.POSITIVE_INFINITY }),
};
const searchOf = (q: string, perPage: number): SearchParams => ({ page: 1, per_page: perPage, q, text: parseSearchQuery(q) });
// The first search starts reading the catalogue's size, which a query not seen before is judged by.
await repositories.apart.search(searchOf('warm', 5));
await new Promise((resolve) => setTimeout(resolve, 300));

const random = new Random(Number(process.argv[3] ?? 5), 1);
const sums = { apart: 0, single: 0 };
for (let i = 0; i < 30; i++) {
  const q = searchQuery(random);
  const perPage = 10 + ((i * 37) % 90);
  const ms = { apart: 0, single: 0 };
  let total = 0;
  for (const way of i % 2 === 0 ? (['single', 'apart'] as const) : (['apart', 'single'] as const)) {
    const started = performance.now();
    const page = await repositories[way].search(searchOf(q, perPage + (way === 'apart' ? 0 : 1)));
    ms[way] = performance.now() - started;
    sums[way] += ms[way];
    total = page.total;
  }
  console.log(
    `${q.padEnd(20)} ${String(total).padStart(8)} matches, ${perPage} a page: apart ${ms.apart.toFixed(1)} ms, single ${ms.single.toFixed(1)} ms`,
  );
}
console.log(`summed: apart ${sums.apart.toFixed(0)} ms, single ${sums.single.toFixed(0)} ms (${(sums.apart / sums.single).toFixed(2)}x)`);
await es.close();
