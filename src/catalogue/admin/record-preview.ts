import type { Client } from '@elastic/elasticsearch';
import { changesIndexOf } from '../../wallpapers/store/change-log.js';
import { type FoundRecord, decideHistory, keptHistory, recordUuid } from './record-history.js';
import { givenIn, readWatermark, standingIn, tombstonesAbove } from './record-reads.js';

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
 * less than the real run will do. Null when there is neither a record nor a live catalogue: a run
 * then does nothing to the feed.
 */
export async function previewRecord(es: Client, alias: string, live: string | null): Promise<RecordPreview | null> {
  const record = changesIndexOf(alias);
  const found = await readRecord(es, record);
  if (found === null && live === null) return null;
  const strict = found !== null;
  const watermark = strict ? await readWatermark(es, record) : null;
  const committed = watermark?.change_seq ?? 0;
  const given = await givenIn(es, [...(strict ? [record] : []), ...(live === null ? [] : [live])]);
  const lastGiven = Math.max(committed, given.last);
  const decided = decideHistory({
    record,
    alias,
    found: { made: !strict, kept: found?.kept },
    watermark,
    uuid: found?.uuid ?? '',
    against: live,
    lastGiven,
  });
  let withdraws = 0;
  if (strict && live !== null) {
    for await (const ids of tombstonesAbove(es, record, committed))
      for await (const standing of standingIn(es, live, ids)) withdraws += standing.length;
  }
  // A new history that is not a legacy one serves at once every number given (ChangeRecorder's
  // continueHistory), which the real run says as its beginning, not as a move.
  const servesAtOnce = decided.go === 'anew' && !decided.legacy;
  return {
    begins: decided.go === 'anew' ? decided.why : null,
    withdraws,
    watermark: { from: committed, to: live === null || servesAtOnce ? committed : lastGiven },
  };
}

/**
 * The record with this tool's strict mapping, or null: one missing, or made by Elasticsearch for a
 * late write, is made anew by a real run (ensureRecord), with nothing in it.
 */
async function readRecord(es: Client, record: string): Promise<(Pick<FoundRecord, 'kept'> & { uuid: string }) | null> {
  if (!(await es.indices.exists({ index: record }))) return null;
  const mapping = Object.values(await es.indices.getMapping({ index: record }))[0]?.mappings;
  if (mapping?.dynamic !== 'strict') return null;
  return { kept: keptHistory(mapping), uuid: await recordUuid(es, record) };
}
