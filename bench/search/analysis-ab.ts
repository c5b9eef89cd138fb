// Index cost of the analysis chains, side by side: load time, load rate and index size.
//   npx tsx bench/search/analysis-ab.ts [--docs 200000] [--rounds 2] [--before <git ref>]
// Variants: the mapping at --before (what the index was), the project's mapping, and the
// alternatives under bench/search/mappings/. Each round loads the same generated documents into
// a fresh index per variant (bulks of 2,000, two in flight, refresh off), refreshes, and
// force-merges to one segment so sizes compare; the order alternates between rounds.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Client, estypes } from '@elastic/elasticsearch';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { createTitleCarriers, toIndexDocument } from '../../src/wallpapers/store/index-document.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { median } from '../api/ab-stats.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { docs: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '3' }, before: { type: 'string', default: 'a26ddb8' } },
});

interface Variant {
  name: string;
  definition: {
    settings: estypes.IndicesIndexSettings;
    mappings: estypes.MappingTypeMapping & { properties: Record<string, estypes.MappingProperty> };
  };
}

const definition = (text: string) => JSON.parse(text) as Variant['definition'];
const variants: Variant[] = [
  {
    name: `before (${values.before})`,
    definition: definition(execFileSync('git', ['show', `${values.before}:index-mappings/wallpapers.json`], { cwd: ROOT, encoding: 'utf8' })),
  },
  { name: 'project (plugin, KStem)', definition: definition(readFileSync(join(ROOT, 'index-mappings/wallpapers.json'), 'utf8')) },
  ...readdirSync(join(ROOT, 'bench/search/mappings')).map((file) => ({
    name: basename(file, '.json'),
    definition: definition(readFileSync(join(ROOT, 'bench/search/mappings', file), 'utf8')),
  })),
];

// As the loaders store them: the first document of each title carries its suggestions.
function shaped(variant: Variant, doc: WallpaperDocument, carriesTitle: (title: string, downloads: number) => boolean): object {
  // A mapping without the completion field gets the document as it was stored before.
  return 'suggest' in variant.definition.mappings.properties ? toIndexDocument(doc, { suggest: carriesTitle(doc.title, doc.downloads) }) : doc;
}

async function load(es: Client, index: string, variant: Variant, docs: WallpaperDocument[]): Promise<number> {
  const started = performance.now();
  const carriesTitle = createTitleCarriers();
  let next = 0;
  async function worker(): Promise<void> {
    while (next < docs.length) {
      const batch = docs.slice(next, next + 2000);
      next += 2000;
      const operations = batch.flatMap((doc) => [{ index: { _id: String(doc.id) } }, shaped(variant, doc, carriesTitle)]);
      const response = await es.bulk({ index, operations }, { requestTimeout: 120_000 });
      if (response.errors) throw new Error(`${variant.name}: bulk errors, first ${JSON.stringify(response.items.find((i) => i.index?.error))}`);
    }
  }
  await Promise.all([worker(), worker()]);
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 600_000 });
  const docs = [...generateWallpapers({ count: Number(values.docs), seed: 2026, imageBaseUrl: config.imageBaseUrl })];
  const results = new Map<string, { seconds: number[]; bytes: number[] }>(variants.map((v) => [v.name, { seconds: [], bytes: [] }]));
  try {
    // Elasticsearch's JIT warms up on the first loads of a run: one unmeasured load of each variant first.
    for (const variant of variants) {
      const index = 'analysis-ab-warmup';
      await es.indices.delete({ index }, { ignore: [404] });
      await es.indices.create({ index, settings: { ...variant.definition.settings, refresh_interval: '-1' }, mappings: variant.definition.mappings });
      await load(es, index, variant, docs.slice(0, 50_000));
      await es.indices.delete({ index });
    }
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
        const index = `analysis-ab-${round}-${variants.indexOf(variant)}`;
        await es.indices.delete({ index }, { ignore: [404] });
        const { settings, mappings } = variant.definition;
        await es.indices.create({ index, settings: { ...settings, refresh_interval: '-1' }, mappings });
        const seconds = await load(es, index, variant, docs);
        await es.indices.refresh({ index });
        await es.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 600_000 });
        const [stats] = await es.cat.indices({ index, format: 'json', bytes: 'b', h: 'store.size' });
        const bytes = Number(stats?.['store.size'] ?? 0);
        results.get(variant.name)!.seconds.push(seconds);
        results.get(variant.name)!.bytes.push(bytes);
        process.stderr.write(
          `round ${round + 1} ${variant.name}: ${seconds.toFixed(1)} s, ${(docs.length / seconds).toFixed(0)} docs/s, ${(bytes / 1e6).toFixed(1)} MB\n`,
        );
        await es.indices.delete({ index });
      }
    }
    const base = results.get(variants[0]!.name)!;
    console.log(`| mapping | load s (${values.rounds} rounds) | docs/s (median) | rate / before | index MB (one segment) | size / before |`);
    console.log('|---|---|--:|--:|--:|--:|');
    for (const { name } of variants) {
      const r = results.get(name)!;
      const rate = docs.length / median(r.seconds);
      console.log(
        `| ${name} | ${r.seconds.map((s) => s.toFixed(1)).join(', ')} | ${rate.toFixed(0)} | ${(rate / (docs.length / median(base.seconds))).toFixed(2)} | ${(median(r.bytes) / 1e6).toFixed(1)} | ${(median(r.bytes) / median(base.bytes)).toFixed(2)} |`,
      );
    }
    console.log(`\n${docs.length} generated wallpapers (seed 2026) per load, one shard, after one unmeasured warm-up load per variant.`);
  } finally {
    await es.close();
  }
}

await main();
