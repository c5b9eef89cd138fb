// Walks a whole catalogue through the API by cursor, following the Link headers from page 1 to the
// last, and checks that every wallpaper came exactly once. Prints pages, wallpapers and timings.
//   npx tsx bench/api/full-walk.ts [--size 1m] [--per-page 100] [--sort newest]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { ensureDataset } from './datasets.js';
import { parseSize } from './options.js';
import type { Running } from './processes.js';
import { startWalkerApi } from './walker-api.js';

const say = (line: string) => process.stderr.write(`full-walk: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { size: { type: 'string', default: '1m' }, 'per-page': { type: 'string', default: '100' }, sort: { type: 'string', default: 'newest' } },
});
const size = parseSize(values.size);

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const stops: Running[] = [];
  try {
    const alias = await ensureDataset(es, size, config.imageBaseUrl, say);
    const api = await startWalkerApi(ROOT, alias, 'full-walk', stops);
    const { apiKey } = api;
    const seen = new Uint8Array(size + 1);
    let duplicates = 0;
    let count = 0;
    let pages = 0;
    let path: string | null = `/v1/wallpapers?per_page=${values['per-page']}&sort=${values.sort}`;
    const started = performance.now();
    const slowest: number[] = [];
    while (path !== null) {
      const at = performance.now();
      const res: Response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      if (res.status !== 200) throw new Error(`page ${pages + 1}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { data: { id: number }[]; meta: { total_items: number } };
      slowest.push(performance.now() - at);
      for (const { id } of body.data) {
        if (seen[id]) duplicates++;
        seen[id] = 1;
        count++;
      }
      pages++;
      if (pages % 1000 === 0) say(`${pages} pages, ${count} wallpapers`);
      const link: string | null = res.headers.get('link');
      path = link === null ? null : /^<([^>]+)>/.exec(link)![1]!;
    }
    const seconds = (performance.now() - started) / 1000;
    const missing = seen.subarray(1).reduce((n, v) => n + (v ? 0 : 1), 0);
    slowest.sort((a, b) => a - b);
    const q = (p: number) => slowest[Math.floor(p * (slowest.length - 1))]!.toFixed(1);
    process.stdout.write(
      `Walked ${size} wallpapers (sort=${values.sort}, per_page=${values['per-page']}) by cursor through the API: ${pages} pages, ` +
        `${count} wallpapers, ${duplicates} repeated, ${missing} missing, in ${seconds.toFixed(0)} s; ` +
        `page latency p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms (one client, sequential).\n`,
    );
    if (duplicates > 0 || missing > 0 || count !== size) process.exitCode = 1;
  } finally {
    for (const running of stops.reverse()) await running.stop();
    await es.close();
  }
}

await main();
