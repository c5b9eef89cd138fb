// Where the API's CPU per request goes, per scenario, uncached and cached:
//   npx tsx bench/api/profile.ts [--size 100k] [--scenarios get-random,search-mix,zipf-mix] [--seconds 20] [--out bench/results/profile] [--keep-profiles]
// Each scenario runs against an API process of its own started the production way with
// `--cpu-prof`, driven by wrk from the 2,000 bench keys in turn (as `npm run bench`), for a warm-up
// and then `--seconds`; the profile (written when the process exits) is summed over that run into buckets
// (cpu-profile-buckets.ts) and reported as a share of busy time and as CPU microseconds per
// request. Needs the local stack and wrk, like the benchmark.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { type Scenario, SCENARIOS, parseSize } from './options.js';
import { type ProfileSummary, summarizeProfile } from './cpu-profile-buckets.js';
import { DATASET_SEED, datasetAlias, ensureDataset } from './datasets.js';
import { createBenchKeys, startApi, startRedis } from './processes.js';
import { mainThreadCpuSeconds, processCpuSeconds } from './resource-stats.js';
import { runWrk } from './wrk.js';
import { apiPath, buildWorkload } from './workloads.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    scenarios: { type: 'string', default: 'get-random,search-mix,zipf-mix' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '16' },
    out: { type: 'string', default: 'bench/results/profile' },
    // Keeps each run's .cpuprofile in --out, to read in DevTools or to walk callers.
    'keep-profiles': { type: 'boolean', default: false },
  },
});
const SIZE = parseSize(values.size);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const scenarios = values.scenarios.split(',') as Scenario[];
for (const s of scenarios) if (!SCENARIOS.includes(s)) throw new Error(`unknown scenario ${s}; one of ${SCENARIOS.join(', ')}`);

const say = (line: string) => process.stderr.write(`profile: ${line}\n`);

interface Row {
  scenario: Scenario;
  cached: boolean;
  requests: number;
  rps: number;
  cpuUsPerRequest: number;
  /** Of which the main (JavaScript) thread's. */
  mainUsPerRequest: number;
  summary: ProfileSummary;
}

async function profileOne(
  scenario: Scenario,
  cached: boolean,
  ctx: { alias: string; redisUrl: string; key: string; keysFile: string; dir: string },
): Promise<Row> {
  const profDir = join(ctx.dir, `${scenario}-${cached ? 'cached' : 'uncached'}`);
  mkdirSync(profDir, { recursive: true });
  const file = join(ctx.dir, `${scenario}.api.txt`);
  writeFileSync(
    file,
    `${buildWorkload(scenario, SIZE, DATASET_SEED)
      .map((spec) => `GET\t${apiPath(spec)}\t\t`)
      .join('\n')}\n`,
  );
  const api = await startApi({
    cwd: ROOT,
    alias: ctx.alias,
    redisUrl: ctx.redisUrl,
    key: ctx.key,
    // No drain on SIGTERM: the profile is written at exit, and a slow exit is killed.
    env: { SHUTDOWN_DRAIN_MS: '0', ...(cached ? {} : { RESPONSE_CACHE_MB: '0' }) },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
  });
  try {
    // Warm-up (JIT, pools, the cache); left out of the profile's sum like start-up.
    await runWrk({ url: api.url, file, keysFile: ctx.keysFile, seconds: 2, connections: CONNECTIONS, threads: 1 });
    const cpuBefore = processCpuSeconds(api.pid);
    const mainBefore = mainThreadCpuSeconds(api.pid);
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const run = await runWrk({ url: api.url, file, keysFile: ctx.keysFile, seconds: SECONDS, connections: CONNECTIONS, threads: 1 });
    const cpu = processCpuSeconds(api.pid) - cpuBefore;
    const main = mainThreadCpuSeconds(api.pid) - mainBefore;
    const toUs = Number(process.hrtime.bigint() / 1000n);
    if (run.errors > 0 || run.non2xx > 0) throw new Error(`${scenario}: ${run.errors} errors, ${run.non2xx} non-2xx`);
    await api.stop();
    const [profile] = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
    if (!profile) throw new Error(`${scenario}: the API wrote no profile`);
    if (values['keep-profiles']) {
      mkdirSync(values.out, { recursive: true });
      copyFileSync(join(profDir, profile), join(values.out, `${scenario}${cached ? '-cached' : ''}-${values.size}.cpuprofile`));
    }
    return {
      scenario,
      cached,
      requests: run.requests,
      rps: run.rps,
      cpuUsPerRequest: (cpu * 1e6) / run.requests,
      mainUsPerRequest: (main * 1e6) / run.requests,
      // The profile runs from start-up to exit; the API's clock and this one are the same monotonic clock.
      summary: summarizeProfile(join(profDir, profile), { fromUs, toUs }),
    };
  } finally {
    await api.stop();
  }
}

function report(rows: Row[]): string {
  const lines = [
    '# Where the API spends its CPU per request',
    '',
    `${new Date().toISOString()}, \`npx tsx bench/api/profile.ts --size ${values.size} --seconds ${SECONDS}\`: ${SIZE.toLocaleString('en')} wallpapers, wrk with ${CONNECTIONS} connections from 2,000 premium keys in turn, ${SECONDS} s per run after 2 s of warm-up; one API process per run, started the production way with \`--cpu-prof\`. Node ${process.version}.`,
    '',
    "Each bucket is its share of the main thread's busy time in the measured run (idle left out) and that share of the main thread's CPU per request (from /proc: samples count wall time, which on a busy machine holds time the thread waited for a core). A sample goes to the innermost frame on its stack that is ours or a package's (so `JSON.parse` called by the Elasticsearch client is the client's); a stack of node internals alone to the internal module (the HTTP parser, socket writes).",
  ];
  const buckets = [...new Set(rows.flatMap((r) => r.summary.buckets.filter((b) => b.share >= 0.01).map((b) => b.bucket)))];
  const header = rows.map((r) => `${r.scenario}${r.cached ? ' cached' : ''}`);
  lines.push('', `| bucket | ${header.join(' | ')} |`, `|---|${header.map(() => '--:').join('|')}|`);
  lines.push(`| **CPU µs per request, the whole process** | ${rows.map((r) => `**${r.cpuUsPerRequest.toFixed(0)}**`).join(' | ')} |`);
  lines.push(`| of which the main thread, µs per request | ${rows.map((r) => r.mainUsPerRequest.toFixed(0)).join(' | ')} |`);
  lines.push(
    `| other threads (GC helpers, JIT, zlib, the sentence model), µs per request | ${rows.map((r) => (r.cpuUsPerRequest - r.mainUsPerRequest).toFixed(0)).join(' | ')} |`,
  );
  lines.push(`| requests/s | ${rows.map((r) => r.rps.toFixed(0)).join(' | ')} |`);
  for (const bucket of buckets) {
    const cells = rows.map((r) => {
      const b = r.summary.buckets.find((x) => x.bucket === bucket);
      return b ? `${(b.share * 100).toFixed(1)} % · ${(b.share * r.mainUsPerRequest).toFixed(0)} µs` : '–';
    });
    lines.push(`| ${bucket} | ${cells.join(' | ')} |`);
  }
  for (const row of rows) {
    lines.push(
      '',
      `Functions with the most time of their own, ${row.scenario}${row.cached ? ' cached' : ''}:`,
      '',
      '| function | bucket | share | µs per request |',
      '|---|---|--:|--:|',
    );
    for (const f of row.summary.functions)
      lines.push(`| \`${f.fn}\` | ${f.bucket} | ${(f.share * 100).toFixed(1)} % | ${(f.share * row.mainUsPerRequest).toFixed(0)} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 300_000 });
  const dir = mkdtempSync(join(tmpdir(), 'wallpaper-profile-'));
  const redis = await startRedis();
  try {
    await ensureDataset(es, SIZE, config.imageBaseUrl, say);
    const keysFile = join(dir, 'keys.txt');
    const [key] = (await createBenchKeys(redis.url, keysFile)) as [string];
    const ctx = { alias: datasetAlias(SIZE), redisUrl: redis.url, key, keysFile, dir };
    const rows: Row[] = [];
    for (const cached of [false, true]) {
      for (const scenario of scenarios) {
        say(`${scenario}${cached ? ' cached' : ''}`);
        rows.push(await profileOne(scenario, cached, ctx));
      }
    }
    mkdirSync(values.out, { recursive: true });
    const out = join(values.out, `profile-${values.size}.md`);
    writeFileSync(out, report(rows));
    say(`written to ${out}`);
  } finally {
    await redis.stop();
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
