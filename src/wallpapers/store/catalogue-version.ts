import type { Client } from '@elastic/elasticsearch';

interface VersionAggregations {
  indices?: { buckets?: { key: string }[] };
  seq_no?: { value: number | null };
}

/**
 * A fingerprint of what searches on the alias can see: the indices behind it, how many
 * documents are visible and the highest sequence number. Moving the alias changes the
 * indices; an upsert or a delete in place changes the sequence number or the count once a
 * refresh makes it visible. Match-all with size 0 lets Elasticsearch answer from index
 * metadata and its request cache, so checking often is cheap.
 */
export async function catalogueVersion(es: Client, alias: string): Promise<string> {
  const response = await es.search({
    index: alias,
    size: 0,
    track_total_hits: true,
    aggs: {
      indices: { terms: { field: '_index', size: 100 } },
      seq_no: { max: { field: '_seq_no' } },
    },
  });
  const aggregations = response.aggregations as VersionAggregations | undefined;
  const indices = (aggregations?.indices?.buckets ?? []).map((bucket) => bucket.key).sort();
  const total = response.hits.total;
  const count = typeof total === 'number' ? total : (total?.value ?? 0);
  return `${indices.join(',')}|${count}|${aggregations?.seq_no?.value ?? 'none'}`;
}
