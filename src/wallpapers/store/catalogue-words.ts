import type { Client } from '@elastic/elasticsearch';
import { CATEGORIES } from '../categories.js';

// Tags in a catalogue are bounded by what it describes; beyond this many, the rarest are left out.
const MAX_TAGS = 20_000;

/** The words the catalogue describes its pictures with: its tags (most used first) and its category names. */
export async function loadCatalogueWords(es: Client, alias: string, timeoutMs?: number): Promise<string[]> {
  const response = await es.search<unknown, { tags: { buckets: { key: string }[] } }>(
    { index: alias, size: 0, track_total_hits: false, aggs: { tags: { terms: { field: 'tags', size: MAX_TAGS } } } },
    timeoutMs === undefined ? {} : { requestTimeout: timeoutMs, maxRetries: 0 },
  );
  const tags = response.aggregations?.tags.buckets.map(({ key }) => key) ?? [];
  return [...new Set([...tags, ...CATEGORIES])];
}
