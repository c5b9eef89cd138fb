import type { Client } from '@elastic/elasticsearch';
import { aliasedIndices } from '../../src/catalogue/admin/index-admin.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { sizeLabel } from './options.js';

export const DATASET_SEED = 2026;

export function datasetAlias(count: number): string {
  return `api-bench-${sizeLabel(count)}`;
}

async function aliasCount(es: Client, alias: string): Promise<number | null> {
  if ((await aliasedIndices(es, alias)).length === 0) return null;
  return (await es.count({ index: alias })).count;
}

/** Behind `api-bench-<size>`: `count` generated wallpapers, reused when an earlier run left them. */
export async function ensureDataset(es: Client, count: number, imageBaseUrl: string, say: (line: string) => void): Promise<string> {
  const alias = datasetAlias(count);
  if ((await aliasCount(es, alias)) === count) return alias;
  say(`loading ${count} wallpapers behind ${alias}`);
  const result = await seedCatalogue(es, { alias, count, seed: DATASET_SEED, imageBaseUrl, keep: 1 });
  say(`${alias} -> ${result.index} in ${result.seconds.toFixed(0)} s`);
  return alias;
}

export async function dropDataset(es: Client, count: number): Promise<void> {
  const alias = datasetAlias(count);
  await es.indices.delete({ index: `${alias}-*`, ignore_unavailable: true, allow_no_indices: true });
}
