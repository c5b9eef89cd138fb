// Two builds' change feeds side by side: a walk's pages from the start and reads at the tail, the
// builds alternating each round, p50 per round and the geometric mean of now / before. Both APIs
// must serve one catalogue (INDEX_ALIAS) with the response cache off; each gets its own key.
//   npx tsx bench/api/change-feed-ab.ts --before http://127.0.0.1:3401 --now http://127.0.0.1:3402 \
//     --before-key wpc_… --now-key wpc_… [--rounds 6] [--pages 30] [--tail-reads 200]
import { parseArgs } from 'node:util';
import { median } from './ab-stats.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    now: { type: 'string' },
    'before-key': { type: 'string' },
    'now-key': { type: 'string' },
    rounds: { type: 'string', default: '6' },
    pages: { type: 'string', default: '30' },
    'tail-reads': { type: 'string', default: '200' },
  },
});

interface Build {
  name: 'before' | 'now';
  url: string;
  key: string;
  tail?: string;
}
interface FeedPage {
  meta: { next_cursor: string; has_more: boolean };
}

const required = (name: keyof typeof values): string => {
  const value = values[name];
  if (typeof value !== 'string') throw new Error(`--${name} is required`);
  return value;
};
const builds: Build[] = [
  { name: 'before', url: required('before'), key: required('before-key') },
  { name: 'now', url: required('now'), key: required('now-key') },
];

async function read(build: Build, cursor: string | undefined): Promise<{ ms: number; page: FeedPage }> {
  const started = performance.now();
  const res = await fetch(`${build.url}/v1/changes?per_page=100${cursor ? `&cursor=${cursor}` : ''}`, {
    headers: { Authorization: `Bearer ${build.key}` },
  });
  const page = (await res.json()) as FeedPage;
  if (res.status !== 200) throw new Error(`${build.name}: ${res.status} ${JSON.stringify(page)}`);
  return { ms: performance.now() - started, page };
}

async function main(): Promise<void> {
  for (const build of builds) {
    let cursor: string | undefined;
    for (;;) {
      const { page } = await read(build, cursor);
      cursor = page.meta.next_cursor;
      if (!page.meta.has_more) break;
    }
    build.tail = cursor;
  }
  const results: Record<'walk' | 'tail', Record<Build['name'], number[]>> = { walk: { before: [], now: [] }, tail: { before: [], now: [] } };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const build of round % 2 ? [...builds].reverse() : builds) {
      const walk: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < Number(values.pages); i++) {
        const { ms, page } = await read(build, cursor);
        walk.push(ms);
        cursor = page.meta.next_cursor;
      }
      const tail: number[] = [];
      for (let i = 0; i < Number(values['tail-reads']); i++) tail.push((await read(build, build.tail)).ms);
      results.walk[build.name].push(median(walk));
      results.tail[build.name].push(median(tail));
    }
  }
  for (const kind of ['walk', 'tail'] as const) {
    const { before, now } = results[kind];
    const ratios = now.map((ms, i) => ms / before[i]!);
    const geomean = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
    const row = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
    console.log(`${kind} p50 ms  before ${row(before)}  now ${row(now)}  now/before ${row(ratios)}  geomean ${geomean.toFixed(3)}`);
  }
}

await main();
