// Latency of a cursor walk against its depth: page 1 of a newest-first walk of the 1M catalogue at
// 100 a page, then pages reached by cursor down to 10,000, through the API (uncached) and as the
// direct Elasticsearch query, one request at a time with Elasticsearch's request cache emptied
// before each, so every sample is the query's full cost. Prints a markdown table.
//   npx tsx bench/api/cursor-depth.ts [--size 1m] [--samples 40]
import { parseArgs } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { buildListRequest } from '../../src/wallpapers/store/build-queries.js';
import { CURSOR_PER_PAGE, benchCursor, pageStarts } from './cursor-workload.js';
import { ensureDataset } from './datasets.js';
import { parseSize } from './options.js';
import { type Running, createBenchKeys, startApi, startRedis } from './processes.js';

const say = (line: string) => process.stderr.write(`cursor-depth: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { size: { type: 'string', default: '1m' }, samples: { type: 'string', default: '40' } } });
const size = parseSize(values.size);
const samples = Number(values.samples);
const DEPTHS = [1, 10, 100, 300, 600, 1_000, 3_000, 10_000].filter((page) => page * CURSOR_PER_PAGE <= size);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const stops: Running[] = [];
  try {
    const alias = await ensureDataset(es, size, config.imageBaseUrl, say);
    say('placing cursors');
    const starts = await pageStarts(es, alias, CURSOR_PER_PAGE, DEPTHS);
    const redis = await startRedis();
    stops.push(redis);
    const [key] = await createBenchKeys(redis.url, join(mkdtempSync(join(tmpdir(), 'cursor-depth-')), 'keys.txt'), 1);
    const api = await startApi({ cwd: ROOT, alias, redisUrl: redis.url, key: key!, env: { RESPONSE_CACHE_MB: '0' } });
    stops.push(api);

    const apiPath = (page: number) => {
      const position = starts.get(page);
      return position
        ? `/v1/wallpapers?per_page=${CURSOR_PER_PAGE}&cursor=${benchCursor(position, page)}`
        : `/v1/wallpapers?per_page=${CURSOR_PER_PAGE}`;
    };
    const direct = (page: number) => buildListRequest(alias, { page: 1, per_page: CURSOR_PER_PAGE, sort: 'newest', position: starts.get(page) });
    const timed = async (call: () => Promise<void>) => {
      await es.indices.clearCache({ index: alias, request: true, query: true });
      const started = performance.now();
      await call();
      return performance.now() - started;
    };
    const rows: { page: number; api: number[]; es: number[] }[] = [];
    for (const page of DEPTHS) {
      const row = { page, api: [] as number[], es: [] as number[] };
      for (let i = 0; i < samples + 3; i++) {
        const apiMs = await timed(async () => {
          const res = await fetch(`${api.url}${apiPath(page)}`, { headers: { authorization: `Bearer ${key!}` } });
          if (res.status !== 200) throw new Error(`page ${page}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
        });
        const esMs = await timed(async () => {
          await es.search(direct(page));
        });
        // The first few of each depth warm the connection and the JIT.
        if (i >= 3) {
          row.api.push(apiMs);
          row.es.push(esMs);
        }
      }
      rows.push(row);
      say(`page ${page}: api p50 ${quantile(row.api, 0.5).toFixed(1)} ms, es p50 ${quantile(row.es, 0.5).toFixed(1)} ms`);
    }
    const first = rows[0]!;
    const lines = [
      `Cursor walk of ${size} wallpapers at ${CURSOR_PER_PAGE} a page, newest first; ${samples} samples per depth, request cache emptied before each.`,
      '',
      '| page | API p50 / p90 ms | API p50 / page 1 | ES p50 / p90 ms | ES p50 / page 1 |',
      '|--:|--:|--:|--:|--:|',
      ...rows.map(
        (r) =>
          `| ${r.page.toLocaleString('en')} | ${quantile(r.api, 0.5).toFixed(1)} / ${quantile(r.api, 0.9).toFixed(1)} | ${(quantile(r.api, 0.5) / quantile(first.api, 0.5)).toFixed(2)} | ` +
          `${quantile(r.es, 0.5).toFixed(1)} / ${quantile(r.es, 0.9).toFixed(1)} | ${(quantile(r.es, 0.5) / quantile(first.es, 0.5)).toFixed(2)} |`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const running of stops.reverse()) await running.stop();
    await es.close();
  }
}

await main();
