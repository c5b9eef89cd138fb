import type { Client } from '@elastic/elasticsearch';
import type { ChangeStamp } from '../../wallpapers/wallpaper.js';
import { IdList } from './id-list.js';

// Elasticsearch's result window: a search returns at most this many hits.
export const ID_PAGE = 10_000;

// Doc values only, no stored field (not even _id), and the time and number as sort values: a date
// fetched as a doc-value field is formatted for every hit, even as epoch_millis, where a sort value
// is the raw long. A walk of 200,000 stamps cost Elasticsearch 352 ms so, 436 ms with all three as
// doc-value fields (bench/results/change-feed.md). Ids are unique, so the later keys never change
// the order. A missing value sorts first, as Long.MIN_VALUE, which no stamp holds: unstamped.
const STAMP_SORT = [
  { id: 'asc' },
  { changed_at: { order: 'asc', missing: '_first', unmapped_type: 'date' } },
  { change_seq: { order: 'asc', missing: '_first', unmapped_type: 'long' } },
] as const;
const HASH_FIELDS = ['content_hash'];
// The largest time and number a document can hold: a page from `after` leaves out the document with
// id `after` whatever its stamp. As strings, which Elasticsearch reads as longs and JSON's numbers
// cannot carry exactly.
const LONG_MAX = '9223372036854775807';
const PAST_ANY_STAMP = [LONG_MAX, LONG_MAX];
// JavaScript's dates end 8.64e15 ms either side of 1970.
const LAST_DATE_MS = 8.64e15;

interface Page {
  /** The highest id it holds, or of the search it ended (the index holds nothing above it when `last`). */
  upTo: number;
  last: boolean;
  stamps: Map<number, ChangeStamp>;
}

/**
 * One hit's stamp from its sort values, each field read as the document holds it: a record loaded
 * before the change feed has none (known to exist, with no digest to compare).
 */
function stampOf(hit: { sort?: unknown[]; fields?: Record<string, unknown[]> }): { id: number; stamp: ChangeStamp } {
  const [id, at, seq] = (hit.sort ?? []) as number[];
  const digest = hit.fields?.['content_hash']?.[0];
  return {
    id: Number(id),
    stamp: {
      seq: Number.isSafeInteger(seq) ? seq! : 0,
      at: typeof at === 'number' && Math.abs(at) <= LAST_DATE_MS ? new Date(at).toISOString() : '',
      hash: typeof digest === 'string' ? digest : '',
    },
  };
}

/** What walks in id order have read of an index: every id it holds within `spans`. */
export interface IdsRead {
  /** Sorted, each once. */
  ids: Float64Array;
  /** The id ranges read whole, each `[after, upTo]` (ids above `after`, up to `upTo` inclusive), sorted and apart. */
  spans: [number, number][];
}

/**
 * The stamps an index holds, by id. A load's records mostly come in id order (an export, a seed,
 * a reindex), a batch spanning a few thousand ids: those are read from the index in id order, a
 * page of 10,000 at a time and the next page already asked for, so a batch waits on no search and
 * Elasticsearch walks each id once. An ids query per batch looked each id up in every segment's
 * terms: on the same two cores that made a full import over the same catalogue 0.65–0.72× the
 * rate of one that compared nothing (bench/results/change-feed.md). A batch out of order, or
 * spread over many more ids than it holds (an incremental import of scattered records), is still
 * asked for by id.
 *
 * Pages are read ahead of the batches, so what a page says is the index before the load wrote
 * those ids. That is right because a load never holds an id twice (ndjson-records.ts rejects the
 * second line), even when the index scanned is the one an incremental import writes into.
 */
export class StampScan {
  /** The walk's pages kept, in order: the first holds the ids above `walkedFrom`. */
  private pages: Page[] = [];
  private walkedFrom = Number.NEGATIVE_INFINITY;
  /** The page after the last kept, asked for before it is needed. */
  private ahead: Promise<Page> | null = null;
  /** Lookups run one at a time, in the order asked: the load sends batches concurrently. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Every id a page read, and the ranges the pages covered: what a full load's deletions need (readSoFar). */
  private readonly ids = new IdList();
  private spans: [number, number][] = [];

  /** `keepIds`: remember what the pages read, for readSoFar (a full load; an incremental one has no use for it). */
  constructor(
    private readonly es: Client,
    private readonly index: string,
    private readonly keepIds = false,
  ) {}

  /** The stamps of `ids` that the index holds (absent: a new record). */
  lookup(ids: readonly number[]): Promise<Map<number, ChangeStamp>> {
    const run = this.queue.then(() => (inOrder(ids) ? this.scanned(ids) : this.byId(ids)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async scanned(ids: readonly number[]): Promise<Map<number, ChangeStamp>> {
    const first = ids[0]!;
    const last = ids.at(-1)!;
    // Pages wholly below this batch are done with (the load's later batches come after it), but
    // the walk's last page stays: it says the index holds nothing above it.
    while (this.pages.length > 0 && this.pages[0]!.upTo < first && !this.pages[0]!.last) this.walkedFrom = this.pages.shift()!.upTo;
    // A batch below the walk (the load went back) or past it by more than a page (a gap in the
    // load's ids) starts a walk of its own.
    if (first <= this.walkedFrom || (this.pages.length === 0 && first - this.walkedFrom > ID_PAGE)) this.restart(first - 1);
    for (;;) {
      const tail = this.pages.at(-1);
      if (tail !== undefined && (tail.upTo >= last || tail.last)) break;
      this.pages.push(await this.next());
    }
    const found = new Map<number, ChangeStamp>();
    for (const id of ids) {
      for (const page of this.pages) {
        const stamp = page.stamps.get(id);
        if (stamp !== undefined) {
          found.set(id, stamp);
          break;
        }
      }
    }
    const tail = this.pages.at(-1)!;
    if (this.ahead === null && !tail.last) this.ahead = this.read(tail.upTo);
    return found;
  }

  /** Forgets the walk; the next one starts above `after`. */
  private restart(after: number): void {
    this.pages = [];
    this.walkedFrom = after;
    this.ahead = this.read(after);
  }

  /** The walk's next page: the one asked for ahead, or asked for now. */
  private next(): Promise<Page> {
    const page = this.ahead ?? this.read(this.pages.at(-1)?.upTo ?? this.walkedFrom);
    this.ahead = null;
    return page;
  }

  /** A page of the ids above `after`, in order. A page asked for ahead and then not needed may fail unheard. */
  private read(after: number): Promise<Page> {
    const page = this.readPage(after);
    page.catch(() => undefined);
    return page;
  }

  private async readPage(after: number): Promise<Page> {
    const { entries, last } = await pageInIdOrder(this.es, this.index, after, true);
    const stamps = new Map<number, ChangeStamp>();
    for (const { id, stamp } of entries) stamps.set(id, stamp!);
    const upTo = entries.at(-1)?.id ?? after;
    if (this.keepIds) {
      for (const { id } of entries) this.ids.add(id);
      this.spans.push([after, last ? Number.POSITIVE_INFINITY : upTo]);
    }
    return { upTo, last, stamps };
  }

  /**
   * The ids the walk's pages read, and the ranges they read whole (none unless made to keep them).
   * A load in id order has read the whole index by its end but for the ids below its first: its
   * deletions need no second walk. Pages read ahead count as well; the index a full load replaces
   * does not change under it.
   */
  readSoFar(): IdsRead {
    const ids = this.ids.sortedUnique();
    const spans: [number, number][] = [];
    for (const [after, upTo] of [...this.spans].sort((a, b) => a[0] - b[0])) {
      const last = spans.at(-1);
      if (last !== undefined && after <= last[1]) last[1] = Math.max(last[1], upTo);
      else spans.push([after, upTo]);
    }
    return { ids, spans };
  }

  /** Asked for by id, 10,000 at a time (the result window). */
  private async byId(ids: readonly number[]): Promise<Map<number, ChangeStamp>> {
    const found = new Map<number, ChangeStamp>();
    for (let i = 0; i < ids.length; i += ID_PAGE) {
      const slice = ids.slice(i, i + ID_PAGE);
      const response = await this.es.search({
        index: this.index,
        size: slice.length,
        track_total_hits: false,
        _source: false,
        stored_fields: ['_none_'],
        query: { ids: { values: slice.map(String) } },
        // Not for the order, which a batch's lookup does not need: for the stamps as sort values.
        sort: [...STAMP_SORT],
        docvalue_fields: HASH_FIELDS,
        filter_path: ['hits.hits.fields', 'hits.hits.sort'],
      });
      for (const hit of response.hits?.hits ?? []) {
        const { id, stamp } = stampOf(hit);
        found.set(id, stamp);
      }
    }
    return found;
  }
}

/** Ascending, and spread over at most two pages' worth of ids: what a walk in id order answers cheaply. */
function inOrder(ids: readonly number[]): boolean {
  if (ids.length === 0) return false;
  for (let i = 1; i < ids.length; i++) if (ids[i]! <= ids[i - 1]!) return false;
  return ids.at(-1)! - ids[0]! < 2 * ID_PAGE;
}

export interface IdOrderPage {
  /** In id order; each with its stamp when asked for. */
  entries: { id: number; stamp?: ChangeStamp }[];
  /** The index holds nothing above the last entry. */
  last: boolean;
}

/**
 * A page of an index's documents with ids above `after`, in id order (the numeric sort skips what
 * it cannot need, so each page costs about the same however deep). Ids and stamps come from the
 * sort values, the digest from doc values, and no stored field is read: with `_id` (stored fields)
 * a page of 10,000 took 130–225 ms, without it 27 ms for ids alone (measured on 200,000).
 */
export async function pageInIdOrder(
  es: Client,
  index: string,
  after: number,
  withStamps: boolean,
  upTo = Number.POSITIVE_INFINITY,
): Promise<IdOrderPage> {
  const found = await es.search({
    index,
    size: ID_PAGE,
    track_total_hits: false,
    _source: false,
    stored_fields: ['_none_'],
    ...(Number.isFinite(upTo) ? { query: { range: { id: { lte: upTo } } } } : {}),
    ...(withStamps
      ? { docvalue_fields: HASH_FIELDS, sort: [...STAMP_SORT], search_after: [after, ...PAST_ANY_STAMP] }
      : { sort: [{ id: 'asc' as const }], search_after: [after] }),
    filter_path: withStamps ? ['hits.hits.fields', 'hits.hits.sort'] : ['hits.hits.sort'],
  });
  const hits = found.hits?.hits ?? [];
  const entries = withStamps ? hits.map(stampOf) : hits.map((hit) => ({ id: Number(hit.sort![0]) }));
  return { entries, last: hits.length < ID_PAGE };
}

/** Every document of an index in id order, a page at a time: from the lowest id, or those above `after` up to `upTo`. */
export async function* walkInIdOrder(
  es: Client,
  index: string,
  withStamps: boolean,
  { after: from = Number.MIN_SAFE_INTEGER, upTo = Number.POSITIVE_INFINITY } = {},
): AsyncGenerator<IdOrderPage['entries'], void, undefined> {
  let after = from;
  for (;;) {
    const { entries, last } = await pageInIdOrder(es, index, after, withStamps, upTo);
    if (entries.length > 0) yield entries;
    if (last) return;
    after = entries.at(-1)!.id;
  }
}
