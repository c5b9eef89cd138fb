// Compares bulkLoad (hand-batched _bulk) with the client's helpers.bulk on the same generated docs.
//   npx tsx bench/bulk-vs-helpers.ts [count] [rounds]
import { bulkLoad } from '../src/catalogue/ingest/bulk-load.js';
import { generateWallpapers } from '../src/catalogue/generation/generator.js';
import { createVersionedIndex, finishLoading } from '../src/catalogue/admin/index-admin.js';
import { loadConfig } from '../src/config.js';
import { createEsClient } from '../src/infra/elasticsearch.js';

const count = Number(process.argv[2] ?? 200_000);
const rounds = Number(process.argv[3] ?? 2);
const config = loadConfig();
const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 120_000 });
const docs = () => generateWallpapers({ count, seed: 7, imageBaseUrl: config.imageBaseUrl });

async function* asyncDocs() {
  yield* docs();
}

type Loader = (index: string) => Promise<{ indexed: number; failed: number }>;

const loaders: Record<string, Loader> = {
  'bulkLoad 2000x2': async (index) => {
    const r = await bulkLoad(es, index, docs(), { batchSize: 2000, concurrency: 2 });
    return { indexed: r.indexed, failed: r.failed.length };
  },
  'bulkLoad 2000x3': async (index) => {
    const r = await bulkLoad(es, index, docs(), { batchSize: 2000, concurrency: 3 });
    return { indexed: r.indexed, failed: r.failed.length };
  },
  'bulkLoad 5000x2': async (index) => {
    const r = await bulkLoad(es, index, docs(), { batchSize: 5000, concurrency: 2 });
    return { indexed: r.indexed, failed: r.failed.length };
  },
  'helpers.bulk 1MBx2': (index) => helpers(index, 1_100_000),
  'helpers.bulk 5MBx2': (index) => helpers(index, 5_000_000),
};

async function helpers(index: string, flushBytes: number) {
  let failed = 0;
  const stats = await es.helpers.bulk(
    {
      datasource: asyncDocs(),
      onDocument: (doc: { id: number }) => ({ index: { _index: index, _id: String(doc.id) } }),
      flushBytes,
      concurrency: 2,
      retries: 3,
      onDrop: () => failed++,
    },
    { requestTimeout: 120_000 },
  );
  return { indexed: stats.successful, failed };
}

const entries = Object.entries(loaders);
// Round 0 warms Elasticsearch up and is not reported; later rounds rotate the order so no loader always goes last.
for (let round = 0; round <= rounds; round++) {
  const order = entries.map((_, i) => entries[(i + round) % entries.length] as [string, Loader]);
  for (const [name, load] of round === 0 ? order.slice(0, 1) : order) {
    const index = await createVersionedIndex(es, 'bench-bulk');
    try {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const { indexed, failed } = await load(index);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const clientCpu = (used.user + used.system) / 1e6;
      await finishLoading(es, index);
      const stored = (await es.count({ index })).count;
      if (round > 0)
        console.log(
          `round ${round} ${name.padEnd(20)} ${seconds.toFixed(1)}s ${Math.round(count / seconds)} docs/s client-cpu=${clientCpu.toFixed(1)}s indexed=${indexed} failed=${failed} stored=${stored}`,
        );
    } finally {
      await es.indices.delete({ index });
    }
  }
}
await es.close();
