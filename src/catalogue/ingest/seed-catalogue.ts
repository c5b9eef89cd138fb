import type { Client } from '@elastic/elasticsearch';
import type { WallpaperDocument } from '../../wallpapers/wallpaper.js';
import { bulkLoad, BulkLoadError, type BulkFailure, type BulkProgress } from './bulk-load.js';
import { generateWallpapers } from '../generation/generator.js';
import {
  type Compaction,
  mergeOnceLive,
  createVersionedIndex,
  discardIndex,
  finishLoading,
  liveIndexOrNone,
  publishIndex,
} from '../admin/index-admin.js';
import { ChangeRecorder } from '../admin/change-recorder.js';

export interface SeedOptions {
  alias: string;
  /** MAX_RESULT_WINDOW, which a new index serves (createVersionedIndex); undefined: the mapping file's. */
  resultWindow?: number;
  count: number;
  seed: number;
  imageBaseUrl: string;
  keep: number;
  batchSize?: number;
  concurrency?: number;
  /** Merge the new index to one segment once it is live (compactIndex); default true. */
  forceMerge?: boolean;
  /** Replaces the generated documents; `count` must still say how many there are. */
  documents?: Iterable<WallpaperDocument> | AsyncIterable<WallpaperDocument>;
  onIndexCreated?: (index: string) => void;
  /** The new index is live; its merge to one segment starts, unless forceMerge is false. */
  onLive?: (result: SeedResult) => void;
  /** Stops waiting for the merge once live. */
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  /** Throws unless the run still holds the catalogue lock: asked before the alias moves and again before pruning. */
  confirmLock?: () => Promise<void>;
}

export interface SeedResult {
  index: string;
  indexed: number;
  /** Until the catalogue was live. */
  seconds: number;
  previous: string[];
  pruned: string[];
  /** The new index merged once live (compactIndex); null when not asked to. */
  compaction: Compaction | null;
}

/**
 * The new index was not made live. It is deleted (`discarded`) so that a later prune
 * never keeps it in place of a good one.
 */
export class SeedError extends Error {
  discarded = false;

  constructor(
    message: string,
    readonly index: string,
    readonly failed: BulkFailure[] = [],
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'SeedError';
  }
}

/** The documents until the run is stopped: the load then finishes what it sent and stops. */
async function* untilAborted<T>(documents: Iterable<T> | AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  for await (const document of documents) {
    if (signal.aborted) return;
    yield document;
  }
}

/**
 * Load into a fresh versioned index, check it, then switch the alias and prune: readers only ever
 * see a complete index. Like a full import, it records its differences from the catalogue it
 * replaces in the change feed: seeding the same catalogue again records nothing.
 */
export async function seedCatalogue(es: Client, options: SeedOptions): Promise<SeedResult> {
  const { alias, count, seed, imageBaseUrl, keep } = options;
  const started = performance.now();
  // What the load replaces; an alias in any other state than absent or on one index stops it.
  const replaced = await liveIndexOrNone(es, alias);
  const changes = await ChangeRecorder.open(es, alias, { against: replaced, full: true, fence: options.confirmLock });
  const index = await createVersionedIndex(es, alias, { resultWindow: options.resultWindow });
  options.onIndexCreated?.(index);
  try {
    const generated = options.documents ?? generateWallpapers({ count, seed, imageBaseUrl });
    const documents = options.signal ? untilAborted(generated, options.signal) : generated;
    const loaded = await bulkLoad(es, index, documents, {
      batchSize: options.batchSize,
      concurrency: options.concurrency,
      onProgress: options.onProgress,
      changes,
    });
    options.signal?.throwIfAborted();
    if (loaded.failed.length > 0) {
      throw new SeedError(`${loaded.failed.length} of ${count} documents failed to index`, index, loaded.failed);
    }
    await finishLoading(es, index);
    const stored = (await es.count({ index })).count;
    if (stored !== count) throw new SeedError(`index ${index} holds ${stored} documents, expected ${count}`, index);
    options.signal?.throwIfAborted();
  } catch (error) {
    const failed = error instanceof BulkLoadError ? error.failed : [];
    const seedError =
      error instanceof SeedError ? error : new SeedError(error instanceof Error ? error.message : String(error), index, failed, { cause: error });
    seedError.discarded = await discardIndex(es, index);
    throw seedError;
  }
  // Only once live and before pruning (see importFull): deletions of what it leaves out, tombstones
  // of what it brings back.
  const { previous, pruned } = await publishIndex(es, alias, index, {
    keep,
    confirmLock: options.confirmLock,
    beforePrune: async () => {
      await changes.recordMissing();
      await changes.clearReturning();
      await changes.commit([index]);
    },
  });
  const live: SeedResult = { index, indexed: count, seconds: (performance.now() - started) / 1000, previous, pruned, compaction: null };
  return mergeOnceLive(es, live, { onLive: options.onLive, signal: options.signal, merge: options.forceMerge !== false });
}
