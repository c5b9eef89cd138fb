import { execFileSync } from 'node:child_process';
import type { Client, estypes } from '@elastic/elasticsearch';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { aliasedIndices, readIndexDefinition } from '../../src/catalogue/admin/index-admin.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { createTitleCarriers, toIndexDocument } from '../../src/wallpapers/store/index-document.js';
import { sizeLabel } from './options.js';

export const DATASET_SEED = 2026;

export function datasetAlias(count: number): string {
  return `api-bench-${sizeLabel(count)}`;
}

async function aliasCount(es: Client, alias: string): Promise<number | null> {
  if ((await aliasedIndices(es, alias)).length === 0) return null;
  return (await es.count({ index: alias })).count;
}

/** Every field of a mapping as `path:type`, objects and their sub-fields included, sorted. */
function fieldsOf(properties: Record<string, estypes.MappingProperty> | undefined, prefix = ''): string[] {
  return Object.entries(properties ?? {})
    .flatMap(([name, field]) => {
      const nested = 'properties' in field ? fieldsOf(field.properties, `${prefix}${name}.`) : [];
      return [`${prefix}${name}:${field.type ?? 'object'}`, ...nested];
    })
    .sort();
}

// A dataset left by a run of an older mapping lacks fields the current code filters on, or holds
// them in another shape (a nested palette is not an object of slots).
async function hasCurrentFields(es: Client, alias: string): Promise<boolean> {
  const wanted = JSON.stringify(fieldsOf(readIndexDefinition().mappings.properties));
  const mappings = await es.indices.getMapping({ index: alias });
  return Object.values(mappings).every(({ mappings: m }) => JSON.stringify(fieldsOf(m.properties)) === wanted);
}

/** Behind `api-bench-<size>`: `count` generated wallpapers, reused when an earlier run left them with the current mapping. */
export async function ensureDataset(es: Client, count: number, imageBaseUrl: string, say: (line: string) => void): Promise<string> {
  const alias = datasetAlias(count);
  if ((await aliasCount(es, alias)) === count && (await hasCurrentFields(es, alias))) return alias;
  say(`loading ${count} wallpapers behind ${alias}`);
  const result = await seedCatalogue(es, { alias, count, seed: DATASET_SEED, imageBaseUrl, keep: 1 });
  say(`${alias} -> ${result.index} in ${result.seconds.toFixed(0)} s`);
  return alias;
}

export async function dropDataset(es: Client, count: number): Promise<void> {
  const alias = datasetAlias(count);
  await es.indices.delete({ index: `${alias}-*`, ignore_unavailable: true, allow_no_indices: true });
}

/**
 * The same `count` generated wallpapers behind `api-bench-<size>-at-<sha>`, stored with the
 * mapping of `ref`, each as this tree indexes it less the fields that mapping lacks, for comparing
 * a build with the catalogue it was written for. Reused when present.
 */
export async function ensureDatasetAt(es: Client, count: number, imageBaseUrl: string, ref: string, say: (line: string) => void): Promise<string> {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
  const alias = `${datasetAlias(count)}-at-${sha}`;
  if ((await aliasCount(es, alias)) === count) return alias;
  const { settings, mappings } = JSON.parse(execFileSync('git', ['show', `${sha}:index-mappings/wallpapers.json`], { encoding: 'utf8' })) as {
    settings: estypes.IndicesIndexSettings;
    mappings: estypes.MappingTypeMapping;
  };
  const index = `${alias}-${Date.now()}`;
  say(`loading ${count} wallpapers behind ${alias} with the mapping at ${sha}`);
  await es.indices.create({ index, settings: { ...settings, refresh_interval: '-1' }, mappings });
  let batch: object[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const response = await es.bulk({ index, operations: batch }, { requestTimeout: 300_000 });
    if (response.errors) throw new Error(`loading ${alias}: ${JSON.stringify(response.items.find((item) => item.index?.error))}`);
    batch = [];
  };
  // Each document as this tree indexes it, less the fields the older mapping does not have.
  const known = new Set(Object.keys(mappings.properties ?? {}));
  const carriesTitle = createTitleCarriers();
  for (const doc of generateWallpapers({ count, seed: DATASET_SEED, imageBaseUrl })) {
    const stored = toIndexDocument(doc, { suggest: known.has('suggest') && carriesTitle(doc.title, doc.downloads) });
    batch.push({ index: { _id: String(doc.id) } }, Object.fromEntries(Object.entries(stored).filter(([field]) => known.has(field))));
    if (batch.length >= 4000) await flush();
  }
  await flush();
  await es.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
  await es.indices.refresh({ index });
  // Merged as this tree's loads are (finishLoading), so reads compare like with like.
  await es.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 30 * 60_000 });
  await es.indices.updateAliases({ actions: [{ add: { index, alias } }] });
  return alias;
}
