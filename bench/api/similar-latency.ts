// Latency of "more like this one" against a search, through the API (response cache off), one
// request at a time: each round alternates a search-mix query with a similar request for a random
// id, and prints both p50s and their ratio (issue 28: similar p50 at most twice a search's).
//   npx tsx bench/api/similar-latency.ts [--size 1m] [--samples 40] [--rounds 3]
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { Random } from '../../src/catalogue/generation/prng.js';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { ensureDataset } from './datasets.js';
import { parseSize } from './options.js';
import type { Running } from './processes.js';
import { startWalkerApi } from './walker-api.js';
import { searchQuery } from './workloads.js';

const say = (line: string) => process.stderr.write(`similar-latency: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { size: { type: 'string', default: '1m' }, samples: { type: 'string', default: '40' }, rounds: { type: 'string', default: '3' } },
});
const size = parseSize(values.size);
const samples = Number(values.samples);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const stops: Running[] = [];
  try {
    const alias = await ensureDataset(es, size, config.imageBaseUrl, say);
    const api = await startWalkerApi(ROOT, alias, 'similar-latency', stops);
    const key = api.apiKey;
    const random = new Random(7);
    const timed = async (path: string) => {
      const started = performance.now();
      const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    // Warm-up: the model's first words, the first reads of each kind.
    for (let i = 0; i < 20; i++) {
      await timed(`/v1/search?q=${encodeURIComponent(searchQuery(random))}&per_page=20`);
      await timed(`/v1/wallpapers/${1 + Math.floor(random.next() * size)}/similar`);
    }
    process.stdout.write('| round | search p50 ms | similar p50 ms | similar / search |\n|--:|--:|--:|--:|\n');
    for (let round = 1; round <= Number(values.rounds); round++) {
      const search: number[] = [];
      const similar: number[] = [];
      for (let i = 0; i < samples; i++) {
        search.push(await timed(`/v1/search?q=${encodeURIComponent(searchQuery(random))}&per_page=20`));
        similar.push(await timed(`/v1/wallpapers/${1 + Math.floor(random.next() * size)}/similar`));
      }
      const [s, m] = [median(search), median(similar)];
      process.stdout.write(`| ${round} | ${s.toFixed(1)} | ${m.toFixed(1)} | ${(m / s).toFixed(2)} |\n`);
    }
  } finally {
    for (const running of stops.reverse()) await running.stop();
    await es.close();
  }
}

await main();
