// Where a fixed-rate run's tail comes from, one API process, round by round:
//   npx tsx bench/api/tail.ts [--scenario get-random] [--size 100k] [--rate 2200] [--rounds 3]
//                             [--seconds 10] [--cache] [--env "K=V ..."] [--node-args "<flags>"]
// Beside the latencies the client counts from when each request was due, each round reads:
//  - how late the generator itself sent its requests (its own delay is in every latency);
//  - the share of requests the API's own handling held past 20 ms, from its request histogram
//    (what the handler saw, without the accept queue or the client), and its Redis and
//    Elasticsearch calls past 10 ms;
//  - its event-loop delay and its collections, from the process metrics;
//  - how long its main thread ran and how long it waited for a core (/proc/<pid>/schedstat).
// So a p99 above the goal can be told apart: the API's work, the API waiting for a core, or the tool.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { captureEsRequests } from './capture-es.js';
import { withBenchStack } from './bench-stack.js';
import { runFixedRate } from './fixed-rate.js';
import { parseSize, type Scenario } from './options.js';
import { createBenchKeys, freePort, rssKb, startApi } from './processes.js';
import { writeRequestFiles } from './request-files.js';
import { buildWorkload } from './workloads.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'get-random' },
    size: { type: 'string', default: '100k' },
    rate: { type: 'string', default: '2200' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    cache: { type: 'boolean', default: false },
    env: { type: 'string', default: '' },
    'node-args': { type: 'string', default: '' },
  },
});

/** Counters and histogram buckets of the API's metrics, by series. */
type Series = Map<string, number>;

async function scrape(port: number): Promise<Series> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const series: Series = new Map();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** Of a histogram's observations between two scrapes: how many, and how many above `seconds`. */
function above(before: Series, after: Series, histogram: string, seconds: number): { count: number; over: number } {
  let count = 0;
  let within = 0;
  for (const [name, value] of after) {
    if (!name.startsWith(`${histogram}_bucket{`)) continue;
    const le = /le="([^"]+)"/.exec(name)?.[1];
    const delta = value - (before.get(name) ?? 0);
    if (le === '+Inf') count += delta;
    else if (Number(le) === seconds) within += delta;
  }
  return { count, over: count - within };
}

/** Collections of one kind between two scrapes: how many, their total time, and how many took over 10 ms. */
function collections(before: Series, after: Series, kind: string): string {
  const get = (series: Series, name: string) => series.get(`nodejs_gc_duration_seconds_${name}{kind="${kind}"}`) ?? 0;
  const count = get(after, 'count') - get(before, 'count');
  const ms = (get(after, 'sum') - get(before, 'sum')) * 1000;
  const within10 = (series: Series) => series.get(`nodejs_gc_duration_seconds_bucket{le="0.01",kind="${kind}"}`) ?? 0;
  return `${kind} ${count} (${ms.toFixed(0)} ms, ${count - (within10(after) - within10(before))} over 10 ms)`;
}

/** The main thread's time on a core, in the kernel of that, and waiting for a core, ms (schedstat in ns, stat in ticks of 10 ms). */
function schedstat(pid: number): { ranMs: number; kernelMs: number; waitedMs: number } {
  const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { ranMs: ran! / 1e6, kernelMs: Number(stat[12]) * 10, waitedMs: waited! / 1e6 };
}

const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(2)} %`;

async function main(): Promise<void> {
  const size = parseSize(values.size);
  await withBenchStack('tail', size, async ({ dir, alias, redis, track }) => {
    const keysFile = join(dir, 'keys.txt');
    const [key] = (await createBenchKeys(redis.url, keysFile)) as [string];
    const workload = buildWorkload(values.scenario as Scenario, size, 1);
    const files = writeRequestFiles(dir, 'tail', workload, await captureEsRequests(alias, workload), {});
    const metricsPort = await freePort();
    const env: Record<string, string> = { ...(values.cache ? {} : { RESPONSE_CACHE_MB: '0' }), METRICS_PORT: String(metricsPort) };
    for (const pair of values.env.split(/\s+/).filter(Boolean)) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`not KEY=VALUE: ${pair}`);
      env[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const nodeArgs = values['node-args'].split(/\s+/).filter(Boolean);
    const api = track(await startApi({ cwd: ROOT, alias, redisUrl: redis.url, key, env, nodeArgs }));
    const rate = Number(values.rate);
    const seconds = Number(values.seconds);
    const load = (runSeconds: number) => runFixedRate(ROOT, { url: api.url, file: files.api, keysFile, rate, seconds: runSeconds, connections: 64 });
    console.log(
      `${values.scenario} at ${rate}/s, ${values.size}, ${values.cache ? 'response cache on' : 'response cache off'}${nodeArgs.length ? `, ${nodeArgs.join(' ')}` : ''}${values.env ? `, ${values.env}` : ''}`,
    );
    await load(5);
    for (let round = 1; round <= Number(values.rounds); round++) {
      const before = await scrape(metricsPort);
      const threadBefore = schedstat(api.pid);
      const run = await load(seconds);
      const threadAfter = schedstat(api.pid);
      const after = await scrape(metricsPort);
      const handled = above(before, after, 'wallpapers_http_request_duration_seconds', 0.02);
      const redisCalls = above(before, after, 'wallpapers_redis_command_duration_seconds', 0.01);
      const esCalls = above(before, after, 'wallpapers_elasticsearch_request_duration_seconds', 0.01);
      const wallMs = seconds * 1000;
      console.log(`round ${round}:`);
      console.log(
        `  client: p50 ${run.p50Ms.toFixed(1)}, p99 ${run.p99Ms.toFixed(1)}, max ${run.maxMs.toFixed(1)} ms; ${run.errors + run.non2xx} errors or non-2xx`,
      );
      console.log(
        `  generator: sent late by p99 ${run.lateP99Ms.toFixed(1)}, max ${run.lateMaxMs.toFixed(1)} ms; its own loop delay max ${run.loopMaxMs.toFixed(1)} ms`,
      );
      console.log(
        `  API handling over 20 ms: ${handled.over} of ${handled.count} (${percent(handled.over, handled.count)}); Redis calls over 10 ms ${percent(redisCalls.over, redisCalls.count)}, Elasticsearch calls ${percent(esCalls.over, esCalls.count)} of ${esCalls.count}`,
      );
      console.log(
        `  API loop delay: p99 ${((after.get('nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000).toFixed(1)}, max ${((after.get('nodejs_eventloop_lag_max_seconds') ?? 0) * 1000).toFixed(1)} ms (10 ms resolution, since the last scrape)`,
      );
      console.log(`  API collections: ${['minor', 'major', 'incremental'].map((kind) => collections(before, after, kind)).join('; ')}`);
      console.log(
        `  API main thread: ran ${percent(threadAfter.ranMs - threadBefore.ranMs, wallMs)} of the round (${((1000 * (threadAfter.ranMs - threadBefore.ranMs)) / run.completed).toFixed(0)} µs a request, ${percent(threadAfter.kernelMs - threadBefore.kernelMs, threadAfter.ranMs - threadBefore.ranMs)} of it in the kernel), waited for a core ${percent(threadAfter.waitedMs - threadBefore.waitedMs, wallMs)}; RSS ${(rssKb(api.pid) / 1024).toFixed(0)} MB`,
      );
    }
  });
}

await main();
process.exit(0);
