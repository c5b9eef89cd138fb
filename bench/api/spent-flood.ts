// A key whose quota is spent keeps asking at full speed; what does each refusal cost, and how long
// does another account wait meanwhile?
//   npx tsx bench/api/spent-flood.ts [--compare <git ref>] [--rate 2000] [--flood 200] [--seconds 10] [--pairs 3]
// One Redis and one catalogue (10k) for the run. A free key is spent once (its hour's 1,000), then
// for each of --pairs rounds, the working tree (A) and the --compare build (B) each get a fresh
// API (response cache off, alternating which goes first): a quiet phase, the other account alone
// (a search every 50 ms), then the spent key's requests at a fixed --rate a second (at most --flood
// in flight) for --seconds while the other account searches as before. A fixed rate, not a closed
// loop: a build that refuses faster would otherwise be sent more. Prints, per build: refusals a second, Redis
// scripts and API CPU per refusal, Redis CPU, and the other account's latency quiet and loaded.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { withBenchStack } from './bench-stack.js';
import { buildCompareTree } from './compare-tree.js';
import { commandCalls, redisDelta } from './redis-stats.js';
import { processCpuSeconds, redisCpuSeconds } from './resource-stats.js';
import { startApi } from './processes.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    compare: { type: 'string' },
    rate: { type: 'string', default: '2000' },
    flood: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    pairs: { type: 'string', default: '3' },
  },
});

const WORDS = ['mountain', 'forest', 'ocean', 'city', 'space', 'sunset', 'flower', 'snow'];

/** One request; a connection the API closed or reset is status 0. */
async function get(url: string, key: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch {
    return { ms: performance.now() - started, status: 0 };
  }
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const percentiles = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: at(sorted, 50), p90: at(sorted, 90), n: sorted.length };
};

/** The other account: a search every 50 ms until `until` says stop. */
async function neighbour(api: string, key: string, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; !until(); n++) {
    times.push((await get(`${api}/v1/search?q=${WORDS[n % WORDS.length]}&page=${1 + (n % 5)}`, key)).ms);
    await new Promise((r) => setTimeout(r, 50));
  }
  return times;
}

interface Round {
  refusals: number;
  others: Map<number, number>;
  seconds: number;
  scripts: number;
  apiCpu: number;
  redisCpu: number;
  quiet: number[];
  loaded: number[];
}

async function main(): Promise<void> {
  await withBenchStack('spent-flood', 10_000, async ({ dir, alias, redis }) => {
    const client = new Redis(redis.url);
    const store = createKeyStore(client);
    const spentKey = (await store.createKey({ tier: 'free', account: 'flooder' })).apiKey;
    const other = (await store.createKey({ tier: 'premium', account: 'other' })).apiKey;
    const probe = (await store.createKey({ tier: 'premium', account: 'probe' })).apiKey;
    const builds = [{ label: 'A (working tree)', cwd: ROOT }];
    if (values.compare) {
      const tree = join(dir, 'tree-b');
      builds.push({ label: `B (${buildCompareTree(ROOT, values.compare, tree)})`, cwd: tree });
    }
    const results = new Map<string, Round[]>(builds.map((b) => [b.label, []]));
    const seconds = Number(values.seconds);
    let spent = false;
    for (let pair = 0; pair < Number(values.pairs); pair++) {
      for (const build of pair % 2 === 0 ? builds : [...builds].reverse()) {
        const api = await startApi({ cwd: build.cwd, alias, redisUrl: redis.url, key: probe, env: { RESPONSE_CACHE_MB: '0' } });
        try {
          console.log(`${build.label}, round ${pair + 1}`);
          if (!spent) {
            // The free hour's 1,000: the log keeps them for the whole run. Spent once a 429 says so
            // (a full line's 429 carries no quota).
            const remaining = async () => {
              const res = await fetch(`${api.url}/v1/wallpapers/1`, { headers: { Authorization: `Bearer ${spentKey}` } });
              await res.arrayBuffer();
              return res.headers.get('x-ratelimit-remaining');
            };
            while ((await Promise.all(Array.from({ length: 50 }, remaining))).every((left) => left !== '0'));
            spent = true;
          }
          const quietEnd = Date.now() + 3000;
          const quiet = await neighbour(api.url, other, () => Date.now() > quietEnd);
          const before = { calls: await commandCalls(client), redisCpu: await redisCpuSeconds(client), apiCpu: processCpuSeconds(api.pid) };
          const started = performance.now();
          const floodEnd = Date.now() + seconds * 1000;
          let refusals = 0;
          const others = new Map<number, number>();
          let inFlight = 0;
          const sent: Promise<void>[] = [];
          const perTick = Number(values.rate) / 100;
          const flood = (async () => {
            for (let tick = 0; Date.now() < floodEnd; tick++) {
              const due = Math.floor((tick + 1) * perTick) - Math.floor(tick * perTick);
              for (let i = 0; i < due && inFlight < Number(values.flood); i++) {
                inFlight++;
                sent.push(
                  get(`${api.url}/v1/wallpapers/1`, spentKey).then(({ status }) => {
                    inFlight--;
                    if (status === 429) refusals++;
                    else others.set(status, (others.get(status) ?? 0) + 1);
                  }),
                );
              }
              await new Promise((r) => setTimeout(r, Math.max(0, started + (tick + 1) * 10 - performance.now())));
            }
            await Promise.all(sent);
          })();
          const loaded = await neighbour(api.url, other, () => Date.now() > floodEnd);
          await flood;
          const elapsed = (performance.now() - started) / 1000;
          results.get(build.label)!.push({
            refusals,
            others,
            seconds: elapsed,
            scripts: redisDelta(before.calls, await commandCalls(client)).evalsha,
            apiCpu: processCpuSeconds(api.pid) - before.apiCpu,
            redisCpu: (await redisCpuSeconds(client)) - before.redisCpu,
            quiet,
            loaded,
          });
        } finally {
          await api.stop();
        }
      }
    }
    client.disconnect();
    console.log(
      `spent free key, ${values.rate} requests a second (at most ${values.flood} in flight) for ${seconds} s; the other account searches every 50 ms`,
    );
    for (const [label, rounds] of results) {
      console.log(`${label}:`);
      for (const r of rounds) {
        const quiet = percentiles(r.quiet);
        const loaded = percentiles(r.loaded);
        console.log(
          `  ${(r.refusals / r.seconds).toFixed(0)} refusals/s (others: ${[...r.others].map(([status, n]) => `${n} × ${status}`).join(', ') || 'none'}), ` +
            `${(r.scripts / r.refusals).toFixed(4)} scripts/refusal, API CPU ${((r.apiCpu * 1000) / r.refusals).toFixed(3)} ms/refusal, ` +
            `Redis CPU ${((r.redisCpu / r.seconds) * 100).toFixed(0)} % of a core; other account p50/p90 quiet ${quiet.p50.toFixed(1)}/${quiet.p90.toFixed(1)} ms, ` +
            `under flood ${loaded.p50.toFixed(1)}/${loaded.p90.toFixed(1)} ms (${loaded.n})`,
        );
      }
    }
  });
}

await main();
process.exit(0);
