import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinningNote } from './cpu-pinning.js';
import { throughputChart } from './chart.js';
import { f0, fixedRateTable, growthTable, latencyTable, ratio, requestName, resourceTable, seriesTable, throughputTable } from './report-tables.js';
import { targetsTable } from './report-targets.js';
import { sizeLabel } from './options.js';
import type { BenchResults } from './bench-results.js';

export function markdownReport(results: BenchResults): string {
  const o = results.options;
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  const parts = [
    `# API benchmark: ${sizeLabel(results.docs)} wallpapers`,
    '',
    `Run ${results.startedAt} → ${results.finishedAt} on ${o.smoke ? 'smoke settings' : 'full settings'}; load average (1, 5, 15 min) before ${load(results.loadAverage.before)}, after ${load(results.loadAverage.after)}.`,
    `wrk over loopback, ${o.connections} connections, ${o.threads} thread(s), ${o.durationSeconds} s per run after ${o.warmupSeconds} s of warm-up; every target in the same run, one after the other, the order rotated per scenario.`,
    'Targets: `es` sends Elasticsearch, one request per API request, the very query the API runs (built by its query builders and client, captured on the wire) as a direct `_search` or `_doc` get; `es-no-rc` the same with request_cache=false, i.e. Elasticsearch doing the query work every time; `api` is the API with its response cache off',
    '(RESPONSE_CACHE_MB=0), `api-cached` with it on' +
      (results.compareSha
        ? `; \`api@${results.compareSha}\` and \`api-cached@${results.compareSha}\` the same with the server source (\`src/\`) as it was at ${results.compareSha}.`
        : '.') +
      (o.compareNode
        ? ` Targets ending in \`@node<version>\` are the working tree's API run by ${o.compareNode} instead of ${process.version}.`
        : ''),
    `The load comes from many API keys taken in turn, each within its tier; the API runs on Node ${process.version} unless a target says otherwise.` +
      (pinningNote() ? ` Pinned with taskset: ${pinningNote()}.` : ''),
    o.acceptEncoding
      ? `Every API request carries \`Accept-Encoding: ${o.acceptEncoding}\`, as clients send it; Elasticsearch's requests do not.`
      : 'API requests carry no `Accept-Encoding`, so no answer is compressed.',
    "Elasticsearch's request and query caches are emptied before each target's warm-up, so no target rides on another's work.",
    '',
    '## Targets',
    '',
    ...targetsTable(results),
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
    'RSS: peak VmRSS of the API process during the run. Redis: the bench has a Redis of its own; commandstats count the commands scripts run inside Redis too, so round trips are counted with MONITOR over 50 requests. CPU per request: the API process, Elasticsearch (node-wide: other users of the node add to it) and Redis. ES calls: searches and gets that reached the benchmark index, from its own stats.',
    '',
    ...resourceTable(results),
  ];
  if (results.koa) {
    const api = results.scenarios.find((s) => s.scenario === 'list-page1')?.measurements['api'];
    parts.push(
      '',
      `Framework ceiling: bare Koa answering the list-page1 body (fixed object, serialised per request, no authentication, no backend): ${f0(results.koa.rps)} req/s; the uncached API's list-page1 is ${ratio(api?.rps, results.koa.rps)} of it.`,
    );
  }
  if (results.fixedRate.length > 0) {
    parts.push(
      '',
      `## Fixed rate at half the API's maximum`,
      '',
      `wrk has no fixed-rate mode, so bench/api/fixed-rate-client.ts (a separate Node process, up to 64 keep-alive connections) sends requests on a fixed schedule for ${o.fixedRateSeconds} s, whatever the responses do, and counts each latency from the moment its request was due (no coordinated omission). The rate is half the uncached API's wrk throughput above; Elasticsearch gets the same rate. The generator also times itself: how late it sent its requests, which is in every latency it counts (\`bench/api/tail.ts\` splits a tail further).`,
      '',
      ...fixedRateTable(results),
    );
  }
  const series = `One connection, ${o.seriesSeconds} s per point after 1 s of warm-up ("warm": repeated requests, which Elasticsearch's request cache can answer); "cold": 30 sequential requests, each after emptying the request and query caches, i.e. the full cost of the query.`;
  if (results.sizeSeries.length > 0) {
    parts.push(
      '',
      '## Latency vs collection size',
      '',
      series,
      '',
      ...seriesTable(results.sizeSeries, (p) => `${requestName(p.kind)}, ${sizeLabel(p.docs)}`),
      '',
      ...growthTable(results.sizeSeries),
    );
  }
  if (results.depthSeries.length > 0) {
    parts.push(
      '',
      `## Latency vs page depth (list, per_page 20, ${sizeLabel(results.docs)})`,
      '',
      series,
      '',
      ...seriesTable(results.depthSeries, (p) => `page ${p.page}`),
    );
  }
  return `${parts.join('\n')}\n`;
}

export function summaryLines(results: BenchResults): string[] {
  return results.scenarios.map(({ scenario, measurements }) => {
    const es = measurements['es']?.rps;
    const noCache = measurements['es-no-rc']?.rps;
    const others = Object.values(measurements)
      .filter((m) => !m.target.startsWith('es'))
      .map((m) => `${m.target} ${ratio(m.rps, es)} (${ratio(m.rps, noCache)} of es-no-rc)`);
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
