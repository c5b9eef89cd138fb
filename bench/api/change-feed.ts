// The change feed at scale, side by side in one run on one catalogue: a full walk of
// GET /v1/changes (every wallpaper once: a snapshot), then reads at its tail against the first page
// of the list, one client, sequential, response cache off. Checks that the walk saw every
// wallpaper exactly once.
//   npx tsx bench/api/change-feed.ts [--size 1m] [--per-page 100] [--reads 300]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { ensureDataset } from './datasets.js';
import { parseSize } from './options.js';
import type { Running } from './processes.js';
import { startWalkerApi } from './walker-api.js';

const say = (line: string) => process.stderr.write(`change-feed: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { size: { type: 'string', default: '1m' }, 'per-page': { type: 'string', default: '100' }, reads: { type: 'string', default: '300' } },
});
const size = parseSize(values.size);
const perPage = Number(values['per-page']);
const reads = Number(values.reads);

const quantile = (sorted: number[], p: number) => sorted[Math.floor(p * (sorted.length - 1))]!;

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 600_000 });
  const stops: Running[] = [];
  try {
    const seeding = performance.now();
    const alias = await ensureDataset(es, size, config.imageBaseUrl, say);
    say(`dataset ready in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
    const api = await startWalkerApi(ROOT, alias, 'change-feed', stops);
    const { apiKey } = api;
    const get = async (path: string) => {
      const at = performance.now();
      const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { data: { id: number }[]; meta: { next_cursor: string; has_more: boolean } };
      return { body, ms: performance.now() - at };
    };

    const seen = new Uint8Array(size + 1);
    let repeated = 0;
    let count = 0;
    let pages = 0;
    let cursor = '';
    const pageMs: number[] = [];
    const started = performance.now();
    for (;;) {
      const { body, ms } = await get(`/v1/changes?per_page=${perPage}${cursor ? `&cursor=${cursor}` : ''}`);
      pageMs.push(ms);
      for (const { id } of body.data) {
        if (seen[id]) repeated++;
        seen[id] = 1;
        count++;
      }
      pages++;
      cursor = body.meta.next_cursor;
      if (pages % 1000 === 0) say(`${pages} pages, ${count} changes`);
      if (!body.meta.has_more) break;
    }
    const walkSeconds = (performance.now() - started) / 1000;
    const missing = seen.subarray(1).reduce((n, v) => n + (v ? 0 : 1), 0);
    pageMs.sort((a, b) => a - b);

    // Tail reads and list pages interleaved, so both meet the same machine.
    const tail: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < reads; i++) {
      tail.push((await get(`/v1/changes?per_page=${perPage}&cursor=${cursor}`)).ms);
      list.push((await get(`/v1/wallpapers?per_page=${perPage}&page=${1 + (i % 5)}`)).ms);
    }
    tail.sort((a, b) => a - b);
    list.sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    process.stdout.write(
      [
        `# The change feed at ${size.toLocaleString('en')} wallpapers`,
        ``,
        `${new Date().toISOString()}, one client, sequential, response cache off, per_page=${perPage}.`,
        ``,
        `| what | figure |`,
        `|---|--:|`,
        `| full walk from the start | ${pages} pages, ${count} changes, ${repeated} repeated, ${missing} missing, ${walkSeconds.toFixed(0)} s (${Math.round(count / walkSeconds).toLocaleString('en')} changes/s) |`,
        `| a walk's page, p50 / p99 | ${f(quantile(pageMs, 0.5))} / ${f(quantile(pageMs, 0.99))} ms |`,
        `| a read at the tail (nothing new), p50 / p99 | ${f(quantile(tail, 0.5))} / ${f(quantile(tail, 0.99))} ms |`,
        `| a list page (pages 1-5, newest), p50 / p99 | ${f(quantile(list, 0.5))} / ${f(quantile(list, 0.99))} ms |`,
        `| tail read p50 / list page p50 | ${(quantile(tail, 0.5) / quantile(list, 0.5)).toFixed(2)} |`,
        ``,
      ].join('\n'),
    );
    if (repeated > 0 || missing > 0 || count !== size) process.exitCode = 1;
  } finally {
    for (const running of stops.reverse()) await running.stop();
    await es.close();
  }
}

await main();
