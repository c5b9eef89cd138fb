import type { Client } from '@elastic/elasticsearch';
import { type History, type Tombstone, WATERMARK_ID, type Watermark, changesIndexOf } from '../../wallpapers/store/change-log.js';
import { type FoundRecord, decideHistory, recordUuid } from './record-history.js';
import { ID_PAGE } from './stamp-scan.js';

/** What the next catalogue run will do to the change feed's record before its own work (finishKilledRuns). */
export interface RecordPreview {
  /** Why a new history will begin, sending every reader back to the start; null when it goes on (or begins unseen by readers). */
  begins: string | null;
  /** Deletions a killed run recorded but never made, to be taken back. */
  withdraws: number;
  /** The watermark now, and where the run moves it past what a killed run wrote unserved; equal when it stays. */
  watermark: { from: number; to: number };
}

/**
 * The record as ChangeRecorder.open will find it, read without writing: a dry run says what a real
 * one will do to the feed before it, without making a missing record, refreshing, or keeping a
 * history. Writes of a run killed within the second before are not searchable yet, so it may say
 * less than the real run will do.
 */
export async function previewRecord(es: Client, alias: string, live: string | null): Promise<RecordPreview> {
  const record = changesIndexOf(alias);
  const found = await readRecord(es, record);
  const watermark = found.kept !== undefined || found.strict ? await readWatermark(es, record) : null;
  const committed = watermark?.change_seq ?? 0;
  const lastGiven = Math.max(committed, await highestGiven(es, found.strict ? [record, live] : [live]));
  const decided = decideHistory({
    record,
    alias,
    found: { made: !found.strict, kept: found.kept },
    watermark,
    uuid: found.uuid,
    against: live,
    lastGiven,
  });
  const withdraws = found.strict && live !== null ? await unmadeDeletions(es, record, live, committed) : 0;
  // A new history that is not a legacy one serves at once every number given (ChangeRecorder's
  // continueHistory), which the real run says as its beginning, not as a move.
  const servesAtOnce = decided.go === 'anew' && !decided.legacy;
  return {
    begins: decided.go === 'anew' ? decided.why : null,
    withdraws,
    watermark: { from: committed, to: live === null || servesAtOnce ? committed : lastGiven },
  };
}

type ReadRecord = FoundRecord & { strict: boolean; uuid: string };

/** One that is missing, or not this tool's strict mapping, is made anew by a real run (ensureRecord). */
async function readRecord(es: Client, record: string): Promise<ReadRecord> {
  if (!(await es.indices.exists({ index: record }))) return { made: true, kept: undefined, strict: false, uuid: '' };
  const mapping = Object.values(await es.indices.getMapping({ index: record }))[0]?.mappings;
  if (mapping?.dynamic !== 'strict') return { made: true, kept: undefined, strict: false, uuid: '' };
  const kept = (mapping._meta as { history?: History } | undefined)?.history;
  return { made: false, kept, strict: true, uuid: await recordUuid(es, record) };
}

async function readWatermark(es: Client, record: string): Promise<Watermark | null> {
  const mark = await es.get<Watermark>({ index: record, id: WATERMARK_ID }, { ignore: [404] });
  return mark.found ? (mark._source ?? null) : null;
}

async function highestGiven(es: Client, indices: readonly (string | null)[]): Promise<number> {
  const index = indices.filter((name): name is string => name !== null);
  if (index.length === 0) return 0;
  const given = await es.search({ index, size: 0, track_total_hits: false, aggs: { last: { max: { field: 'change_seq' } } } });
  return (given.aggregations as { last?: { value: number | null } } | undefined)?.last?.value ?? 0;
}

/** Tombstones above the watermark whose wallpapers `live` still holds (ChangeRecorder.withdrawUnmade). */
async function unmadeDeletions(es: Client, record: string, live: string, committed: number): Promise<number> {
  let standing = 0;
  let after: (string | number)[] | undefined;
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
    if (hits.length === 0) return standing;
    const found = await es.mget({ index: live, ids: hits.map((hit) => hit._id!), _source: false });
    standing += found.docs.filter((doc) => 'found' in doc && doc.found).length;
    after = hits.at(-1)!.sort as (string | number)[];
  }
}
