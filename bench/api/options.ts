import { parseArgs } from 'node:util';

export const SCENARIOS = [
  'list-page1',
  'list-filtered',
  'list-deep',
  'get-random',
  'search-mix',
  'suggest-mix',
  'zipf-mix',
  'cursor-deep',
  'random-mix',
  'facets-mix',
  'ids-mix',
  'list-category',
  'list-color',
  'list-tags',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface BenchOptions {
  size: number;
  scalingSizes: number[];
  depthPages: number[];
  scenarios: Scenario[];
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  threads: number;
  /** Seconds per fixed-rate run at half the API's maximum; 0 skips them. */
  fixedRateSeconds: number;
  /** Fixed rates set per scenario instead of half the maximum (a target such as "suggest at 100/s"). */
  rates: Partial<Record<Scenario, number>>;
  /** Seconds per latency run of the size and depth series. */
  seriesSeconds: number;
  cache: boolean;
  compare: string | null;
  /** Another node binary to run the working tree's API with, as more targets (e.g. /usr/bin/node for Node 20). */
  compareNode: string | null;
  outDir: string;
  keepDatasets: boolean;
  /** Accept-Encoding sent with every API request (as fetch and httpx do), or none. */
  acceptEncoding: string | null;
  smoke: boolean;
  seed: number;
}

export const BENCH_USAGE = `usage: npm run bench -- [options]
  --size 10k|100k|1m|N       dataset of the main table (default 1m)
  --sizes 10k,100k,1m        sizes of the latency-vs-size series ('' skips it)
  --depth 1,50,200,500       pages (of 20) of the latency-vs-depth series ('' skips it)
  --scenarios a,b            subset of ${SCENARIOS.join(', ')}
  --duration 10              seconds per measured run (after --warmup 2)
  --connections 16           wrk connections, the same for every target (--threads 1)
  --fixed-rate 10            seconds per fixed-rate run at half the API maximum (0 skips)
  --rate suggest-mix=100     a scenario's fixed rate instead of half the maximum (repeatable, comma-separated)
  --series 5                 seconds per run of the size and depth series
  --no-cache                 skip the cached-API target
  --compare <git-ref>        also run the API with its src/ as at <git-ref>
  --compare-node <binary>    also run the working tree's API on another node binary (e.g. /usr/bin/node)
  --out bench/results        where the table, chart and JSON go
  --keep-datasets            keep bench aliases of 1M documents (deleted by default)
  --accept-encoding 'gzip, deflate, br'   sent with every API request, as clients do (default: none)
  --smoke                    ~500 documents, 1 s per run, two scenarios, no series (CI)`;

/** A scenario's name as given on a command line, or an error naming the known ones. */
export function parseScenario(name: string): Scenario {
  if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name} (known: ${SCENARIOS.join(', ')})`);
  return name as Scenario;
}

export function parseSize(text: string): number {
  const match = /^(\d+)(k|m)?$/i.exec(text.trim());
  if (!match) throw new Error(`not a size: ${text} (use e.g. 500, 10k, 1m)`);
  const unit = match[2]?.toLowerCase();
  return Number(match[1]) * (unit === 'k' ? 1_000 : unit === 'm' ? 1_000_000 : 1);
}

export function sizeLabel(count: number): string {
  if (count % 1_000_000 === 0) return `${count / 1_000_000}m`;
  if (count % 1_000 === 0) return `${count / 1_000}k`;
  return String(count);
}

function list<T>(text: string, parse: (item: string) => T): T[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map(parse);
}

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got ${text}`);
  return value;
}

export function parseBenchArgs(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      size: { type: 'string' },
      sizes: { type: 'string' },
      depth: { type: 'string' },
      scenarios: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      'fixed-rate': { type: 'string' },
      rate: { type: 'string' },
      series: { type: 'string' },
      'no-cache': { type: 'boolean', default: false },
      compare: { type: 'string' },
      'compare-node': { type: 'string' },
      out: { type: 'string' },
      'keep-datasets': { type: 'boolean', default: false },
      'accept-encoding': { type: 'string' },
      smoke: { type: 'boolean', default: false },
      seed: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const smoke = values.smoke;
  const scenarios = list(values.scenarios ?? (smoke ? 'list-page1,get-random' : SCENARIOS.join(',')), parseScenario);
  return {
    size: parseSize(values.size ?? (smoke ? '500' : '1m')),
    scalingSizes: list(values.sizes ?? (smoke ? '' : '10k,100k,1m'), parseSize),
    depthPages: list(values.depth ?? (smoke ? '' : '1,50,200,500'), (page) => positive('depth', page)),
    scenarios,
    durationSeconds: positive('duration', values.duration ?? (smoke ? '1' : '10')),
    warmupSeconds: positive('warmup', values.warmup ?? (smoke ? '0' : '2')),
    connections: positive('connections', values.connections ?? '16'),
    threads: positive('threads', values.threads ?? '1'),
    fixedRateSeconds: positive('fixed-rate', values['fixed-rate'] ?? (smoke ? '0' : '10')),
    rates: Object.fromEntries(
      list(values.rate ?? '', (pair) => {
        const [name = '', rps = ''] = pair.split('=');
        if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--rate: unknown scenario ${name}`);
        return [name, positive('rate', rps)] as const;
      }),
    ),
    seriesSeconds: positive('series', values.series ?? '5'),
    cache: !values['no-cache'],
    compare: values.compare ?? null,
    compareNode: values['compare-node'] ?? null,
    outDir: values.out ?? (smoke ? 'bench/tmp/smoke-results' : 'bench/results'),
    keepDatasets: values['keep-datasets'],
    acceptEncoding: values['accept-encoding'] ?? null,
    smoke,
    seed: positive('seed', values.seed ?? '42'),
  };
}
