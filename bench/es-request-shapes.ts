// Which request shape costs least, side by side: the same workloads through the project's
// client, alternating variants round by round, with Elasticsearch's and this process's CPU
// per request.  npx tsx bench/es-request-shapes.ts [alias] [docs] [rounds]
import type { estypes } from '@elastic/elasticsearch';
import { loadConfig } from '../src/config.js';
import { createEsClient } from '../src/infra/elasticsearch.js';
import { buildIdsRequest, buildListRequest } from '../src/wallpapers/store/build-queries.js';
import { buildSearchRequest, buildSuggestRequest } from './api/direct-requests.js';
import { WALLPAPER_FIELDS } from '../src/wallpapers/wallpaper.js';
import { esNodeStats } from './api/resource-stats.js';
import { type RequestSpec, buildWorkload } from './api/workloads.js';

const alias = process.argv[2] ?? 'bench-1m';
const docs = Number(process.argv[3] ?? 1_000_000);
const rounds = Number(process.argv[4] ?? 4);
const config = loadConfig();
const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 60_000 });

type Shape = (request: estypes.SearchRequest) => estypes.SearchRequest;
interface Variant {
  search: Shape;
  get: Record<string, unknown>;
}

const original: Shape = ({ filter_path: _drop, ...request }) => ({ ...request, _source: [...WALLPAPER_FIELDS] });
const VARIANTS: Record<string, Variant> = {
  'source list (original)': { search: original, get: { _source: [...WALLPAPER_FIELDS] } },
  'source list + filter_path': {
    search: (r) => ({ ...original(r), filter_path: ['hits.total.value', 'hits.hits._source'] }),
    get: { _source: [...WALLPAPER_FIELDS], filter_path: ['found', '_source'] },
  },
  'whole source + filter_path': {
    search: (r) => ({ ...original(r), _source: true, filter_path: ['hits.total.value', 'hits.hits._source'] }),
    get: { _source: true, filter_path: ['found', '_source'] },
  },
  'whole source + filter_path + request_cache': {
    search: (r) => ({ ...original(r), _source: true, filter_path: ['hits.total.value', 'hits.hits._source'], request_cache: true }),
    get: { _source: true, filter_path: ['found', '_source'] },
  },
};

function call(variant: Variant, spec: RequestSpec): Promise<unknown> {
  if (spec.kind === 'get') return es.get({ index: alias, id: String(spec.id), ...variant.get }, { ignore: [404] });
  if (spec.kind === 'ids') return es.mget(buildIdsRequest(alias, spec.ids));
  const request =
    spec.kind === 'list'
      ? buildListRequest(alias, spec.params)
      : spec.kind === 'suggest'
        ? buildSuggestRequest(alias, spec.params)
        : buildSearchRequest(alias, spec.params);
  return es.search(variant.search(request));
}

async function measure(variant: Variant, workload: RequestSpec[], count: number, concurrency = 4) {
  let next = 0;
  const esBefore = (await esNodeStats(es)).cpuSeconds;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await call(variant, workload[next++ % workload.length] as RequestSpec);
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const esCpu = (await esNodeStats(es)).cpuSeconds - esBefore;
  return { esMs: (esCpu * 1000) / count, clientMs: (cpu.user + cpu.system) / 1000 / count, wallMs: wallMs / count };
}

const COUNTS: Record<string, number> = { 'list-page1': 1500, 'list-filtered': 1000, 'list-deep': 200, 'get-random': 3000, 'search-mix': 200 };
const names = Object.keys(VARIANTS);
console.log(`| workload | variant | ES CPU ms/req | client CPU ms/req | wall ms/req (4 in flight) |`);
console.log(`| --- | --- | ---: | ---: | ---: |`);
for (const [scenario, count] of Object.entries(COUNTS)) {
  const workload = buildWorkload(scenario as never, docs, 42);
  const sums = new Map(names.map((name) => [name, { esMs: 0, clientMs: 0, wallMs: 0 }]));
  for (const name of names) await measure(VARIANTS[name] as Variant, workload, Math.ceil(count / 4));
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length] as string);
    for (const name of order) {
      const m = await measure(VARIANTS[name] as Variant, workload, count);
      const sum = sums.get(name)!;
      sum.esMs += m.esMs / rounds;
      sum.clientMs += m.clientMs / rounds;
      sum.wallMs += m.wallMs / rounds;
    }
  }
  for (const [name, m] of sums) console.log(`| ${scenario} | ${name} | ${m.esMs.toFixed(3)} | ${m.clientMs.toFixed(3)} | ${m.wallMs.toFixed(2)} |`);
}
await es.close();
