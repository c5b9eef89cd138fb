import { randomBytes } from 'node:crypto';
import type { Client, estypes } from '@elastic/elasticsearch';
import { CHANGES_INDEX_DEFINITION, type History, type Watermark } from '../../wallpapers/store/change-log.js';
import { isErrorType } from './index-admin.js';

/**
 * The history of an alias's record of changes (change-log.ts), as the catalogue tools keep it.
 *
 * Its truth is the record index's mapping (`_meta.history`): a build before histories rewrites the
 * watermark without one and never touches the mapping, so a record it loads into keeps its
 * history (its readers' cursors would all have answered 410 otherwise, helper-99). The watermark
 * carries a copy for the API, which reads it with the watermark in one request.
 */

/** The record as a run finds it: made by this run or not, and the history its mapping keeps. */
export interface FoundRecord {
  made: boolean;
  kept: History | undefined;
}

/**
 * Makes the record if it is missing. One whose mapping is not the strict one this tool makes was
 * made by Elasticsearch itself, for a write that came after the record was deleted (a missing
 * index is created on a write): it holds nothing its readers can go on with, and is made anew.
 */
export async function ensureRecord(es: Client, index: string): Promise<FoundRecord> {
  try {
    await es.indices.create({ index, ...CHANGES_INDEX_DEFINITION });
    return { made: true, kept: undefined };
  } catch (error) {
    if (!isErrorType(error, 'resource_already_exists_exception')) throw error;
  }
  const mapping = Object.values(await es.indices.getMapping({ index }))[0]?.mappings;
  if (mapping?.dynamic !== 'strict') {
    await es.indices.delete({ index });
    return ensureRecord(es, index);
  }
  // A record made before histories: its strict mapping takes one once told of it.
  if (mapping.properties?.['history'] === undefined) {
    await es.indices.putMapping({ index, properties: { history: CHANGES_INDEX_DEFINITION.mappings.properties.history } });
  }
  return { made: false, kept: keptHistory(mapping) };
}

/** The history a record's mapping keeps (`_meta.history`), if any. */
export function keptHistory(mapping: estypes.MappingTypeMapping): History | undefined {
  return (mapping._meta as { history?: History } | undefined)?.history;
}

/** The uuid Elasticsearch gave the record's index: a restore or a copy gets a new one. */
export async function recordUuid(es: Client, index: string): Promise<string> {
  const settings = await es.indices.getSettings({ index, name: 'index.uuid', flat_settings: true });
  const found = Object.values(settings)[0]?.settings;
  const uuid: unknown = found?.['index.uuid' as keyof typeof found];
  if (typeof uuid !== 'string') throw new Error(`Elasticsearch gave no uuid for ${index}`);
  return uuid;
}

export async function keepHistory(es: Client, index: string, history: History): Promise<void> {
  await es.indices.putMapping({ index, _meta: { history } });
}

export const newHistoryId = () => randomBytes(12).toString('base64url');

/** What a run finds when it opens the record. */
export interface HistoryCase {
  record: string;
  alias: string;
  found: FoundRecord;
  watermark: Watermark | null;
  uuid: string;
  /** The catalogue the run compares with; null when the alias has none. */
  against: string | null;
  /** The highest number given, in the record or in `against`. */
  lastGiven: number;
}

export type HistoryDecision =
  | { go: 'on'; history: History }
  /** `legacy`: a record made before histories, whose readers' cursors, which carry none, go on. */
  | { go: 'anew'; legacy: boolean; why: string | null };

/**
 * Whether the record's history goes on, or a new one begins, which sends every reader of the old
 * back to the start of the feed (410). A new one begins for a record that is new (never made, or
 * deleted: said when the catalogue holds changes), one made before histories, one that is not the
 * index its history began in (restored from a snapshot, or copied), and one whose catalogue is gone
 * while readers may hold copies of it: a load with nothing to compare against cannot record what
 * left. Readers may hold copies as soon as a history exists, unless it began with no catalogue and
 * nothing was recorded since (a run's own earlier step, before the load that makes one).
 */
export function decideHistory({ record, alias, found, watermark, uuid, against, lastGiven }: HistoryCase): HistoryDecision {
  // A record whose history only its watermark carries (the first build with histories) keeps it.
  const kept = found.kept ?? watermark?.history;
  if (kept === undefined) {
    if (watermark !== null) return { go: 'anew', legacy: true, why: null };
    const lost = found.made && against !== null && lastGiven > 0;
    return {
      go: 'anew',
      legacy: false,
      why: lost ? `the record of changes ${record} was missing (deleted?) while ${against} holds changes up to number ${lastGiven}` : null,
    };
  }
  if (kept.index !== uuid) {
    return {
      go: 'anew',
      legacy: false,
      why: `the record of changes ${record} is not the index its history began in (restored from a snapshot, or copied)`,
    };
  }
  const untouched = kept.bare === true && (watermark?.change_seq ?? 0) === kept.since;
  if (against === null && watermark !== null && !untouched) {
    return { go: 'anew', legacy: false, why: `${alias} has no catalogue to compare the load with, so what left it cannot be recorded` };
  }
  return { go: 'on', history: kept };
}
