// One account floods the API with its costliest searches; how long does another account wait?
//   npx tsx bench/api/noisy-neighbour.ts [--size 100k] [--flood 100] [--seconds 15] [--lanes 0,4]
// For each value of MAX_IN_FLIGHT_PER_ACCOUNT in --lanes, a fresh API (response cache off) gets:
// a quiet phase (the other account alone, one simple search every 100 ms), then the flood (--flood
// requests of one key always in flight, each a search with every facet, five colours, 100 per page
// and a word of its own, so none is joined or cached) with the other account searching as before.
// Prints the other account's latency, quiet and under the flood, and what the flood got through.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withBenchStack } from './bench-stack.js';
import { parseSize } from './options.js';
import { createBenchKeys, startApi } from './processes.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    flood: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '15' },
    lanes: { type: 'string', default: '0,4' },
  },
});

const HEAVY =
  '/v1/search?per_page=100&facets=category,resolution,orientation,ratio,tags,color,tone&include=tags,colors,dimensions' +
  '&color=%23054878,%23d1fc41,%2349aeef,%23242d78,%238904a2&q=lake+mountain+night+sunset+';
const SIMPLE = ['mountain', 'forest', 'ocean', 'city', 'space', 'sunset', 'flower', 'snow'];

async function timedGet(url: string, key: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${at(sorted, 50).toFixed(0)} ms, p90 ${at(sorted, 90).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms (${sorted.length} searches)`;
};

/** The other account's simple searches, one every 100 ms, until `until` says stop. */
async function neighbour(api: string, key: string, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; !until(); n++) {
    const { ms } = await timedGet(`${api}/v1/search?q=${SIMPLE[n % SIMPLE.length]}&page=${1 + (n % 5)}`, key);
    times.push(ms);
    await new Promise((r) => setTimeout(r, 100));
  }
  return times;
}

async function main(): Promise<void> {
  await withBenchStack('neighbour', parseSize(values.size), async ({ dir, alias, redis }) => {
    // Premium keys of accounts of their own: the flood's 10,000 an hour outlast the run.
    const [flooder, other, probe] = (await createBenchKeys(redis.url, join(dir, 'keys.txt'), 3)) as [string, string, string];
    const seconds = Number(values.seconds);
    for (const lanes of values.lanes.split(',').map(Number)) {
      const api = await startApi({
        cwd: ROOT,
        alias,
        redisUrl: redis.url,
        key: probe,
        // The flood's 100 in flight would overfill a line of 64 (then refused, retried at once and
        // counted): a line long enough to hold it keeps the runs comparable with those before the
        // bound, and measures the lanes alone.
        env: { RESPONSE_CACHE_MB: '0', MAX_IN_FLIGHT_PER_ACCOUNT: String(lanes), MAX_WAITING_PER_ACCOUNT: '1000' },
      });
      try {
        const quietEnd = Date.now() + 5000;
        const quiet = await neighbour(api.url, other, () => Date.now() > quietEnd);
        const floodEnd = Date.now() + seconds * 1000;
        const statuses = new Map<number, number>();
        let word = 0;
        const flood = Array.from({ length: Number(values.flood) }, async () => {
          while (Date.now() < floodEnd) {
            const { status } = await timedGet(`${api.url}${HEAVY}qz${(word++).toString(36)}x`, flooder);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        });
        const loaded = await neighbour(api.url, other, () => Date.now() > floodEnd);
        await Promise.all(flood);
        const served = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
        console.log(`MAX_IN_FLIGHT_PER_ACCOUNT=${lanes}:`);
        console.log(`  the other account, quiet:        ${summary(quiet)}`);
        console.log(`  the other account, under flood:  ${summary(loaded)}`);
        console.log(
          `  the flood (${values.flood} in flight): ${served} in ${seconds} s (${((statuses.get(200) ?? 0) / seconds).toFixed(1)}/s answered 200)`,
        );
      } finally {
        await api.stop();
      }
    }
  });
}

await main();
process.exit(0);
