import type { Readable } from 'node:stream';
import type { Client } from '@elastic/elasticsearch';
import { type LoadEntry, isDeletion, toRecord } from '../../wallpapers/wallpaper.js';
import { bulkLoad, BulkLoadError, type BulkLoadDone } from './bulk-load.js';
import { TouchedTitles } from '../admin/title-carriers.js';
import { ChangeRecorder } from '../admin/change-recorder.js';
import {
  type Compaction,
  mergeOnceLive,
  createVersionedIndex,
  discardIndex,
  finishLoading,
  hasShuffleKeys,
  liveIndex,
  liveIndexOrNone,
  publishIndex,
} from '../admin/index-admin.js';
import { NdjsonRecords, type RejectHandler } from './ndjson-records.js';

export interface ImportProgress {
  lines: number;
  rejected: number;
}

export interface ImportOptions {
  alias: string;
  /** MAX_RESULT_WINDOW, which a new index serves (createVersionedIndex); undefined: the mapping file's. */
  resultWindow?: number;
  input: Readable;
  /** Upsert into the live index instead of building a new one. */
  incremental: boolean;
  /** Rejected lines tolerated before the import counts as failed. */
  allowRejects: number;
  /**
   * Wallpapers a full import may delete (those of the catalogue it replaces that its input lacks)
   * before it counts as failed; undefined for the default, half that catalogue (deletesAllowed).
   */
  allowDeletes?: number;
  /** Versioned indices to keep after a full import, the live one included. */
  keep: number;
  batchSize?: number;
  concurrency?: number;
  /** Adds to the records what they lack (palettes read from their pictures), keeping their order. */
  enrich?: (entries: AsyncIterable<LoadEntry>) => AsyncIterable<LoadEntry>;
  /** Stops the import; it ends with signal.reason. */
  signal?: AbortSignal;
  onReject: RejectHandler;
  /** The index being written: a new one, or the live one when incremental. */
  onTarget?: (index: string) => void;
  /** A full import's new index is live; its merge to one segment starts (result.compaction tells how it went). */
  onLive?: (result: ImportResult) => void;
  onProgress?: (progress: ImportProgress) => void;
  /** Throws unless the run still holds the catalogue lock: asked before the alias moves and again before pruning. */
  confirmLock?: () => Promise<void>;
}

export interface ImportResult {
  index: string;
  lines: number;
  /** Records written (every valid one in a full import) and wallpapers deleted (incremental). */
  loaded: number;
  rejected: number;
  /** What the change feed recorded: new or changed records, deletions, and records the same as before. */
  changes: { upserts: number; deletes: number; unchanged: number };
  /** Where the alias pointed before a full import. */
  previous: string[];
  pruned: string[];
  /** Until the records were searchable: a full import's new index live. */
  seconds: number;
  /** The full import's new index merged once live (compactIndex); null for an incremental one. */
  compaction: Compaction | null;
}

export class ImportError extends Error {
  /** A full import's new index was deleted; false also when there was none to delete. */
  discarded = false;

  constructor(
    message: string,
    readonly index: string | null,
    readonly loaded: number,
    readonly rejected: number,
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'ImportError';
  }
}

export const NO_VALID_RECORDS = 'no valid records to import';
export const NEEDS_LIVE_INDEX = 'an incremental import needs exactly one live index';

/** How often a load (or its dry run, import-preview.ts) reports how far it has read. */
export const PROGRESS_EVERY_MS = 250;
// How often an incremental import moves the change feed's watermark while it writes.
const COMMIT_EVERY_MS = 1000;

/** What a load has done so far: kept up to date when it stops early too, so a stopped run says what it wrote. */
interface LoadCounts {
  lines: number;
  loaded: number;
  rejected: number;
  changes: { upserts: number; deletes: number; unchanged: number };
}

const noCounts = (): LoadCounts => ({ lines: 0, loaded: 0, rejected: 0, changes: { upserts: 0, deletes: 0, unchanged: 0 } });

/**
 * Loads the input into `index`, filling `counts` as it ends, whether it finished or stopped (an
 * interrupted run, Elasticsearch gone): an incremental import's writes stay, so a stopped one must
 * say how many landed, and every record Elasticsearch refused is reported either way.
 */
async function load(
  es: Client,
  index: string,
  options: ImportOptions,
  changes: ChangeRecorder,
  counts: LoadCounts,
  { shuffle = true, titles }: { shuffle?: boolean; titles?: TouchedTitles } = {},
) {
  const { allowRejects, signal, onReject, onProgress } = options;
  const records = new NdjsonRecords(options.input, onReject, { deletions: options.incremental });
  // Records Elasticsearch refused so far, reported with the rest once the load ends: they count
  // towards the allowance as they come, or an incremental import wrote to the end of its input
  // past it (helper-108: "writing stopped at that point" after writing 90,000).
  let refused = 0;
  async function* loadable(): AsyncGenerator<LoadEntry> {
    try {
      for await (const doc of records.documents()) {
        if (signal?.aborted) return;
        // Past the limit the import has failed: keep reading only to report every reject.
        if (records.rejected + refused <= allowRejects) yield doc;
      }
    } catch (error) {
      // The input was closed because the run was stopped: that is why it ends, not a read error.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  }
  const report = () => onProgress?.({ lines: records.lines, rejected: records.rejected });
  const timer = setInterval(report, PROGRESS_EVERY_MS);
  // A stalled pipe would otherwise keep an interrupted import waiting for its next line.
  const stopReading = () => options.input.destroy();
  signal?.addEventListener('abort', stopReading, { once: true });
  let done: BulkLoadDone | null = null;
  try {
    const documents = options.enrich ? options.enrich(loadable()) : loadable();
    done = await bulkLoad(es, index, documents, {
      batchSize: options.batchSize,
      concurrency: options.concurrency,
      changes,
      shuffle,
      ...(titles ? { titles } : {}),
      onProgress: ({ failed }) => (refused = failed),
    });
  } catch (error) {
    if (error instanceof BulkLoadError) done = error.done;
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopReading);
    clearInterval(timer);
    if (done !== null) {
      for (const failure of done.failed) {
        await records.reject({
          line: records.lineOf(failure.id) ?? 0,
          id: failure.id,
          code: 'refused_by_elasticsearch',
          reason: failure.reason,
          text: JSON.stringify(isDeletion(failure.entry) ? failure.entry : toRecord(failure.entry)),
        });
      }
      counts.loaded = done.indexed;
      counts.changes = {
        upserts: done.indexed - done.deleted - (options.incremental ? 0 : done.unchanged),
        deletes: done.deleted,
        unchanged: done.unchanged,
      };
    }
    counts.lines = records.lines;
    counts.rejected = records.rejected;
    report();
  }
}

/** Why a run past --allow-rejects fails, as the import and its dry run both say it. */
export function tooManyRejects(rejected: number, allowRejects: number): string {
  return `${rejected} line${rejected === 1 ? '' : 's'} rejected, more than --allow-rejects ${allowRejects}`;
}

/**
 * How many wallpapers a full import may delete. By default half the catalogue it replaces: a
 * truncated or wrong file (the first shard of an export, yesterday's test file) would otherwise
 * delete the rest, and every mirror following the change feed would delete it too; pruning up to
 * half in one run stays an ordinary import. A larger cut is named with --allow-deletes.
 */
export function deletesAllowed(allowDeletes: number | undefined, live: number): number {
  return allowDeletes ?? Math.floor(live / 2);
}

/** Why a full import past its deletions allowance fails, as the import and its dry run both say it. */
export function tooManyDeletes(deletes: number, live: number, allowDeletes: number | undefined): string {
  const allowance = allowDeletes === undefined ? `half of them (the default of --allow-deletes)` : `--allow-deletes ${allowDeletes}`;
  return (
    `${deletes} of the ${live} live wallpapers are not in the input and would be deleted, more than ${allowance}; ` +
    `if that is meant, pass --allow-deletes ${deletes} (or all)`
  );
}

/**
 * Full import: every valid record into a new versioned index, which replaces the live one only
 * when the load succeeded, the count matches, the rejects are within `allowRejects` and the
 * deletions within `allowDeletes`; otherwise the new index is deleted and the alias never moves.
 */
async function importFull(es: Client, options: ImportOptions, started: number): Promise<ImportResult> {
  const { alias, allowRejects, signal } = options;
  // What the load replaces; an alias in any other state than absent or on one index stops it.
  const replaced = await liveIndexOrNone(es, alias);
  const changes = await ChangeRecorder.open(es, alias, { against: replaced, full: true, fence: options.confirmLock });
  const index = await createVersionedIndex(es, alias, { resultWindow: options.resultWindow });
  options.onTarget?.(index);
  const counts = noCounts();
  let missing = { gone: [] as number[], replaced: 0 };
  try {
    await load(es, index, options, changes, counts);
    signal?.throwIfAborted();
    if (counts.rejected > allowRejects) throw new Error(tooManyRejects(counts.rejected, allowRejects));
    if (counts.loaded === 0) throw new Error(NO_VALID_RECORDS);
    await finishLoading(es, index);
    const stored = (await es.count({ index })).count;
    if (stored !== counts.loaded) throw new Error(`index ${index} holds ${stored} documents, expected ${counts.loaded}`);
    missing = await changes.missing();
    if (missing.gone.length > deletesAllowed(options.allowDeletes, missing.replaced)) {
      throw new Error(tooManyDeletes(missing.gone.length, missing.replaced, options.allowDeletes));
    }
    signal?.throwIfAborted();
    await options.confirmLock?.();
  } catch (error) {
    const failure = new ImportError(error instanceof Error ? error.message : String(error), index, counts.loaded, counts.rejected, { cause: error });
    failure.discarded = await discardIndex(es, index);
    throw failure;
  }
  // Only once the new index is live, and before the one it replaced may be pruned: what the file
  // leaves out of that catalogue is recorded as deleted, and what it brings back is no longer.
  const { previous, pruned } = await publishIndex(es, alias, index, {
    keep: options.keep,
    confirmLock: options.confirmLock,
    beforePrune: async () => {
      counts.changes.deletes = await changes.recordMissing(missing.gone);
      await changes.clearReturning();
      await changes.commit([index]);
    },
  });
  const live: ImportResult = { index, ...counts, previous, pruned, seconds: (performance.now() - started) / 1000, compaction: null };
  return mergeOnceLive(es, live, { onLive: options.onLive, signal });
}

/**
 * Incremental import: upserts valid records into the live index by id, so running it twice
 * changes nothing more. Writes are visible as they land; past `allowRejects` it stops writing.
 */
async function importIncremental(es: Client, options: ImportOptions, started: number): Promise<ImportResult> {
  const { alias, allowRejects, signal } = options;
  const index = await liveIndex(es, alias).catch((error: Error) => {
    throw new ImportError(`${error.message}; ${NEEDS_LIVE_INDEX}`, null, 0, 0, { cause: error });
  });
  await ChangeRecorder.prepareLive(es, index);
  // Keys are not added to an index made before them: half its wallpapers with keys would shuffle
  // badly, so until a reindex gives all of them keys, sort=random scores it (shuffle.ts).
  const shuffle = await hasShuffleKeys(es, index);
  const changes = await ChangeRecorder.open(es, alias, { against: index, full: false, fence: options.confirmLock });
  // Each title it touches keeps its completions with its most popular wallpaper (title-carriers.ts).
  const titles = new TouchedTitles(es, index, shuffle);
  options.onTarget?.(index);
  const counts = noCounts();
  // Readers of the feed see the changes as they land, a second or so behind, not only at the end.
  let committing = Promise.resolve(0);
  const committer = setInterval(() => {
    committing = committing.then(() => changes.commit([index])).catch(() => 0);
  }, COMMIT_EVERY_MS);
  // Whether the titles were being mended when it stopped: then they are not tried a second time.
  let mending = false;
  try {
    await load(es, index, options, changes, counts, { shuffle, titles });
    signal?.throwIfAborted();
    if (counts.rejected > allowRejects) throw new Error(`${tooManyRejects(counts.rejected, allowRejects)}; writing stopped at that point`);
    mending = true;
    await titles.elect(options.confirmLock);
  } catch (error) {
    // What was written before it stopped is recorded all the same, and its titles keep their
    // completions where Elasticsearch still answers (a run stopped by its user, past its rejects);
    // else a reindex mends them (docs/operations.md, "Suggestions").
    clearInterval(committer);
    await committing;
    await changes.commit([index]).catch(() => undefined);
    if (!mending) await titles.elect(options.confirmLock).catch(() => 0);
    throw new ImportError(error instanceof Error ? error.message : String(error), index, counts.loaded, counts.rejected, { cause: error });
  }
  clearInterval(committer);
  await committing;
  await changes.commit([index]);
  return { index, ...counts, previous: [], pruned: [], seconds: (performance.now() - started) / 1000, compaction: null };
}

export function importCatalogue(es: Client, options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  return options.incremental ? importIncremental(es, options, started) : importFull(es, options, started);
}
