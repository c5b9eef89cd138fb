import type { Client } from '@elastic/elasticsearch';
import { bulkLoad, type BulkFailure, type BulkProgress } from './bulk-load.js';
import {
  type Compaction,
  mergeOnceLive,
  createVersionedIndex,
  discardIndex,
  finishLoading,
  listVersionedIndices,
  liveIndex,
  selectOrphans,
  selectPrunable,
  publishIndex,
  type VersionedIndex,
} from '../admin/index-admin.js';
import { versionedIndexName } from '../../wallpapers/store/index-names.js';
import { openSnapshot } from './index-snapshot.js';
import { verifyCopy, type CopyCheck } from './verify-copy.js';

export interface ReindexOptions {
  alias: string;
  /** MAX_RESULT_WINDOW, which a new index serves (createVersionedIndex); undefined: the mapping file's. */
  resultWindow?: number;
  /** Versioned indices to keep afterwards, the new live one included. */
  keep: number;
  batchSize?: number;
  concurrency?: number;
  sampleSize?: number;
  /** Stops the copy; the reindex then ends with signal.reason. Once live, stops waiting for the merge. */
  signal?: AbortSignal;
  /** The copy is live; its merge to one segment starts (result.compaction tells how it went). */
  onLive?: (result: ReindexResult) => void;
  onCopyStart?: (copy: { source: string; index: string; total: number }) => void;
  onProgress?: (progress: BulkProgress) => void;
  /** Throws unless the run still holds the catalogue lock: asked before the alias moves and again before pruning. */
  confirmLock?: () => Promise<void>;
}

export interface ReindexResult {
  source: string;
  index: string;
  docs: number;
  checks: CopyCheck[];
  previous: string[];
  pruned: string[];
  /** Until the copy was live. */
  seconds: number;
  /** The copy merged once live (compactIndex); null until then. */
  compaction: Compaction | null;
}

export interface ReindexPlan {
  source: string;
  docs: number;
  /** The name the new index would get now. */
  index: string;
  orphans: string[];
  pruned: string[];
}

export class ReindexError extends Error {
  discarded = false;

  constructor(
    message: string,
    readonly index: string | null,
    readonly failed: BulkFailure[] = [],
    readonly checks: CopyCheck[] = [],
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'ReindexError';
  }
}

/**
 * What a reindex would do now, changing nothing. A dry run passes the indices as the real run will
 * find them once killed runs are finished (afterKilledRuns): an index left `leaving` is `complete`
 * by then, and prunable, which the list as it stands had hidden (helper-105).
 */
export async function planReindex(es: Client, alias: string, keep: number, listed?: readonly VersionedIndex[]): Promise<ReindexPlan> {
  const source = await liveIndex(es, alias);
  const [indices, counted] = await Promise.all([listed ?? listVersionedIndices(es, alias), es.count({ index: source })]);
  const orphans = selectOrphans(indices);
  const next: VersionedIndex = { name: versionedIndexName(alias), createdAt: new Date(), docs: counted.count, live: true, state: 'complete' };
  const after = [next, ...indices.filter((index) => !orphans.includes(index)).map((index) => ({ ...index, live: false }))];
  return {
    source,
    docs: counted.count,
    index: next.name,
    orphans: orphans.map(({ name }) => name),
    pruned: selectPrunable(after, keep).map(({ name }) => name),
  };
}

/**
 * Copies the live index into a new one built from the current mapping file, verifies the copy,
 * then moves the alias in one atomic call and prunes beyond `keep`. On any failure the new
 * index is deleted and the alias is left where it was.
 */
export async function reindexCatalogue(es: Client, options: ReindexOptions): Promise<ReindexResult> {
  const { alias, batchSize = 2000, signal } = options;
  const started = performance.now();
  const source = await liveIndex(es, alias);
  const snapshot = await openSnapshot(es, source);
  let index: string | null = null;
  let checks: CopyCheck[] = [];
  try {
    index = await createVersionedIndex(es, alias, { resultWindow: options.resultWindow });
    options.onCopyStart?.({ source, index, total: snapshot.total });
    const copied = await bulkLoad(es, index, snapshot.documents(batchSize, signal), {
      batchSize,
      concurrency: options.concurrency,
      onProgress: options.onProgress,
    });
    signal?.throwIfAborted();
    if (copied.failed.length > 0)
      throw new ReindexError(`${copied.failed.length} of ${snapshot.total} documents failed to copy`, index, copied.failed);
    if (copied.indexed !== snapshot.total) throw new Error(`copied ${copied.indexed} documents, the source snapshot holds ${snapshot.total}`);
    await finishLoading(es, index);
    checks = await verifyCopy(es, source, index, { sampleSize: options.sampleSize });
    const failing = checks.filter((check) => !check.ok);
    if (failing.length > 0) throw new Error(`verification failed: ${failing.map((check) => `${check.name}: ${check.detail}`).join('; ')}`);
    signal?.throwIfAborted();
    await options.confirmLock?.();
  } catch (error) {
    const failure =
      error instanceof ReindexError
        ? error
        : new ReindexError(error instanceof Error ? error.message : String(error), index, [], checks, { cause: error });
    if (index !== null) failure.discarded = await discardIndex(es, index);
    throw failure;
  } finally {
    await snapshot.close();
  }
  const { previous, pruned } = await publishIndex(es, alias, index, { keep: options.keep, confirmLock: options.confirmLock });
  const live: ReindexResult = {
    source,
    index,
    docs: snapshot.total,
    checks,
    previous,
    pruned,
    seconds: (performance.now() - started) / 1000,
    compaction: null,
  };
  return mergeOnceLive(es, live, { onLive: options.onLive, signal });
}
