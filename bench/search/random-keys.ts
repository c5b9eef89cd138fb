// npx tsx bench/search/random-keys.ts 10000 1000000 5000000   (issue 31, step 4: a design measured first)
// Seeded random pages at several catalogue sizes, Elasticsearch alone: random_score over every match
// (what sort=random does today) against precomputed random keys that a seed picks and rotates,
// read from a seed-derived offset with a range filter or with search_after. Lean documents (id,
// category, downloads, four keys), one shard, force-merged; 30 seeds each, `took` p50. The indices
// (rk-<size>) are dropped at the end.
import { createEsClient } from '../../src/infra/elasticsearch.js';
const es = createEsClient({ url: 'http://127.0.0.1:9200', requestTimeoutMs: 120_000 });
const sizes = process.argv.slice(2).map(Number);
const CATS = ['nature', 'space', 'cars', 'anime', 'ocean', 'abstract', 'animals', 'cityscapes', 'fantasy', 'minimalist'];
const KEYS = 4;
// A 32-bit mix of (id, key): the same for a document whatever loads it.
const mix = (id: number, k: number) => {
  let h = (id * 0x9e3779b1 + k * 0x85ebca6b) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
};
for (const n of sizes) {
  const index = `rk-${n}`;
  if (!(await es.indices.exists({ index }))) {
    const props: Record<string, object> = { id: { type: 'long' }, category: { type: 'keyword' }, downloads: { type: 'integer' } };
    for (let k = 0; k < KEYS; k++) props[`shuffle_${k}`] = { type: 'long' };
    await es.indices.create({
      index,
      settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' },
      mappings: { properties: props },
    });
    for (let from = 1; from <= n; from += 20_000) {
      const ops: object[] = [];
      for (let id = from; id < Math.min(from + 20_000, n + 1); id++) {
        const doc: Record<string, unknown> = { id, category: CATS[id % CATS.length], downloads: id % 5000 };
        for (let k = 0; k < KEYS; k++) doc[`shuffle_${k}`] = mix(id, k);
        ops.push({ index: { _id: String(id) } }, doc);
      }
      await es.bulk({ index, operations: ops });
    }
    await es.indices.refresh({ index });
    await es.indices.forcemerge({ index, max_num_segments: 1 });
  }
  const took = async (body: object) => (await es.search({ index, request_cache: false, ...body })).took;
  const runs = 30;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const filter of [null, { term: { category: 'space' } }]) {
    const q = filter ? { bool: { filter: [filter] } } : { match_all: {} };
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < runs; i++) {
      const seed = 1000 + i * 7919;
      a.push(
        await took({
          size: 20,
          query: { function_score: { query: q, functions: [{ random_score: { seed, field: 'id' } }], boost_mode: 'replace' } },
          sort: ['_score', { id: 'asc' }],
        }),
      );
      const k = seed % KEYS;
      const offset = mix(seed, 99);
      const keyed = { bool: { filter: [...(filter ? [filter] : []), { range: { [`shuffle_${k}`]: { gte: offset } } }] } };
      b.push(await took({ size: 20, query: keyed, sort: [{ [`shuffle_${k}`]: 'asc' }, { id: 'asc' }], track_total_hits: false }));
      c.push(
        await took({ size: 20, query: q, sort: [{ [`shuffle_${k}`]: 'asc' }, { id: 'asc' }], search_after: [offset, 0], track_total_hits: false }),
      );
    }
    console.log(
      `${n} docs, ${filter ? 'category filter' : 'all'}: random_score p50 ${median(a)} ms, keyed (range) p50 ${median(b)} ms, keyed (search_after) p50 ${median(c)} ms`,
    );
  }
}
for (const n of sizes) await es.indices.delete({ index: `rk-${n}` }, { ignore: [404] });
await es.close();
