// Alternating A/B runs of the uncached (or cached) API on one scenario, to tell a change from noise:
//   npx tsx bench/api/ab.ts --scenario get-random [--compare <git ref>] [--node-b <node binary>]
//                           [--node-args-b "<flags>"] [--node-args-a "<flags>"] [--mapping-b <git ref>] [--rounds 5] [--duration 5] [--size 1m] [--cache]
//                           [--pairs N] [--control] [--env-a "K=V ..."] [--env-b "K=V ..."] (REDIS_URL={redis-socket}: the bench Redis by its socket) [--accept-encoding "gzip, br"]
// --mapping-b gives B its own copy of the catalogue, stored with the mapping at that ref.
// A is the working tree on this node; B is the tree at --compare, or the working tree on --node-b
// and/or with extra node flags (after the production flags, so they override them).
// Both servers stay up; wrk alternates between them (ABAB...), so drift in the machine's load
// falls on both. Prints each round and the median ratio B/A. With --pairs N, the whole thing runs
// N times on freshly started servers and also prints the ratio of each pair and their median.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { bootstrapRatioOfMedians, median, signFlipPValue } from './ab-stats.js';
import { captureEsRequests } from './capture-es.js';
import { buildCompareTree } from './compare-tree.js';
import { pinElasticsearch, pinningNote } from './cpu-pinning.js';
import { ensureDataset, ensureDatasetAt } from './datasets.js';
import { parseSize, type Scenario } from './options.js';
import { type Running, createBenchKeys, sampleRss, startApi, startRedis } from './processes.js';
import { writeRequestFiles } from './request-files.js';
import { buildWorkload } from './workloads.js';
import { runWrk } from './wrk.js';
import { runFixedRate } from './fixed-rate.js';

const say = (line: string) => process.stderr.write(`ab: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'get-random' },
    compare: { type: 'string' },
    'node-b': { type: 'string' },
    'node-args-b': { type: 'string' },
    // Extra node flags for A as well (e.g. a GC setting both builds should run with).
    'node-args-a': { type: 'string' },
    'mapping-b': { type: 'string' },
    // Environment for one server only (e.g. LOG_LEVEL=info), over the benchmark's own settings.
    'env-a': { type: 'string' },
    'env-b': { type: 'string' },
    // Sent with every API request, as clients do (fetch and httpx ask for gzip and br by default).
    'accept-encoding': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    size: { type: 'string', default: '1m' },
    cache: { type: 'boolean', default: false },
    // Empties Elasticsearch's request and query caches before every run, as the main harness does.
    cold: { type: 'boolean', default: false },
    // Starts B's server before A's: the servers started second measured about 11 % faster on identical code.
    'start-b-first': { type: 'boolean', default: false },
    connections: { type: 'string', default: '16' },
    // Prints, per run, Elasticsearch's query and fetch time and request-cache hits per API request.
    'es-stats': { type: 'boolean', default: false },
    // Seconds of load each server takes before the first round, in alternating slices of at most 5 s.
    warmup: { type: 'string', default: '2' },
    // Offers this many requests a second (fixed rate, below saturation) instead of wrk's closed
    // loop, and compares the API process's CPU per request: on two shared cores, throughput at
    // saturation moves with whatever else runs, CPU per request at a set rate much less.
    rate: { type: 'string' },
    // Starts both servers afresh this many times, alternating which starts first. One pair of
    // processes carries an offset of its own (identical code read 0.81-1.20 from pair to pair, in
    // either start order); the median over pairs is what tells a change from that offset.
    pairs: { type: 'string', default: '1' },
    // Adds a third server, C: a second process of B's build, measured in the same rounds. C/B is
    // what identical code reads on this run, so A/B is judged against the spread of the same day.
    control: { type: 'boolean', default: false },
  },
});
if (!values.compare && !values['node-b'] && !values['node-args-b'] && !values['env-b'])
  throw new Error('give --compare <ref>, --node-b <node binary>, --node-args-b <flags> or --env-b <settings>');

/** "LOG_LEVEL=info RESPONSE_CACHE_MB=8" as an environment; a value of `{redis-socket}` is the bench Redis's Unix socket URL. */
function settings(list: string | undefined, redisSocketUrl: string): Record<string, string> {
  const pairs = (list ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`not KEY=VALUE: ${pair}`);
      const value = pair.slice(at + 1);
      return [pair.slice(0, at), value === '{redis-socket}' ? redisSocketUrl : value];
    }),
  );
}

interface SearchStats {
  queries: number;
  queryMs: number;
  fetchMs: number;
  cacheHits: number;
  cacheMisses: number;
  cpuMs: number;
  /** Busy CPU of the whole machine, of the API process under test and of Redis, ms. */
  machineMs: number;
  apiMs: number;
  /** The API process's kernel time alone (sockets, memory), ms. */
  apiSysMs: number;
  redisMs: number;
}

type Which = 'a' | 'b' | 'c';
const TICK_MS = 10;
function processMs(pid: number, only?: 'sys'): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (only === 'sys' ? Number(fields[12]) : Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
function machineMs(): number {
  const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).map(Number);
  return (user! + nice! + system! + irq! + softirq!) * TICK_MS;
}

async function searchStats(es: ReturnType<typeof createEsClient>, index: string, apiPid: number, redisPid: number): Promise<SearchStats> {
  const stats = await es.indices.stats({ index, metric: ['search', 'request_cache'] });
  const nodes = await es.nodes.stats({ metric: ['process'] });
  const { search, request_cache: cache } = stats._all.total!;
  return {
    queries: search!.query_total,
    queryMs: search!.query_time_in_millis,
    fetchMs: search!.fetch_time_in_millis,
    cacheHits: cache!.hit_count,
    cacheMisses: cache!.miss_count,
    cpuMs: Object.values(nodes.nodes).reduce((sum, node) => sum + (node.process?.cpu?.total_in_millis ?? 0), 0),
    machineMs: machineMs(),
    apiMs: processMs(apiPid),
    apiSysMs: processMs(apiPid, 'sys'),
    redisMs: processMs(redisPid),
  };
}

function perRequest(before: SearchStats, after: SearchStats, requests: number): string {
  const per = (key: keyof SearchStats) => (after[key] - before[key]) / requests;
  const us = (key: keyof SearchStats) => `${(per(key) * 1000).toFixed(0)} µs`;
  return `per API request: ${per('queries').toFixed(2)} shard queries, query ${us('queryMs')}, fetch ${us('fetchMs')}, cache hits ${per('cacheHits').toFixed(2)} misses ${per('cacheMisses').toFixed(2)}, CPU: Elasticsearch ${us('cpuMs')}, API ${us('apiMs')} (kernel ${us('apiSysMs')}), Redis ${us('redisMs')}, machine ${us('machineMs')}`;
}

/** Per-pair ratios num/den with their median and range, three decimals. */
function pairRatios(num: number[], den: number[]): string {
  const ratios = num.map((x, i) => x / den[i]!);
  const sorted = [...ratios].sort((x, y) => x - y);
  return `${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)}, range ${sorted[0]!.toFixed(3)}-${sorted.at(-1)!.toFixed(3)}`;
}

/** The ratio of the median processes and its 90 % bootstrap interval. */
function medianProcessRatio(num: number[], den: number[]): { ratio: string; interval: string } {
  const [low, high] = bootstrapRatioOfMedians(num, den);
  return { ratio: (median(num) / median(den)).toFixed(3), interval: `90 % bootstrap interval ${low.toFixed(3)}-${high.toFixed(3)}` };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const dir = mkdtempSync(join(tmpdir(), 'wallpaper-ab-'));
  const stops: Running[] = [];
  let unpin = () => undefined as void;
  try {
    unpin = await pinElasticsearch(es);
    const pinning = pinningNote();
    if (pinning) say(pinning);
    const size = parseSize(values.size);
    const alias = await ensureDataset(es, size, config.imageBaseUrl, say);
    const redis = await startRedis();
    stops.push(redis);
    const keysFile = join(dir, 'keys.txt');
    const [key] = (await createBenchKeys(redis.url, keysFile)) as [string];
    const workload = buildWorkload(values.scenario as Scenario, size, 1);
    const apiHeaders: Record<string, string> = values['accept-encoding'] ? { 'Accept-Encoding': values['accept-encoding'] } : {};
    const files = writeRequestFiles(dir, 'ab', workload, await captureEsRequests(alias, workload), apiHeaders);
    const env: Record<string, string> = values.cache ? {} : { RESPONSE_CACHE_MB: '0' };
    const treeB = values.compare ? join(dir, 'tree-b') : ROOT;
    const nodeArgsB = (values['node-args-b'] ?? '').split(/\s+/).filter(Boolean);
    const labelB = [
      values.compare ? `@${buildCompareTree(ROOT, values.compare, treeB)}` : 'the working tree',
      values['node-b'] ? `on ${values['node-b']}` : '',
      nodeArgsB.length > 0 ? `with ${nodeArgsB.join(' ')}` : '',
      values['env-b'] ? `with ${values['env-b']}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const aliasB = values['mapping-b'] ? await ensureDatasetAt(es, size, config.imageBaseUrl, values['mapping-b'], say) : alias;
    const nodeArgsA = (values['node-args-a'] ?? '').split(/\s+/).filter(Boolean);
    const startA = () =>
      startApi({ cwd: ROOT, alias, redisUrl: redis.url, key, env: { ...env, ...settings(values['env-a'], redis.socketUrl) }, nodeArgs: nodeArgsA });
    const startB = () =>
      startApi({
        cwd: treeB,
        alias: aliasB,
        redisUrl: redis.url,
        key,
        env: { ...env, ...settings(values['env-b'], redis.socketUrl) },
        node: values['node-b'] ?? process.execPath,
        nodeArgs: nodeArgsB,
      });
    const rate = values.rate === undefined ? 0 : Number(values.rate);
    const run = async (url: string, seconds: number) => {
      if (rate === 0) return runWrk({ url, file: files.api, keysFile, seconds, connections: Number(values.connections), threads: 1 });
      const fixed = await runFixedRate(ROOT, { url, file: files.api, keysFile, rate, seconds, connections: Number(values.connections) });
      return {
        requests: fixed.completed,
        rps: fixed.completed / seconds,
        errors: fixed.errors,
        non2xx: fixed.non2xx,
        p50Ms: fixed.p50Ms,
        p99Ms: fixed.p99Ms,
      };
    };
    const names: Which[] = values.control ? ['a', 'b', 'c'] : ['a', 'b'];
    const starters: Record<Which, () => Promise<Running>> = { a: startA, b: startB, c: startB };
    const rps: Record<Which, number[]> = { a: [], b: [], c: [] };
    const rss: Record<Which, number[]> = { a: [], b: [], c: [] };
    const cpu: Record<Which, number[]> = { a: [], b: [], c: [] };
    const pairCpu: Record<Which, number[]> = { a: [], b: [], c: [] };
    // Latency at the fixed rate, per round (wrk's closed loop measures throughput instead).
    const latency: Record<Which, { p50: number; p99: number }[]> = { a: [], b: [], c: [] };
    for (let pair = 0; pair < Number(values.pairs); pair++) {
      // Each pair is a fresh start of every server; the start order rotates from pair to pair.
      const shift = (values['start-b-first'] ? 1 : 0) + pair;
      const startOrder = names.map((_, i) => names[(i + shift) % names.length]!);
      const servers = {} as Record<Which, Running>;
      try {
        for (const which of startOrder) servers[which] = await starters[which]();
        for (let left = Number(values.warmup); left > 0; left -= 5) {
          const slice = Math.min(5, left);
          const warm: string[] = [];
          for (const which of names) warm.push(`${which.toUpperCase()} ${(await run(servers[which].url, slice)).rps.toFixed(0)} req/s`);
          say(`pair ${pair + 1} (${startOrder[0]!.toUpperCase()} started first) warm-up: ${warm.join(', ')}`);
        }
        const firstRound = cpu.a.length;
        for (let round = 0; round < Number(values.rounds); round++) {
          // Every server takes each position in turn: ABC, BCA, CAB (AB, BA with two).
          const order = names.map((_, i) => names[(i + round) % names.length]!);
          for (const which of order) {
            const target = servers[which];
            const index = which === 'a' ? alias : aliasB;
            if (values.cold) await es.indices.clearCache({ index, request: true, query: true });
            const sampler = sampleRss(target.pid);
            const cpuBefore = processMs(target.pid);
            const before = values['es-stats'] ? await searchStats(es, index, target.pid, redis.pid) : null;
            const result = await run(target.url, Number(values.duration));
            rss[which].push(sampler.stop());
            cpu[which].push(((processMs(target.pid) - cpuBefore) * 1000) / result.requests);
            if (before) say(`${which}: ${perRequest(before, await searchStats(es, index, target.pid, redis.pid), result.requests)}`);
            if (result.errors + result.non2xx > 0) throw new Error(`${which}: ${result.errors} errors, ${result.non2xx} non-2xx`);
            rps[which].push(result.rps);
            if ('p99Ms' in result) latency[which].push({ p50: result.p50Ms, p99: result.p99Ms });
          }
          say(
            `pair ${pair + 1} round ${round + 1}: ${names.map((w) => `${w.toUpperCase()} ${rps[w].at(-1)!.toFixed(0)} req/s ${cpu[w].at(-1)!.toFixed(0)} µs/req`).join(', ')}`,
          );
        }
        const mean = (xs: number[]) => xs.slice(firstRound).reduce((total, x) => total + x, 0) / (xs.length - firstRound);
        for (const which of names) pairCpu[which].push(mean(cpu[which]));
        say(
          `pair ${pair + 1}: A/B CPU per request ${(pairCpu.a.at(-1)! / pairCpu.b.at(-1)!).toFixed(3)}${values.control ? `, C/B ${(pairCpu.c.at(-1)! / pairCpu.b.at(-1)!).toFixed(3)}` : ''}`,
        );
      } finally {
        for (const which of startOrder) await servers[which]?.stop();
      }
    }
    if (latency.a.length > 0) {
      for (const which of names) {
        const rounds = latency[which];
        console.log(
          `${which.toUpperCase()} at ${rate} req/s, ms per round, p50: ${rounds.map((l) => l.p50.toFixed(1)).join(', ')} (median ${median(rounds.map((l) => l.p50)).toFixed(1)}); p99: ${rounds.map((l) => l.p99.toFixed(1)).join(', ')} (median ${median(rounds.map((l) => l.p99)).toFixed(1)})`,
        );
      }
    }
    const ratios = rps.a.map((x, i) => rps.b[i]! / x);
    console.log(
      `${values.scenario} (${values.cache ? 'cached' : 'uncached'}, ${values.size}): A = working tree on ${process.version}${nodeArgsA.length > 0 ? ` with ${nodeArgsA.join(' ')}` : ''}, B = ${labelB}`,
    );
    console.log(`A req/s: ${rps.a.map((x) => x.toFixed(0)).join(', ')} (median ${median(rps.a).toFixed(0)})`);
    console.log(`B req/s: ${rps.b.map((x) => x.toFixed(0)).join(', ')} (median ${median(rps.b).toFixed(0)})`);
    console.log(`B/A per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}`);
    const cpuRatios = cpu.a.map((x, i) => cpu.b[i]! / x);
    console.log(`API CPU µs per request, A: ${cpu.a.map((x) => x.toFixed(0)).join(', ')}; B: ${cpu.b.map((x) => x.toFixed(0)).join(', ')}`);
    console.log(
      `A/B CPU per request, per round: ${cpuRatios.map((r) => (1 / r).toFixed(2)).join(', ')}; median ${(1 / median(cpuRatios)).toFixed(2)} (above 1: A costs more)`,
    );
    if (pairCpu.a.length > 1) {
      console.log(`A/B CPU per request, per pair of fresh servers: ${pairRatios(pairCpu.a, pairCpu.b)}`);
      // Each process carries its own offset, so each pair gives one sample of A and one of B.
      console.log(
        `API CPU µs per request, per process, A: ${pairCpu.a.map((x) => x.toFixed(0)).join(', ')}; B: ${pairCpu.b.map((x) => x.toFixed(0)).join(', ')}`,
      );
      const ab = medianProcessRatio(pairCpu.a, pairCpu.b);
      console.log(`median process, A/B: ${ab.ratio} (A ${median(pairCpu.a).toFixed(0)} µs, B ${median(pairCpu.b).toFixed(0)} µs); ${ab.interval}`);
      if (values.control) {
        console.log(`C/B CPU per request (identical code), per pair: ${pairRatios(pairCpu.c, pairCpu.b)}`);
        console.log(`API CPU µs per request, per process, C: ${pairCpu.c.map((x) => x.toFixed(0)).join(', ')}`);
        const cb = medianProcessRatio(pairCpu.c, pairCpu.b);
        console.log(`median process, C/B: ${cb.ratio}; ${cb.interval}`);
        // A and C sit in the same pairs: if A cost what identical code costs, ln(A/C) would lean
        // either way with equal chance, whatever the day's offset.
        const aOverC = pairCpu.a.map((x, i) => x / pairCpu.c[i]!);
        console.log(
          `A/C per pair: ${aOverC.map((r) => r.toFixed(3)).join(', ')}; median ${median(aOverC).toFixed(3)}; sign-flip test p = ${signFlipPValue(aOverC.map(Math.log)).toFixed(3)}`,
        );
        // B and C are both the build before: the pooled spread of their processes is the day's run-to-run spread.
        const pooled = medianProcessRatio(pairCpu.a, [...pairCpu.b, ...pairCpu.c]);
        console.log(`median process, A against B and C pooled: ${pooled.ratio}; ${pooled.interval}`);
      }
    }
    console.log(`peak RSS MB, ${names.map((w) => `${w.toUpperCase()}: ${rss[w].map((x) => x.toFixed(0)).join(', ')}`).join('; ')}`);
  } finally {
    unpin();
    for (const running of stops.reverse()) await running.stop();
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
