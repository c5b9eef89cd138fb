// The API benchmark: npm run bench -- --help
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { captureEsRequests } from './capture-es.js';
import { pinElasticsearch } from './cpu-pinning.js';
import { cursorWorkload } from './cursor-workload.js';
import { coldLatency } from './cold-latency.js';
import { buildCompareTree } from './compare-tree.js';
import { datasetAlias, dropDataset, ensureDataset } from './datasets.js';
import { runFixedRate } from './fixed-rate.js';
import { type MeasureContext, type Measurement, type RequestFiles, type Target, measure } from './measure.js';
import { BENCH_USAGE, type BenchOptions, parseBenchArgs, sizeLabel } from './options.js';
import { type Running, createBenchKeys, hasCommand, startApi, startBareKoa, startRedis } from './processes.js';
import { type RoundTripAudit, auditRoundTrips } from './redis-stats.js';
import { writeRequestFiles } from './request-files.js';
import type { BenchResults, SeriesPoint } from './bench-results.js';
import { writeReports } from './report.js';
import { FULL_SIZES, SMOKE_SIZES, type Workload, buildWorkload, seriesWorkload } from './workloads.js';

const say = (line: string) => process.stderr.write(`bench: ${line}\n`);
const ROOT = resolve(import.meta.dirname, '../..');
const COLD_SAMPLES = 30;

async function filesFor(dir: string, name: string, alias: string, workload: Workload, acceptEncoding: string | null): Promise<RequestFiles> {
  const captured = await captureEsRequests(alias, workload);
  return writeRequestFiles(dir, name, workload, captured, acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {});
}

function rotate<T>(items: T[], by: number): T[] {
  return items.map((_, i) => items[(i + by) % items.length] as T);
}

async function main(options: BenchOptions): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  // Outside the repository: request files are large, and a compare tree must not be type-checked with bench/.
  const runDir = mkdtempSync(join(tmpdir(), 'wallpaper-bench-'));
  const stops: Running[] = [];
  const started = new Date();
  const loadBefore = loadavg();
  let redis: Redis | null = null;
  let unpin = () => undefined as void;
  try {
    unpin = await pinElasticsearch(es);
    const sizes = [...new Set([options.size, ...options.scalingSizes])];
    for (const size of sizes) await ensureDataset(es, size, config.imageBaseUrl, say);

    // Without redis-server (a container setup), the shared Redis: its counters then include other clients.
    const redisServer: Running = (await hasCommand('redis-server'))
      ? await startRedis()
      : { pid: 0, url: config.redisUrl, stop: async () => undefined };
    stops.push(redisServer);
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const keysFile = join(runDir, 'keys.txt');
    const [key] = (await createBenchKeys(redisServer.url, keysFile)) as [string];
    const ctx: MeasureContext = { es, redis, connections: options.connections, threads: options.threads };
    const esTarget: Target = { name: 'es', kind: 'es', file: 'es', url: config.elasticsearchUrl };
    const esNoRequestCache: Target = { name: 'es-no-rc', kind: 'es', file: 'esNoRequestCache', url: config.elasticsearchUrl };
    const api = (running: Running, name: string): Target => ({ name, kind: 'api', file: 'api', url: running.url, pid: running.pid, keysFile });
    const launch = async (alias: string, env: Record<string, string>, cwd = ROOT, node = process.execPath) => {
      const running = await startApi({ cwd, alias, redisUrl: redisServer.url, key, env, node });
      stops.push(running);
      return running;
    };
    const uncached = { RESPONSE_CACHE_MB: '0' };

    const mainAlias = datasetAlias(options.size);
    const targets: Target[] = [esTarget, esNoRequestCache, api(await launch(mainAlias, uncached), 'api')];
    if (options.cache) targets.push(api(await launch(mainAlias, {}), 'api-cached'));
    let compareSha: string | null = null;
    if (options.compare) {
      const tree = join(runDir, 'compare-tree');
      compareSha = buildCompareTree(ROOT, options.compare, tree);
      targets.push(api(await launch(mainAlias, uncached, tree), `api@${compareSha}`));
      if (options.cache) targets.push(api(await launch(mainAlias, {}, tree), `api-cached@${compareSha}`));
    }
    if (options.compareNode) {
      const version = execFileSync(options.compareNode, ['--version'], { encoding: 'utf8' }).trim();
      targets.push(api(await launch(mainAlias, uncached, ROOT, options.compareNode), `api@node${version}`));
      if (options.cache) targets.push(api(await launch(mainAlias, {}, ROOT, options.compareNode), `api-cached@node${version}`));
    }

    const workloadSizes = options.smoke ? SMOKE_SIZES : FULL_SIZES;
    const scenarios: BenchResults['scenarios'] = [];
    let listPage1Files: RequestFiles | null = null;
    for (const [i, scenario] of options.scenarios.entries()) {
      const workload =
        scenario === 'cursor-deep'
          ? await cursorWorkload(es, mainAlias, options.size, options.seed, workloadSizes.filtered)
          : buildWorkload(scenario, options.size, options.seed, workloadSizes);
      const files = await filesFor(runDir, scenario, mainAlias, workload, options.acceptEncoding);
      if (scenario === 'list-page1') listPage1Files = files;
      const measured = new Map<string, Measurement>();
      for (const target of rotate(targets, i)) {
        say(`${scenario} on ${target.name}`);
        measured.set(
          target.name,
          await measure(ctx, target, files, { seconds: options.durationSeconds, warmupSeconds: options.warmupSeconds, alias: mainAlias }),
        );
      }
      const measurements = Object.fromEntries(targets.map(({ name }) => [name, measured.get(name) as Measurement]));
      const lines = readFileSync(files.api, 'utf8').split('\n').filter(Boolean);
      const paths = Array.from({ length: 50 }, (_, n) => (lines[n % lines.length] as string).split('\t')[1] as string);
      const roundTrips: Record<string, RoundTripAudit> = {};
      for (const target of targets)
        if (target.kind === 'api') roundTrips[target.name] = await auditRoundTrips(redisServer.url, target.url, key, paths);
      scenarios.push({ scenario, files, measurements, roundTrips });
    }

    let koa: Measurement | null = null;
    if (listPage1Files) {
      const bodyFile = join(runDir, 'koa-body.json');
      const res = await fetch(`${(targets.find((t) => t.name === 'api') as Target).url}/v1/wallpapers`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      writeFileSync(bodyFile, await res.text());
      const bare = await startBareKoa(ROOT, bodyFile);
      stops.push(bare);
      say('bare Koa');
      koa = await measure(ctx, { name: 'koa', kind: 'koa', file: 'api', url: bare.url, pid: bare.pid }, listPage1Files, {
        seconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
      });
    }

    const fixedRate: BenchResults['fixedRate'] = [];
    if (options.fixedRateSeconds > 0) {
      for (const { scenario, files, measurements } of scenarios) {
        const rate = options.rates[scenario] ?? Math.max(1, Math.round((measurements['api']?.rps ?? 0) / 2));
        for (const target of targets.filter((t) => t.name === 'es' || t.name === 'api' || t.name === 'api-cached')) {
          say(`${scenario} at ${rate}/s on ${target.name}`);
          const file = files[target.file];
          const result = await runFixedRate(ROOT, {
            url: target.url,
            file,
            keysFile: target.keysFile,
            rate,
            seconds: options.fixedRateSeconds,
            connections: 64,
          });
          fixedRate.push({ scenario, target: target.name, ...result });
        }
      }
    }
    for (const running of stops.splice(1)) await running.stop();

    const series = async (
      alias: string,
      docs: number,
      name: string,
      workload: Workload,
      label: Record<string, string | number>,
      apiTarget: Target,
    ) => {
      const files = await filesFor(runDir, name, alias, workload, options.acceptEncoding);
      const points: SeriesPoint[] = [];
      for (const target of [esTarget, apiTarget]) {
        const m = await measure(ctx, target, files, { seconds: options.seriesSeconds, warmupSeconds: 1, connections: 1, alias });
        const cold = await coldLatency(es, alias, target, files[target.file], COLD_SAMPLES);
        points.push({
          ...label,
          docs,
          target: target.name,
          p50Ms: m.p50Ms,
          p90Ms: m.p90Ms,
          p99Ms: m.p99Ms,
          rps: m.rps,
          errors: m.errors + m.non2xx,
          cold,
        });
      }
      return points;
    };

    const sizeSeries: SeriesPoint[] = [];
    for (const docs of options.scalingSizes) {
      const alias = datasetAlias(docs);
      const running = await launch(alias, uncached);
      for (const kind of ['list', 'get', 'search'] as const) {
        say(`${kind} page 1 at ${sizeLabel(docs)}`);
        sizeSeries.push(
          ...(await series(alias, docs, `size-${kind}-${sizeLabel(docs)}`, seriesWorkload(kind, docs, options.seed), { kind }, api(running, 'api'))),
        );
      }
      await running.stop();
    }

    const depthSeries: SeriesPoint[] = [];
    if (options.depthPages.length > 0) {
      const running = await launch(mainAlias, uncached);
      for (const page of options.depthPages) {
        say(`list page ${page}`);
        depthSeries.push(
          ...(await series(
            mainAlias,
            options.size,
            `depth-${page}`,
            seriesWorkload('list', options.size, options.seed, page),
            { page },
            api(running, 'api'),
          )),
        );
      }
      await running.stop();
    }

    const results: BenchResults = {
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      loadAverage: { before: loadBefore, after: loadavg() },
      options,
      compareSha,
      docs: options.size,
      scenarios,
      koa,
      fixedRate,
      sizeSeries,
      depthSeries,
    };
    const written = writeReports(resolve(ROOT, options.outDir), results);
    say(`wrote ${written.join(', ')}`);
  } finally {
    unpin();
    redis?.disconnect();
    for (const running of stops.reverse()) await running.stop().catch(() => undefined);
    if (!options.keepDatasets) {
      for (const size of new Set([options.size, ...options.scalingSizes])) if (size >= 1_000_000) await dropDataset(es, size);
    }
    await es.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

let options: BenchOptions | 'help';
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  say(`${err instanceof Error ? err.message : String(err)}\n${BENCH_USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(`${BENCH_USAGE}\n`);
} else {
  main(options).catch((err: unknown) => {
    say(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exitCode = 1;
  });
}
