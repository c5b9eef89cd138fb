// npx tsx bench/api/flat-with-size.ts [--sizes 10k,10m] [--runs 35] [--compare REF] [--keep-datasets] [--cold] [--kinds search,suggest] [--samples FILE]
//
// Issue 31, step 4: what each kind of request costs as the catalogue grows. For each size, the
// generated catalogue behind `api-bench-<size>` (seeded when missing: 10M takes minutes and about
// 3 GB), an API process on it with the response cache off, and one connection sending each kind in
// turn, every request distinct (another page length, seed, word or id) so no cache answers it
// whole (Elasticsearch's request cache is emptied first). With --compare, the build at REF answers beside this one, on the same catalogue, request
// for request. Prints p50 and p90 per kind and size, and the largest size's p50 over the smallest's.
// Each catalogue's files are read into the page cache first, as a server's would be after a while
// (page-cache.ts), unless --cold: a 10k catalogue is in memory after its first requests, a 10M one
// (4 GB) is not, and the ratio would measure the disk.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { Random } from '../../src/catalogue/generation/prng.js';
import { CATEGORIES } from '../../src/wallpapers/categories.js';
import { buildCompareTree } from './compare-tree.js';
import { datasetAlias, dropDataset, ensureDataset } from './datasets.js';
import { parseSize, sizeLabel } from './options.js';
import { warmIndexFiles } from './page-cache.js';
import { type Running, createBenchKeys, startApi, startRedis } from './processes.js';
import { searchQuery, suggestPrefix } from './workloads.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    runs: { type: 'string' },
    compare: { type: 'string' },
    'keep-datasets': { type: 'boolean' },
    cold: { type: 'boolean' },
    kinds: { type: 'string' },
    samples: { type: 'string' },
  },
});
const sizes = (values.sizes ?? '10k,10m').split(',').map(parseSize);
const runs = Number(values.runs ?? 35);
const say = (line: string) => process.stderr.write(`[flat-with-size] ${line}\n`);

/** The kinds of the issue's table; `i` makes each request distinct, `random` draws ids and words. */
const KINDS: Record<string, (i: number, random: Random, docs: number) => string> = {
  'list page 1': (i) => `/v1/wallpapers?per_page=${10 + (i % 90)}`,
  'list filtered': (i, random) => `/v1/wallpapers?category=${CATEGORIES[Math.floor(random.next() * CATEGORIES.length)]}&per_page=${10 + (i % 90)}`,
  'get by id': (_i, random, docs) => `/v1/wallpapers/${1 + Math.floor(random.next() * docs)}`,
  suggest: (i, random) => `/v1/search/suggest?q=${encodeURIComponent(suggestPrefix(random))}&limit=${4 + (i % 7)}`,
  'sort=downloads, page 400': (i) => `/v1/wallpapers?sort=downloads&page=${400 + (i % 100)}&per_page=20`,
  search: (i, random) => `/v1/search?q=${encodeURIComponent(searchQuery(random))}&per_page=${10 + (i % 90)}`,
  'facets=category,ratio': (i) => `/v1/wallpapers?facets=category,ratio&per_page=${10 + (i % 90)}`,
  'sort=random&seed=…': (i) => `/v1/wallpapers?sort=random&seed=s${i}x${Date.now() % 100000}`,
  'sort=random, page 3 by number': (i) => `/v1/wallpapers?sort=random&seed=n${i}x${Date.now() % 100000}&page=3`,
  'sort=oldest': (i) => `/v1/wallpapers?sort=oldest&per_page=${10 + (i % 90)}`,
  'sort=oldest, page 400': (i) => `/v1/wallpapers?sort=oldest&page=${400 + (i % 100)}&per_page=20`,
};
/** The kinds asked for by the start of their names (`--kinds search,sort=random`), or all. */
const kinds = Object.entries(KINDS).filter(([kind]) => !values.kinds || values.kinds.split(',').some((start) => kind.startsWith(start)));
/** Kinds whose next page is also asked, by the cursor the first one links to. */
const FOLLOWED: Record<string, string> = {
  'sort=random&seed=…': 'sort=random, next page by cursor',
  'sort=oldest': 'sort=oldest, next page by cursor',
  search: 'search, next page by cursor',
};

async function timed(url: string, key: string): Promise<{ ms: number; link: string | null }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${res.status} ${url}`);
  return { ms: performance.now() - started, link: res.headers.get('link') };
}

const at = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

const es = createEsClient({ url: process.env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200', requestTimeoutMs: 30 * 60_000 });
const stops: Running[] = [];
const dir = mkdtempSync(join(tmpdir(), 'flat-with-size-'));
try {
  for (const size of sizes) await ensureDataset(es, size, 'https://images.wallpapers.example', say);
  const redis = await startRedis();
  stops.push(redis);
  const [key] = (await createBenchKeys(redis.url, join(dir, 'keys.txt'), 1)) as [string];
  const compareTree = values.compare ? join(dir, 'compare-tree') : null;
  const compareSha = compareTree ? buildCompareTree(ROOT, values.compare!, compareTree) : null;
  const builds: [string, string][] = [['now', ROOT], ...(compareTree ? [[`@${compareSha}`, compareTree] as [string, string]] : [])];
  // kind → build → size → samples
  const samples = new Map<string, Map<string, Map<number, number[]>>>();
  // --samples: every request measured, one JSON line each, to find which ones make a tail.
  const lines: string[] = [];
  const record = (kind: string, build: string, size: number, ms: number, path: string) => {
    if (values.samples) lines.push(JSON.stringify({ kind, build, size, ms: Number(ms.toFixed(2)), path }));
    const byBuild = samples.get(kind) ?? samples.set(kind, new Map()).get(kind)!;
    const bySize = byBuild.get(build) ?? byBuild.set(build, new Map()).get(build)!;
    (bySize.get(size) ?? bySize.set(size, []).get(size)!).push(ms);
  };
  for (const size of sizes) {
    const apis = [];
    for (const [build, cwd] of builds) {
      const running = await startApi({ cwd, alias: datasetAlias(size), redisUrl: redis.url, key, env: { RESPONSE_CACHE_MB: '0' } });
      stops.push(running);
      apis.push({ build, running });
    }
    // The requests are drawn the same in every run, so an earlier run's answers would still be in
    // Elasticsearch's request cache (nothing refreshes a benchmark catalogue): a build whose
    // bodies had not changed since was answered from memory, one whose bodies had, was not.
    await es.indices.clearCache({ index: datasetAlias(size), request: true });
    if (!values.cold) {
      const warmed = await warmIndexFiles(es, datasetAlias(size));
      say(
        warmed === null
          ? `${sizeLabel(size)}: index files not on this machine, not warmed`
          : `${sizeLabel(size)}: read ${(warmed / 2 ** 20).toFixed(0)} MB of index files into the page cache`,
      );
    }
    say(`${sizeLabel(size)}: ${runs} of each kind through ${apis.map((api) => api.build).join(' and ')}`);
    const random = new Random(2026, size);
    for (let i = -3; i < runs; i++) {
      for (const [kind, path] of kinds) {
        const draw = random.next() * 2 ** 32;
        // Which build goes first alternates. Both draw the same words, ids and filters, so each pair
        // compares like with like (costs spread 20-fold between searches at 10M), and each asks its
        // own page length, page, seed or limit: the same request twice would be answered from
        // Elasticsearch's request cache the second time.
        const order = i % 2 === 0 ? apis : [...apis].reverse();
        for (const { build, running } of order) {
          const n = i + 3 + apis.findIndex((api) => api.build === build) * (runs + 3);
          const drawn = path(n, new Random(draw, i + 3), size);
          const { ms, link } = await timed(`${running.url}${drawn}`, key);
          if (i >= 0) record(kind, build, size, ms, drawn);
          const followed = FOLLOWED[kind];
          if (followed && link) {
            const next = /^<([^>]+)>/.exec(link)![1]!;
            const page = await timed(`${running.url}${next}`, key);
            if (i >= 0) record(followed, build, size, page.ms, next);
          }
        }
      }
    }
    for (const { running } of apis) await running.stop();
  }
  if (values.samples) writeFileSync(values.samples, `${lines.join('\n')}\n`);
  const smallest = sizes[0]!;
  const largest = sizes.at(-1)!;
  const head = [
    'kind',
    'build',
    ...sizes.map((size) => `p50 / p90 at ${sizeLabel(size)} (ms)`),
    `p50 ${sizeLabel(largest)} / ${sizeLabel(smallest)}`,
  ];
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map((_, n) => (n < 2 ? '---' : '--:')).join('|')}|`);
  for (const [kind, byBuild] of samples) {
    for (const [build, bySize] of byBuild) {
      const cells = sizes.map((size) => {
        const xs = bySize.get(size) ?? [];
        return xs.length > 0 ? `${at(xs, 0.5).toFixed(1)} / ${at(xs, 0.9).toFixed(1)}` : '–';
      });
      const ratio = at(bySize.get(largest) ?? [0], 0.5) / at(bySize.get(smallest) ?? [1], 0.5);
      console.log(`| ${kind} | ${build} | ${cells.join(' | ')} | ${ratio.toFixed(1)}× |`);
    }
  }
  if (builds.length > 1) {
    // The same words, ids and filters, request for request: the median of each pair's ratio tells
    // a change from the spread between requests, which the percentiles above carry.
    const [, [other]] = builds as [[string, string], [string, string]];
    console.log(`\n| kind | ${sizes.map((size) => `now / ${other}, paired median at ${sizeLabel(size)}`).join(' | ')} |`);
    console.log(`|---|${sizes.map(() => '--:').join('|')}|`);
    for (const [kind, byBuild] of samples) {
      const cells = sizes.map((size) => {
        const mine = byBuild.get('now')?.get(size) ?? [];
        const theirs = byBuild.get(other)?.get(size) ?? [];
        const ratios = mine.slice(0, theirs.length).map((ms, k) => ms / theirs[k]!);
        return ratios.length > 0 ? `${at(ratios, 0.5).toFixed(2)}× (${ratios.length})` : '–';
      });
      console.log(`| ${kind} | ${cells.join(' | ')} |`);
    }
  }
} finally {
  for (const running of stops.reverse()) await running.stop().catch(() => undefined);
  if (!values['keep-datasets']) for (const size of sizes) if (size >= 1_000_000) await dropDataset(es, size);
  await es.close();
  rmSync(dir, { recursive: true, force: true });
}
