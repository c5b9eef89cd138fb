// npx tsx bench/search/search-read-costs.ts [alias]   (issue 31, step 4: where a search's time goes)
// Elasticsearch alone, on a catalogue behind `alias` (api-bench-10m by default): the API's own
// search bodies for 16 of the benchmark's queries, page 1 of 20, each read six ways: as the API
// read it before counting apart (the documented order with the exact total), that order without
// the total, by score alone with and without the total, by score alone counted to 10,000, and the
// total alone. `took` medians of five, request cache off, summed over the queries.
import { buildSearchRequest } from '../api/direct-requests.js';
import { searchQuery } from '../api/workloads.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { Random } from '../../src/catalogue/generation/prng.js';

const alias = process.argv[2] ?? 'api-bench-10m';
const es = createEsClient({ url: process.env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200', requestTimeoutMs: 120_000 });
const random = new Random(7, 1);
const queries = Array.from({ length: 16 }, () => searchQuery(random));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sums = new Map<string, number>();

for (const q of queries) {
  const { index, filter_path: _filter, ...body } = buildSearchRequest(alias, { q, page: 1, per_page: 20 }) as Record<string, unknown>;
  const ways: Record<string, Record<string, unknown>> = {
    'documented order, exact total': body,
    'documented order, no total': { ...body, track_total_hits: false },
    'score alone, exact total': { ...body, sort: ['_score'] },
    'score alone, no total': { ...body, sort: ['_score'], track_total_hits: false },
    'score alone, total to 10,000': { ...body, sort: ['_score'], track_total_hits: 10_000 },
    'total alone': { query: body['query'], size: 0, track_total_hits: true },
  };
  const cells: string[] = [];
  for (const [way, read] of Object.entries(ways)) {
    const took: number[] = [];
    for (let i = 0; i < 5; i++) took.push((await es.search({ index: index as string, ...read, request_cache: false })).took);
    sums.set(way, (sums.get(way) ?? 0) + median(took));
    cells.push(`${median(took)}`);
  }
  console.log(`${q.padEnd(20)} ${cells.join(' ')}`);
}
console.log('| read | summed (ms) |\n|---|--:|');
for (const [way, sum] of sums) console.log(`| ${way} | ${sum} |`);
await es.close();
