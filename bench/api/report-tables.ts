import type { Measurement } from './measure.js';
import { sizeLabel } from './options.js';
import type { RoundTripAudit } from './redis-stats.js';
import type { BenchResults, SeriesPoint } from './bench-results.js';

export const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
export const f1 = (n: number) => n.toFixed(1);
export const f2 = (n: number) => n.toFixed(2);
export const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${f2(a / b)}×` : '–');
export const lat = (m: { p50Ms: number; p90Ms: number; p99Ms: number } | undefined) => (m ? `${f1(m.p50Ms)} / ${f1(m.p90Ms)} / ${f1(m.p99Ms)}` : '–');
export const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export function apiTargets(results: BenchResults): string[] {
  const names = new Set<string>();
  for (const { measurements } of results.scenarios) for (const name of Object.keys(measurements)) if (!name.startsWith('es')) names.add(name);
  return [...names];
}

export function throughputTable(results: BenchResults): string[] {
  const apis = apiTargets(results);
  const lines = [
    row(['scenario', 'es req/s', 'es-no-rc req/s', ...apis.flatMap((name) => [`${name} req/s`, `${name}/es`, `${name}/es-no-rc`])]),
    row(['---', '---:', '---:', ...apis.flatMap(() => ['---:', '---:', '---:'])]),
  ];
  for (const { scenario, measurements } of results.scenarios) {
    const es = measurements['es']?.rps;
    const noCache = measurements['es-no-rc']?.rps;
    const cells = apis.flatMap((name) => [
      f0(measurements[name]?.rps ?? 0),
      ratio(measurements[name]?.rps, es),
      ratio(measurements[name]?.rps, noCache),
    ]);
    lines.push(row([scenario, f0(es ?? 0), noCache === undefined ? '–' : f0(noCache), ...cells]));
  }
  return lines;
}

export function latencyTable(results: BenchResults): string[] {
  const names = ['es', 'es-no-rc', ...apiTargets(results)];
  const lines = [row(['scenario', ...names.map((name) => `${name} p50 / p90 / p99 ms`)]), row(['---', ...names.map(() => '---:')])];
  for (const { scenario, measurements } of results.scenarios) lines.push(row([scenario, ...names.map((name) => lat(measurements[name]))]));
  return lines;
}

export function resourceTable(results: BenchResults): string[] {
  const lines = [
    row([
      'scenario',
      'target',
      'requests',
      'errors',
      'non-2xx',
      'peak RSS MB',
      'EVALSHA/req',
      'Redis commands/req (scripts included)',
      'Redis round trips/req (MONITOR)',
      'CPU ms/req API / ES / Redis',
      'ES calls/req',
      'ES request-cache hits',
      'ES connections opened',
    ]),
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
        audit
          ? `${f2(audit.perRequest)} (${Object.entries(audit.commands)
              .map(([c, n]) => `${c} ${n}`)
              .join(', ')} in ${audit.requests})`
          : '–',
        `${m.cpuMsPerRequest.api === null ? '–' : f2(m.cpuMsPerRequest.api)} / ${f2(m.cpuMsPerRequest.es)} / ${f2(m.cpuMsPerRequest.redis)}`,
        m.esCallsPerRequest === null ? '–' : f2(m.esCallsPerRequest),
        m.esRequestCacheHitRatio === null ? '–' : `${Math.round(m.esRequestCacheHitRatio * 100)}%`,
        m.esConnectionsOpened,
      ]),
    );
  for (const { scenario, measurements, roundTrips } of results.scenarios)
    for (const m of Object.values(measurements)) add(scenario, m, roundTrips[m.target]);
  if (results.koa) add('fixed body', results.koa);
  return lines;
}

export function fixedRateTable(results: BenchResults): string[] {
  const lines = [
    row([
      'scenario',
      'rate req/s',
      'ES p50 / p90 / p99 ms',
      'API p50 / p90 / p99 ms',
      'API cached p50 / p90 / p99 ms',
      'API errors + non-2xx',
      'generator late p99 / max ms (API run)',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const { scenario } of results.scenarios) {
    const es = results.fixedRate.find((r) => r.scenario === scenario && r.target === 'es');
    const api = results.fixedRate.find((r) => r.scenario === scenario && r.target === 'api');
    const cached = results.fixedRate.find((r) => r.scenario === scenario && r.target === 'api-cached');
    const failed = [api, cached].reduce((sum, r) => sum + (r ? r.errors + r.non2xx : 0), 0);
    // Results saved before the generator timed itself have no lateness.
    const late = api && typeof api.lateP99Ms === 'number' ? `${f1(api.lateP99Ms)} / ${f1(api.lateMaxMs)}` : '–';
    if (api) lines.push(row([scenario, f0(api.rate), lat(es), lat(api), cached ? lat(cached) : '–', failed, late]));
  }
  return lines;
}

export const requestName = (kind: string | undefined) => (kind === 'get' ? 'get by id' : `${kind} page 1`);

export function seriesTable(points: SeriesPoint[], rowKey: (p: SeriesPoint) => string): string[] {
  const targets = [...new Set(points.map((p) => p.target))];
  const lines = [
    row(['', ...targets.flatMap((t) => [`${t} warm p50 / p90 / p99 ms`, `${t} cold p50 / p90 ms`])]),
    row(['---', ...targets.flatMap(() => ['---:', '---:'])]),
  ];
  for (const r of [...new Set(points.map(rowKey))]) {
    const cells = targets.flatMap((t) => {
      const p = points.find((q) => rowKey(q) === r && q.target === t);
      return p ? [lat(p), `${f1(p.cold.p50Ms)} / ${f1(p.cold.p90Ms)}`] : ['–', '–'];
    });
    lines.push(row([r, ...cells]));
  }
  return lines;
}

export function growthTable(points: SeriesPoint[]): string[] {
  const sizes = [...new Set(points.map((p) => p.docs))].sort((a, b) => a - b);
  const smallest = sizes[0];
  const largest = sizes.at(-1);
  if (smallest === undefined || largest === undefined || smallest === largest) return [];
  const by = `${sizeLabel(largest)} / ${sizeLabel(smallest)}`;
  const lines = [row(['request', 'target', `warm p50 ${by}`, `warm p99 ${by}`, `cold p50 ${by}`]), row(['---', '---', '---:', '---:', '---:'])];
  for (const kind of ['list', 'get', 'search']) {
    for (const target of ['es', 'api']) {
      const at = (docs: number) => points.find((p) => p.kind === kind && p.target === target && p.docs === docs);
      const small = at(smallest);
      const big = at(largest);
      if (small && big)
        lines.push(
          row([requestName(kind), target, ratio(big.p50Ms, small.p50Ms), ratio(big.p99Ms, small.p99Ms), ratio(big.cold.p50Ms, small.cold.p50Ms)]),
        );
    }
  }
  return lines;
}
