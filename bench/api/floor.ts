// What a cached answer of this design costs at least, beside what the API and Elasticsearch spend:
//   npx tsx bench/api/floor.ts [--size 100k] [--scenarios get-random,zipf-mix] [--rounds 3] [--duration 10] [--out file.md]
//
// Four targets per scenario, measured in turn (the order rotates each round) under the same wrk
// load from the benchmark's 2,000 premium keys:
//   es        Elasticsearch alone, replaying the scenario's own reads (request cache on);
//   api       the API with its response cache, the production way;
//   floor     bare Koa plus the API's one admission round trip and quota headers, answering a
//             fixed body (bench/api/admission-floor.ts): a reference minimum, since the API must
//             also route, look up its cache and carry the contract's other headers;
//   koa       bare Koa answering the same fixed body: the framework alone.
// The fixed body is the median-sized answer among the scenario's first 50 requests.
// Prints medians over rounds of requests/s and CPU per request of the API process (or floor, or
// Koa), Elasticsearch and Redis, and the ratios the goals are stated in. A run with errors
// or non-2xx answers (a spent quota answers cheaper than a served request) exits 1 after the table.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { median } from './ab-stats.js';
import { captureEsRequests } from './capture-es.js';
import { pinElasticsearch, pinningNote } from './cpu-pinning.js';
import { datasetAlias, ensureDataset } from './datasets.js';
import { type Measurement, type Target, measure } from './measure.js';
import { parseScenario, parseSize, sizeLabel } from './options.js';
import { type Running, createBenchKeys, startAdmissionFloor, startApi, startBareKoa, startRedis } from './processes.js';
import { readRequestFile, writeRequestFiles } from './request-files.js';
import { buildWorkload } from './workloads.js';

const say = (line: string) => process.stderr.write(`floor: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    scenarios: { type: 'string', default: 'get-random,zipf-mix' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    out: { type: 'string' },
  },
});
const scenarios = values.scenarios.split(',').map(parseScenario);
const size = parseSize(values.size);
const rounds = Number(values.rounds);
const seconds = Number(values.duration);

/** The median-sized answer among the first requests of a request file, fetched from the API. */
async function medianBody(apiUrl: string, file: string, key: string): Promise<string> {
  const bodies: string[] = [];
  for (const line of readRequestFile(file).slice(0, 50)) {
    const res = await fetch(`${apiUrl}${line.path}`, { headers: { Authorization: `Bearer ${key}` } });
    const text = await res.text();
    if (res.status === 200) bodies.push(text);
  }
  if (bodies.length === 0) throw new Error(`no request of ${file} answered 200`);
  return bodies.sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)]!;
}

const ms = (x: number | null) => (x === null ? '–' : x.toFixed(3));

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const runDir = mkdtempSync(join(tmpdir(), 'wallpaper-floor-'));
  const stops: Running[] = [];
  let redis: Redis | null = null;
  const unpin = await pinElasticsearch(es);
  const lines: string[] = [];
  // Runs with errors or non-2xx answers, said below the table.
  const failures: string[] = [];
  try {
    const alias = datasetAlias(size);
    await ensureDataset(es, size, config.imageBaseUrl, say);
    const redisServer = await startRedis();
    stops.push(redisServer);
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const keysFile = join(runDir, 'keys.txt');
    const [key] = (await createBenchKeys(redisServer.url, keysFile)) as [string];
    const api = await startApi({ cwd: ROOT, alias, redisUrl: redisServer.url, key });
    stops.push(api);
    const ctx = { es, redis, connections: Number(values.connections), threads: 1 };

    lines.push(
      `# A reference minimum (the floor) against the API and Elasticsearch alone, ${sizeLabel(size)} (${new Date().toISOString()})`,
      '',
      `\`npx tsx bench/api/floor.ts --size ${values.size} --scenarios ${values.scenarios} --rounds ${rounds} --duration ${seconds}\`; ` +
        `wrk, ${values.connections} connections, 2,000 premium keys; medians of ${rounds} rounds. ${pinningNote() ?? 'Nothing pinned.'}`,
      '',
      '| scenario | target | req/s | each round | × Elasticsearch alone | CPU ms/req: own process | Elasticsearch | Redis | own CPU × bare Koa | EVALSHA/req |',
      '|---|---|--:|---|--:|--:|--:|--:|--:|--:|',
    );
    for (const scenario of scenarios) {
      const workload = buildWorkload(scenario, size, 1);
      const files = writeRequestFiles(runDir, scenario, workload, await captureEsRequests(alias, workload), {});
      const bodyFile = join(runDir, `${scenario}-body.json`);
      writeFileSync(bodyFile, await medianBody(api.url, files.api, key));
      const floor = await startAdmissionFloor(ROOT, bodyFile, redisServer.url, key);
      stops.push(floor);
      const koa = await startBareKoa(ROOT, bodyFile);
      stops.push(koa);
      const targets: Target[] = [
        { name: 'es', kind: 'es', file: 'es', url: config.elasticsearchUrl },
        { name: 'api', kind: 'api', file: 'api', url: api.url, pid: api.pid, keysFile },
        { name: 'floor', kind: 'api', file: 'api', url: floor.url, pid: floor.pid, keysFile },
        { name: 'koa', kind: 'koa', file: 'api', url: koa.url, pid: koa.pid },
      ];
      const runs = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < targets.length; i++) {
          const target = targets[(i + round) % targets.length]!;
          say(`${scenario}, round ${round + 1}, ${target.name}`);
          runs.get(target.name)!.push(await measure(ctx, target, files, { seconds, warmupSeconds: Number(values.warmup), alias }));
        }
      }
      for (const running of stops.splice(-2)) await running.stop();
      const of = (name: string, pick: (m: Measurement) => number | null) => {
        const xs = runs
          .get(name)!
          .map(pick)
          .filter((x): x is number => x !== null);
        return xs.length > 0 ? median(xs) : null;
      };
      const esRps = of('es', (m) => m.rps)!;
      const koaCpu = of('koa', (m) => m.cpuMsPerRequest.api)!;
      for (const { name } of targets) {
        const own = of(name, (m) => m.cpuMsPerRequest.api);
        const redisCalls = of(name, (m) => m.redisPerRequest?.evalsha ?? null);
        const rps = of(name, (m) => m.rps)!;
        const eachRound = runs
          .get(name)!
          .map((m) => m.rps.toFixed(0))
          .join(', ');
        lines.push(
          `| ${scenario} | ${name} | ${rps.toFixed(0)} | ${eachRound} | ${(rps / esRps).toFixed(2)} | ${ms(own)} | ` +
            `${ms(of(name, (m) => m.cpuMsPerRequest.es))} | ${ms(of(name, (m) => m.cpuMsPerRequest.redis))} | ` +
            `${own === null ? '–' : (own / koaCpu).toFixed(2)} | ${redisCalls === null ? '–' : redisCalls.toFixed(2)} |`,
        );
      }
      const errors = targets.flatMap(({ name }) =>
        runs
          .get(name)!
          .filter((m) => m.errors + m.non2xx > 0)
          .map((m) => `${name}: ${m.errors} errors, ${m.non2xx} non-2xx`),
      );
      if (errors.length > 0) failures.push(`**${scenario}: not a valid comparison**, runs with failures: ${errors.join('; ')}.`);
    }
    if (failures.length > 0) lines.push('', ...failures);
    const report = `${lines.join('\n')}\n`;
    process.stdout.write(report);
    if (values.out) writeFileSync(values.out, report);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    unpin();
    redis?.disconnect();
    for (const running of stops.reverse()) await running.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    process.stderr.write(`floor: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
