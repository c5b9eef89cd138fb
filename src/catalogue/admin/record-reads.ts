import type { Client, estypes } from '@elastic/elasticsearch';
import { type Tombstone, WATERMARK_ID, type Watermark } from '../../wallpapers/store/change-log.js';
import { ID_PAGE } from './stamp-scan.js';

/**
 * Reads of the record of changes that a catalogue run (ChangeRecorder) and a dry run
 * (record-preview.ts) both make: the dry run must find what the run will.
 */

export async function readWatermark(es: Client, record: string): Promise<Watermark | null> {
  return (await readWatermarkVersion(es, record)).mark;
}

/** Which write of the watermark document a read saw (Elasticsearch's sequence number and primary term). */
export interface WrittenVersion {
  seqNo: number;
  primaryTerm: number;
}

/** The watermark, and which write of it this is, for a write that must follow this one and no other. */
export async function readWatermarkVersion(es: Client, record: string): Promise<{ mark: Watermark | null; version: WrittenVersion | null }> {
  const mark = await es.get<Watermark>({ index: record, id: WATERMARK_ID }, { ignore: [404] });
  if (!mark.found) return { mark: null, version: null };
  const version = mark._seq_no === undefined || mark._primary_term === undefined ? null : { seqNo: mark._seq_no, primaryTerm: mark._primary_term };
  return { mark: mark._source ?? null, version };
}

/** The highest number given in `indices` (the record, the catalogue a run compares with), and the record's tombstones. */
export async function givenIn(es: Client, indices: readonly string[]): Promise<{ last: number; tombstones: number }> {
  if (indices.length === 0) return { last: 0, tombstones: 0 };
  const given = await es.search({
    index: [...indices],
    size: 0,
    track_total_hits: false,
    aggs: { last: { max: { field: 'change_seq' } }, tombstones: { filter: { term: { kind: 'delete' } } } },
  });
  const aggs = given.aggregations as { last?: { value: number | null }; tombstones?: { doc_count: number } } | undefined;
  return { last: aggs?.last?.value ?? 0, tombstones: aggs?.tombstones?.doc_count ?? 0 };
}

/** The ids of the record's tombstones numbered above `committed`, which no reader has seen, a page at a time in number order. */
export async function* tombstonesAbove(es: Client, record: string, committed: number): AsyncGenerator<number[], void, undefined> {
  let after: estypes.FieldValue[] | undefined;
  for (;;) {
    const page = await es.search<Tombstone>({
      index: record,
      size: ID_PAGE,
      track_total_hits: false,
      _source: false,
      sort: [{ change_seq: 'asc' }],
      ...(after ? { search_after: after } : {}),
      query: { bool: { filter: [{ term: { kind: 'delete' } }, { range: { change_seq: { gt: committed } } }] } },
    });
    const hits = page.hits.hits;
    if (hits.length === 0) return;
    yield hits.map((hit) => Number(hit._id));
    after = hits.at(-1)!.sort;
  }
}

/** Those of `ids` whose wallpapers `index` holds, read in real time (a delete just made counts as made), a page of ids at a time. */
export async function* standingIn(es: Client, index: string, ids: readonly number[]): AsyncGenerator<string[], void, undefined> {
  for (let i = 0; i < ids.length; i += ID_PAGE) {
    const found = await es.mget({ index, ids: ids.slice(i, i + ID_PAGE).map(String), _source: false });
    yield found.docs.filter((doc) => 'found' in doc && doc.found).map((doc) => doc._id);
  }
}
