import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { throughputChart } from './chart.js';
import type { FixedRateResult } from './fixed-rate.js';
import type { Measurement, RequestFiles } from './measure.js';
import type { RoundTripAudit } from './redis-stats.js';
import { type BenchOptions, type Scenario, sizeLabel } from './options.js';

export interface SeriesPoint {
  kind?: string;
  page?: number;
  docs: number;
  target: string;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  rps: number;
  errors: number;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  loadAverage: { before: number[]; after: number[] };
  options: BenchOptions;
  compareSha: string | null;
  docs: number;
  scenarios: { scenario: Scenario; files: RequestFiles; measurements: Record<string, Measurement>; roundTrips: Record<string, RoundTripAudit> }[];
  koa: Measurement | null;
  fixedRate: (FixedRateResult & { scenario: Scenario; target: string })[];
  sizeSeries: SeriesPoint[];
  depthSeries: SeriesPoint[];
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${f2(a / b)}×` : '–');
const lat = (m: { p50Ms: number; p90Ms: number; p99Ms: number } | undefined) => (m ? `${f1(m.p50Ms)} / ${f1(m.p90Ms)} / ${f1(m.p99Ms)}` : '–');
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

function apiTargets(results: BenchResults): string[] {
  const names = new Set<string>();
  for (const { measurements } of results.scenarios) for (const name of Object.keys(measurements)) if (name !== 'es') names.add(name);
  return [...names];
}

function throughputTable(results: BenchResults): string[] {
  const apis = apiTargets(results);
  const lines = [
    row(['scenario', 'ES req/s', ...apis.flatMap((name) => [`${name} req/s`, `${name}/ES`])]),
    row(['---', ...Array(1 + apis.length * 2).fill('---:')]),
  ];
  for (const { scenario, measurements } of results.scenarios) {
    const es = measurements['es']?.rps;
    lines.push(row([scenario, f0(es ?? 0), ...apis.flatMap((name) => [f0(measurements[name]?.rps ?? 0), ratio(measurements[name]?.rps, es)])]));
  }
  return lines;
}

function latencyTable(results: BenchResults): string[] {
  const names = ['es', ...apiTargets(results)];
  const lines = [row(['scenario', ...names.map((name) => `${name} p50 / p90 / p99 ms`)]), row(['---', ...names.map(() => '---:')])];
  for (const { scenario, measurements } of results.scenarios) lines.push(row([scenario, ...names.map((name) => lat(measurements[name]))]));
  return lines;
}

function resourceTable(results: BenchResults): string[] {
  const lines = [
    row(['scenario', 'target', 'requests', 'errors', 'non-2xx', 'peak RSS MB', 'EVALSHA/req', 'Redis commands/req (scripts included)', 'Redis round trips/req (MONITOR)', 'CPU ms/req API / ES / Redis', 'ES calls/req', 'ES request-cache hits', 'ES connections opened']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const add = (scenario: string, m: Measurement, audit?: RoundTripAudit) =>
    lines.push(
      row([
        scenario,
        m.target,
        f0(m.requests),
        m.errors,
        m.non2xx,
        m.rssPeakMb === null ? '–' : f0(m.rssPeakMb),
        m.redisPerRequest ? f2(m.redisPerRequest.evalsha) : '–',
        m.redisPerRequest ? f2(m.redisPerRequest.total) : '–',
        audit ? `${f2(audit.perRequest)} (${Object.entries(audit.commands).map(([c, n]) => `${c} ${n}`).join(', ')} in ${audit.requests})` : '–',
        `${m.cpuMsPerRequest.api === null ? '–' : f2(m.cpuMsPerRequest.api)} / ${f2(m.cpuMsPerRequest.es)} / ${f2(m.cpuMsPerRequest.redis)}`,
        m.esCallsPerRequest === null ? '–' : f2(m.esCallsPerRequest),
        m.esRequestCacheHitRatio === null ? '–' : `${Math.round(m.esRequestCacheHitRatio * 100)}%`,
        m.esConnectionsOpened,
      ]),
    );
  for (const { scenario, measurements, roundTrips } of results.scenarios) for (const m of Object.values(measurements)) add(scenario, m, roundTrips[m.target]);
  if (results.koa) add('fixed body', results.koa);
  return lines;
}

function fixedRateTable(results: BenchResults): string[] {
  const lines = [row(['scenario', 'rate req/s', 'ES p50 / p90 / p99 ms', 'API p50 / p90 / p99 ms', 'API errors + non-2xx']), row(['---', '---:', '---:', '---:', '---:'])];
  for (const { scenario } of results.scenarios) {
    const es = results.fixedRate.find((r) => r.scenario === scenario && r.target === 'es');
    const api = results.fixedRate.find((r) => r.scenario === scenario && r.target === 'api');
    if (api) lines.push(row([scenario, f0(api.rate), lat(es), lat(api), api.errors + api.non2xx]));
  }
  return lines;
}

function seriesTable(points: SeriesPoint[], column: (p: SeriesPoint) => string, rowKey: (p: SeriesPoint) => string): string[] {
  const columns = [...new Set(points.map(column))];
  const rows = [...new Set(points.map(rowKey))];
  const lines = [row(['', ...columns.map((c) => `${c} p50 / p90 / p99 ms`)]), row(['---', ...columns.map(() => '---:')])];
  for (const r of rows) lines.push(row([r, ...columns.map((c) => lat(points.find((p) => rowKey(p) === r && column(p) === c)))]));
  return lines;
}

function growthTable(points: SeriesPoint[]): string[] {
  const sizes = [...new Set(points.map((p) => p.docs))].sort((a, b) => a - b);
  const smallest = sizes[0];
  const largest = sizes.at(-1);
  if (smallest === undefined || largest === undefined || smallest === largest) return [];
  const lines = [row(['request', 'target', `p50 ${sizeLabel(largest)} / ${sizeLabel(smallest)}`, `p99 ${sizeLabel(largest)} / ${sizeLabel(smallest)}`]), row(['---', '---', '---:', '---:'])];
  for (const kind of ['list', 'get', 'search']) {
    for (const target of ['es', 'api']) {
      const at = (docs: number) => points.find((p) => p.kind === kind && p.target === target && p.docs === docs);
      const small = at(smallest);
      const big = at(largest);
      if (small && big) lines.push(row([`${kind} page 1`, target, ratio(big.p50Ms, small.p50Ms), ratio(big.p99Ms, small.p99Ms)]));
    }
  }
  return lines;
}

export function markdownReport(results: BenchResults): string {
  const o = results.options;
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  const parts = [
    `# API benchmark: ${sizeLabel(results.docs)} wallpapers`,
    '',
    `Run ${results.startedAt} → ${results.finishedAt}; load average before ${load(results.loadAverage.before)}, after ${load(results.loadAverage.after)}.`,
    `wrk over loopback, ${o.connections} connections, ${o.threads} thread(s), ${o.durationSeconds} s per run after ${o.warmupSeconds} s of warm-up; every target in the same run.`,
    '`es` replays the very requests the API sends to Elasticsearch; `api` has the response cache off (RESPONSE_CACHE_MB=0), `api-cached` has it on' +
      (results.compareSha ? `; \`api@${results.compareSha}\` runs the performance files of ${results.compareSha}.` : '.'),
    '',
    '## Throughput',
    '',
    ...throughputTable(results),
    '',
    '## Latency under that load',
    '',
    ...latencyTable(results),
    '',
    '## Errors, memory, Redis round trips, CPU',
    '',
    ...resourceTable(results),
  ];
  if (results.koa) {
    const api = results.scenarios.find((s) => s.scenario === 'list-page1')?.measurements['api'];
    parts.push('', `Bare Koa with a fixed body of the same size: ${f0(results.koa.rps)} req/s; the API's list-page1 is ${ratio(api?.rps, results.koa.rps)} of it.`);
  }
  if (results.fixedRate.length > 0) {
    parts.push('', `## Fixed rate at half the API's maximum (open model, ${o.fixedRateSeconds} s, latency from the scheduled send time)`, '', ...fixedRateTable(results));
  }
  if (results.sizeSeries.length > 0) {
    parts.push(
      '',
      `## Latency vs collection size (one connection, ${o.seriesSeconds} s per point)`,
      '',
      ...seriesTable(results.sizeSeries, (p) => p.target, (p) => `${p.kind} page 1, ${sizeLabel(p.docs)}`),
      '',
      ...growthTable(results.sizeSeries),
    );
  }
  if (results.depthSeries.length > 0) {
    parts.push(
      '',
      `## Latency vs page depth (list, per_page 20, ${sizeLabel(results.docs)}, one connection)`,
      '',
      ...seriesTable(results.depthSeries, (p) => p.target, (p) => `page ${p.page}`),
    );
  }
  return `${parts.join('\n')}\n`;
}

export function summaryLines(results: BenchResults): string[] {
  return results.scenarios.map(({ scenario, measurements }) => {
    const es = measurements['es']?.rps;
    const others = Object.values(measurements)
      .filter((m) => m.target !== 'es')
      .map((m) => `${m.target}/ES ${ratio(m.rps, es)}`);
    return `${scenario.padEnd(14)} ES ${f0(es ?? 0).padStart(7)} req/s  ${others.join('  ')}`;
  });
}

/** Writes <out>/api-bench.{json,md,svg}; prints the API/Elasticsearch ratios. */
export function writeReports(outDir: string, results: BenchResults): string[] {
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `api-bench-${sizeLabel(results.docs)}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(results, (name, value: unknown) => (name === 'files' ? undefined : value), 2)}\n`);
  writeFileSync(`${base}.md`, markdownReport(results));
  writeFileSync(`${base}.svg`, throughputChart(results));
  process.stdout.write(`${summaryLines(results).join('\n')}\n`);
  return [`${base}.md`, `${base}.svg`, `${base}.json`];
}
