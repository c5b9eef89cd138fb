import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { createTitleCarriers, toIndexDocument } from '../../wallpapers/store/index-document.js';
import { type LoadEntry, isDeletion } from '../../wallpapers/wallpaper.js';
import type { ChangeRecorder, StampedBatch } from '../admin/change-recorder.js';
import type { TouchedTitles } from '../admin/title-carriers.js';

export interface BulkFailure {
  id: number;
  /** HTTP status of the item, absent when it was never sent. */
  status?: number;
  reason: string;
  entry: LoadEntry;
}

export interface BulkProgress {
  indexed: number;
  failed: number;
}

export interface BulkLoadOptions {
  batchSize?: number;
  /** Bulk requests in flight at once. */
  concurrency?: number;
  /** Attempts after the first for a rejected (429) item or a transient request failure. */
  retries?: number;
  requestTimeoutMs?: number;
  onProgress?: (progress: BulkProgress) => void;
  /** Stamps each batch for the change feed; without it, documents keep what stamps they carry (a reindex's copy). */
  changes?: ChangeRecorder;
  /** Whether documents carry sort=random's keys (shuffle.ts): not into an index made before them. */
  shuffle?: boolean;
  /** The most bytes one bulk request carries (MAX_BULK_BYTES); a batch past it goes as several. */
  maxRequestBytes?: number;
  /** An incremental import's: the titles each batch touches are noted before it is written (title-carriers.ts). */
  titles?: TouchedTitles;
}

export interface BulkLoadResult {
  /** Documents written and wallpapers deleted. */
  indexed: number;
  /** Entries that changed nothing (with `changes`): the same record again (written all the same to a full load's new index), or the deletion of an absent wallpaper. */
  unchanged: number;
  /** Of `indexed`, the deletions. */
  deleted: number;
  failed: BulkFailure[];
  seconds: number;
}

/** What a load had settled when it stopped. */
export type BulkLoadDone = Omit<BulkLoadResult, 'seconds'>;

/**
 * The load stopped early: a request failed for good, or its source threw (an interrupted import,
 * a file gone), which is then the cause and gives the message. `done` is what every request sent
 * had settled by then, so a caller can still say what was written and report what was refused.
 */
export class BulkLoadError extends Error {
  constructor(
    message: string,
    readonly done: BulkLoadDone,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'BulkLoadError';
  }

  get indexed(): number {
    return this.done.indexed;
  }

  get failed(): BulkFailure[] {
    return this.done.failed;
  }
}

type DocSource = Iterable<LoadEntry> | AsyncIterable<LoadEntry>;

async function* inBatches(docs: DocSource, size: number): AsyncGenerator<LoadEntry[]> {
  let batch: LoadEntry[] = [];
  // A sync source is read synchronously so that a million docs do not cost a million awaits.
  if (Symbol.asyncIterator in docs) {
    for await (const doc of docs) {
      batch.push(doc);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  } else {
    for (const doc of docs) {
      batch.push(doc);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

function isTransient(error: unknown): boolean {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError) return true;
  return error instanceof errors.ResponseError && [429, 502, 503, 504].includes(error.statusCode ?? 0);
}

function describe(error: estypes.ErrorCause): string {
  const cause = error.caused_by?.reason ? ` (${error.caused_by.reason})` : '';
  return `${error.type}: ${error.reason ?? ''}${cause}`;
}

/**
 * The most documents a bulk request carries. A stored wallpaper is about 1.5 KB, so 10,000 make
 * some 15 MB, inside Elasticsearch's indexing pressure on a 512 MB heap with two in flight; 50,000
 * were refused with 429, and 100,000 passed `http.max_content_length` (100 MB), which closes the
 * connection without a word (review).
 */
export const MAX_BATCH_SIZE = 10_000;

/**
 * The most bytes a bulk request carries, whatever the batch size: a batch past it is sent as
 * several requests, one after another. 10,000 records of 10,000-character descriptions made a
 * request past `http.max_content_length` (413, review); 16 MiB is about what 10,000 ordinary
 * wallpapers make, which two requests in flight keep within indexing pressure on a 512 MB heap.
 */
export const MAX_BULK_BYTES = 16 * 1024 * 1024;

type BulkItem = Partial<Record<estypes.BulkOperationType, estypes.BulkResponseItem>>;

/** One entry's lines of a bulk body, serialised once, their bytes and how many answers they get. */
interface EntryLines {
  lines: string[];
  bytes: number;
  answers: number;
}

function entryLines(lines: string[], answers: number): EntryLines {
  let bytes = 0;
  for (const line of lines) bytes += Buffer.byteLength(line) + 1;
  return { lines, bytes, answers };
}

/** A failure's words: its message, or what kind of failure it was when it has none. */
function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { meta?: { statusCode?: unknown } }).meta?.statusCode;
  if (status === 413) {
    return (
      `Elasticsearch refused a bulk request as too large (HTTP 413): its http.max_content_length is below the ` +
      `${MAX_BULK_BYTES / 1024 / 1024} MiB a request may carry; raise it, or load with a --batch-size whose batches fit within it`
    );
  }
  return error.message || `${error.name}${typeof status === 'number' ? ` (HTTP ${status})` : ''}, without a message`;
}

const BULK_RESPONSE_FILTER = ['errors', 'items.*.status', 'items.*.error'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Indexes docs with _id = String(id) through the _bulk API, a bounded number of requests in flight,
 * and deletes what deletions name. Every entry ends up counted in `indexed` (or `unchanged`, with a
 * change recorder) or listed in `failed`; a request that keeps failing after retries aborts the
 * load with a BulkLoadError. With a recorder, a batch's tombstones are written first, in a request
 * of their own, and only the deletions whose tombstones were written are sent: a load cut short
 * between the two leaves a wallpaper that still exists beside its tombstone, which the next load
 * of it repairs (a new number above the tombstone's), rather than a deletion never recorded.
 */
export async function bulkLoad(es: Client, index: string, docs: DocSource, options: BulkLoadOptions = {}): Promise<BulkLoadResult> {
  const {
    batchSize = 2000,
    concurrency = 2,
    retries = 3,
    requestTimeoutMs = 120_000,
    onProgress,
    changes,
    shuffle = true,
    maxRequestBytes = MAX_BULK_BYTES,
    titles,
  } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  const started = performance.now();
  let indexed = 0;
  let unchanged = 0;
  let deleted = 0;
  const failed: BulkFailure[] = [];
  const report = () => onProgress?.({ indexed, failed: failed.length });
  const carriesTitle = createTitleCarriers();

  /**
   * One entry's actions: an index, or a delete; a returning id's tombstone goes too. As the lines
   * the client would have written (it sends strings as they are), so their bytes are known.
   */
  function actionsOf(entry: LoadEntry, stamped: StampedBatch | null, stored: Map<LoadEntry, string>): EntryLines {
    if (isDeletion(entry)) return entryLines([JSON.stringify({ delete: { _id: String(entry.id) } })], 1);
    const lines = [JSON.stringify({ index: { _id: String(entry.id) } }), stored.get(entry)!];
    if (!stamped?.returning.has(entry.id)) return entryLines(lines, 1);
    lines.push(JSON.stringify({ delete: { _index: changes!.changesIndex, _id: String(entry.id) } }));
    return entryLines(lines, 2);
  }

  /**
   * The answers to a batch's actions, in order, sent as requests of at most `maxRequestBytes`
   * (an entry's actions never split; an entry larger than that goes alone). `answered` keeps what
   * earlier requests answered, so a try after a failed request goes on from that request (a
   * failed request had sent every earlier one of its batch again; review).
   */
  async function bulkItems(actions: EntryLines[], answered: { entries: number; items: BulkItem[] }): Promise<BulkItem[]> {
    while (answered.entries < actions.length) {
      const start = answered.entries;
      let end = start + 1;
      let bytes = actions[start]!.bytes;
      while (end < actions.length && bytes + actions[end]!.bytes <= maxRequestBytes) bytes += actions[end++]!.bytes;
      const part = actions.slice(start, end);
      // A run whose lock expired while it was paused writes no stamped document once it resumes.
      await changes?.beforeWrite();
      // Each item's status and error, in order, is all a load reads: not its _id, version, shards, seq_no.
      const response = await es.bulk(
        { index, operations: part.flatMap((one) => one.lines), filter_path: BULK_RESPONSE_FILTER },
        { requestTimeout: requestTimeoutMs, maxRetries: 0 },
      );
      const expected = part.reduce((sum, one) => sum + one.answers, 0);
      if (response.items.length !== expected) throw new Error(`bulk response has ${response.items.length} items for ${expected} actions`);
      for (const item of response.items) answered.items.push(item);
      answered.entries = end;
    }
    return answered.items;
  }

  /**
   * A batch's deletions whose tombstones are written, in a request of their own before the
   * deletions: one whose tombstone Elasticsearch refused is not deleted (it fails, and is reported),
   * so no wallpaper leaves without the feed saying so. Everything else of the batch as it was.
   */
  async function withTombstones(stamped: StampedBatch): Promise<LoadEntry[]> {
    if (stamped.tombstones.size === 0) return stamped.write;
    const refused = new Map<number, string>();
    try {
      for (const [id, error] of await changes!.tryTombstones([...stamped.tombstones.values()])) refused.set(id, describe(error));
    } catch (error) {
      for (const id of stamped.tombstones.keys()) refused.set(id, `tombstone not written: ${error instanceof Error ? error.message : String(error)}`);
    }
    return stamped.write.filter((entry) => {
      const reason = isDeletion(entry) ? refused.get(entry.id) : undefined;
      if (reason === undefined) return true;
      failed.push({ id: entry.id, reason: `its deletion was not recorded for the change feed, so it was not deleted: ${reason}`, entry });
      return false;
    });
  }

  /**
   * The batch's numbers let go, once the tombstones of deletions Elasticsearch refused are withdrawn
   * (where the wallpaper is still there). A deletion whose request failed outright may yet be
   * carried out by Elasticsearch after any check here (helper-98), so its tombstone stays and the
   * numbers are held: the watermark stops below them, and the next run, under the lock, withdraws
   * those tombstones whose wallpapers are still there (finishKilledRuns). So are they when the
   * withdrawal itself fails.
   */
  async function settle(stamped: StampedBatch, written: number[], unconfirmed: number[], refused: Set<number>): Promise<void> {
    let hold = unconfirmed.some((id) => !refused.has(id));
    const withdrawn = unconfirmed.filter((id) => refused.has(id));
    if (withdrawn.length > 0) {
      try {
        await changes!.withdrawStanding(withdrawn, index);
      } catch {
        hold = true;
      }
    }
    changes!.settled(stamped, written, { hold });
  }

  async function send(batch: LoadEntry[]): Promise<void> {
    const checked = batch.filter((entry) => {
      if (Number.isSafeInteger(entry.id)) return true;
      failed.push({ id: entry.id, reason: `id must be an integer, got ${JSON.stringify(entry.id)}`, entry });
      return false;
    });
    const stamped = changes ? await changes.stamp(checked) : null;
    // The titles whose completions the batch moves: only what it changes or deletes can, so a
    // record the import brings again unchanged costs nothing more.
    await titles?.note(stamped ? stamped.write : checked);
    const written: number[] = [];
    // Deletions whose tombstones are written, those Elasticsearch confirmed, and those it refused.
    let tombstoned: number[] = [];
    const gone = new Set<number>();
    const refused = new Set<number>();
    try {
      if (stamped) unchanged += stamped.unchanged;
      // Decided once per document, so a retried carrier still carries its title's suggestions.
      const stored = new Map<LoadEntry, string>();
      let pending = stamped ? await withTombstones(stamped) : checked;
      tombstoned = stamped ? pending.filter(isDeletion).map((entry) => entry.id) : [];
      for (const entry of pending)
        if (!isDeletion(entry))
          stored.set(entry, JSON.stringify(toIndexDocument(entry, { suggest: carriesTitle(entry.title, entry.downloads), shuffle })));
      // What the requests of this round of `pending` answered, kept across tries after a failure.
      let answered = { entries: 0, items: [] as BulkItem[] };
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await sleep(Math.min(250 * 2 ** attempt, 8000));
        const actions = pending.map((entry) => actionsOf(entry, stamped, stored));
        let items: BulkItem[];
        try {
          items = await bulkItems(actions, answered);
        } catch (error) {
          if (attempt < retries && isTransient(error)) continue;
          throw error;
        }
        answered = { entries: 0, items: [] };
        const rejected: LoadEntry[] = [];
        let item = 0;
        pending.forEach((entry, i) => {
          const results = items.slice(item, item + actions[i]!.answers).map((one) => one.index ?? one.delete);
          item += results.length;
          // A deletion of what is already gone is no failure; nor is a returning id whose tombstone went first.
          const failure = results.find((result) => result === undefined || (result.error !== undefined && result.status !== 404));
          if (failure === undefined) {
            indexed++;
            if (isDeletion(entry)) {
              deleted++;
              gone.add(entry.id);
            } else written.push(entry.id);
          } else if (failure.status === 429 && attempt < retries) rejected.push(entry);
          else {
            if (isDeletion(entry)) refused.add(entry.id);
            failed.push({
              id: entry.id,
              status: failure.status,
              reason: failure.error ? describe(failure.error) : `unexpected bulk item ${JSON.stringify(failure)}`,
              entry,
            });
          }
        });
        pending = rejected;
      }
    } finally {
      if (stamped)
        await settle(
          stamped,
          written,
          tombstoned.filter((id) => !gone.has(id)),
          refused,
        );
    }
    report();
  }

  const inFlight = new Set<Promise<void>>();
  let fatal: { error: unknown } | null = null;
  let sourceFailure: { error: unknown } | null = null;
  try {
    for await (const batch of inBatches(docs, batchSize)) {
      const task: Promise<void> = send(batch)
        .catch((error: unknown) => {
          fatal ??= { error };
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
      if (fatal !== null) break;
    }
  } catch (error) {
    sourceFailure = { error };
  } finally {
    // Also when the source throws: a request still in flight after the caller deletes the
    // index would recreate it with a dynamic mapping.
    await Promise.all(inFlight);
  }
  const stop = fatal as { error: unknown } | null;
  if (stop !== null) {
    const reason = failureText(stop.error);
    throw new BulkLoadError(`bulk load into ${index} stopped: ${reason}`, { indexed, unchanged, deleted, failed }, { cause: stop.error });
  }
  if (sourceFailure !== null) {
    const { error } = sourceFailure;
    throw new BulkLoadError(error instanceof Error ? error.message : String(error), { indexed, unchanged, deleted, failed }, { cause: error });
  }
  return { indexed, unchanged, deleted, failed, seconds: (performance.now() - started) / 1000 };
}
