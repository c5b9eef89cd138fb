import type { estypes } from '@elastic/elasticsearch';
import { CursorExpired } from '../../errors.js';
import type { CataloguedWallpaper } from '../catalogued.js';

/**
 * The change feed's record, kept in Elasticsearch beside the catalogue:
 *
 *  - every wallpaper document carries the sequence number of its last change (`change_seq`), when
 *    it was (`changed_at`) and a digest of its record (`content_hash`), so the feed is a walk of
 *    the catalogue in `change_seq` order: one walk from the start is a snapshot (each wallpaper
 *    once, at its last change) followed by every later change;
 *  - a wallpaper that left the catalogue leaves a tombstone in the alias's changes index
 *    (`<alias>-changes`, never behind the alias, so no list, search, facet or suggestion sees it);
 *  - the same index holds the watermark: the highest sequence number whose changes are all
 *    visible. Loads write documents in concurrent batches, and a batch with higher numbers can
 *    become searchable before one with lower numbers; a reader that walked past the lower ones
 *    would never see them. The feed serves nothing above the watermark, and a load moves it only
 *    once everything below is written and refreshed.
 *
 * Sequence numbers are unique and only grow; one writer at a time holds the catalogue lock. A
 * wallpaper loaded before the feed existed has no stamp: it is served first, as number 0, in id
 * order, and stays so until it changes.
 *
 * The watermark also names the record's history: an id the catalogue runs choose when a record
 * begins, and keep while it goes on unbroken (catalogue/admin/record-history.ts). A feed cursor
 * carries the history it was read in, so a reader whose record was lost (the changes index
 * deleted), restored from a snapshot or copied, or whose catalogue was deleted and loaded anew
 * with nothing to compare against, is told to walk again (410) instead of missing the deletions
 * that record held, or the numbers given twice.
 */

export const WATERMARK_ID = 'watermark';

/** The changes index of an alias: tombstones and the watermark. */
export function changesIndexOf(alias: string): string {
  return `${alias.toLowerCase()}-changes`;
}

/** A tombstone as stored: the wallpaper that left, and its change stamp. */
export interface Tombstone {
  kind: 'delete';
  id: number;
  change_seq: number;
  changed_at: string;
}

/** The watermark as stored; one written before histories has none. */
export interface Watermark {
  kind: 'watermark';
  change_seq: number;
  changed_at: string;
  history?: History;
}

/**
 * One unbroken record of changes: its id (what a cursor carries), the uuid Elasticsearch gave the
 * changes index it began in (a restore or a copy makes a new one), and the watermark it began at.
 * `legacy`: it began over a record made before histories, whose readers' cursors carry none and go
 * on in it. `bare`: it began with no catalogue behind the alias.
 */
export interface History {
  id: string;
  index: string;
  since: number;
  legacy?: true;
  bare?: true;
}

/** What the API reads of a history beside the watermark. */
export type HistoryRead = Pick<History, 'id' | 'legacy'>;

export const CHANGES_INDEX_DEFINITION = {
  settings: { number_of_shards: 1, auto_expand_replicas: '0-1' },
  mappings: {
    dynamic: 'strict',
    properties: {
      kind: { type: 'keyword' },
      id: { type: 'long' },
      change_seq: { type: 'long' },
      changed_at: { type: 'date' },
      // Read only from the watermark's source: nothing searches it.
      history: { type: 'object', enabled: false },
    },
  },
} as const satisfies { settings: estypes.IndicesIndexSettings; mappings: estypes.MappingTypeMapping };

/** Where a walk of the feed stands: the last change served. */
export interface ChangePosition {
  seq: number;
  id: number;
}

/** Where a reader stands: its position, and the history it was read in (none before there were histories). */
export interface FeedPosition extends ChangePosition {
  history?: string;
}

const WALK_AGAIN =
  'walk the feed again from the start, without a cursor, and drop what that walk does not serve once GET /v1/wallpapers?ids= confirms it gone';

/** The record as a page of the feed finds it: whether it has a watermark, and its history. */
export interface RecordRead {
  found: boolean;
  history?: HistoryRead;
}

/**
 * That a reader's position continues the record as it is, and not past its watermark, which only
 * grows in one history (a record restored under its own uuid, closed and restored over, goes back).
 * A position of a history goes on in that history, or in a watermark a build before histories
 * rewrote (it names none); a position of none (read before histories, through such a build, or
 * while the record was missing) goes on only in a history that began over a record made before
 * histories, or where there is none.
 */
export function expectContinued(after: FeedPosition, { found, history }: RecordRead, watermark: number | null): void {
  const lost =
    after.history === undefined
      ? history !== undefined && history.legacy !== true
      : !found || (history !== undefined && history.id !== after.history);
  if (lost) {
    throw new CursorExpired(`This cursor was read in a record of changes that has since been lost, restored or begun anew; ${WALK_AGAIN}`);
  }
  if (watermark !== null && after.seq > watermark) {
    throw new CursorExpired(
      `This cursor is past the end of the record of changes, which has gone back (restored from an earlier copy); ${WALK_AGAIN}`,
    );
  }
}

export type ChangeHit = { _index: string; _source: (CataloguedWallpaper & Partial<Tombstone>) | undefined; sort?: (string | number)[] };

/**
 * The search of one page of the feed: changes after `after`, at most the watermark, in order. Past
 * the unstamped, the position is also a range on `change_seq`, so a read at the tail visits only
 * the few changes from it (points), not the whole catalogue below the watermark. The range
 * includes the position's own number and `search_after` steps past it by id: a run's request in
 * flight past its lost lock can give a number twice (docs/operations.md), and a range after the
 * number would hide the second wallpaper whenever a page ended between the two. Without a
 * watermark (no record, or one made anew by Elasticsearch) no load of this build is under way (one
 * writes its watermark before anything else), so every stamp is served.
 */
export function changesBody(watermark: number | null, after: ChangePosition | null, size: number): estypes.SearchRequest {
  const unstamped: estypes.QueryDslQueryContainer = {
    bool: { must_not: { exists: { field: 'change_seq' } }, ...(after ? { filter: { range: { id: { gt: after.id } } } } : {}) },
  };
  const bounds = { ...(watermark === null ? {} : { lte: watermark }), ...(after && after.seq > 0 ? { gte: after.seq } : {}) };
  const stamped: estypes.QueryDslQueryContainer =
    Object.keys(bounds).length > 0 ? { range: { change_seq: bounds } } : { exists: { field: 'change_seq' } };
  return {
    size,
    track_total_hits: false,
    query: {
      bool: {
        filter: [after && after.seq > 0 ? stamped : { bool: { should: [stamped, unstamped], minimum_should_match: 1 } }],
        must_not: [{ term: { kind: 'watermark' } }],
      },
    },
    // Unique: a number given twice, and the unstamped (0), are told apart by id.
    sort: [{ change_seq: { order: 'asc', missing: 0, unmapped_type: 'long' } }, { id: { order: 'asc', unmapped_type: 'long' } }],
    ...(after ? { search_after: [after.seq, after.id] } : {}),
  };
}
