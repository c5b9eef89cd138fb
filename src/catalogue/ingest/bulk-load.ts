import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { createTitleCarriers, toIndexDocument } from '../../wallpapers/store/index-document.js';
import type { WallpaperDocument } from '../../wallpapers/wallpaper.js';

export interface BulkFailure {
  id: number;
  /** HTTP status of the item, absent when it was never sent. */
  status?: number;
  reason: string;
  document: WallpaperDocument;
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
}

export interface BulkLoadResult {
  indexed: number;
  failed: BulkFailure[];
  seconds: number;
}

/** The load stopped early: the request-level error is the cause, counts are what was settled before. */
export class BulkLoadError extends Error {
  constructor(
    message: string,
    readonly indexed: number,
    readonly failed: BulkFailure[],
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'BulkLoadError';
  }
}

type DocSource = Iterable<WallpaperDocument> | AsyncIterable<WallpaperDocument>;

async function* inBatches(docs: DocSource, size: number): AsyncGenerator<WallpaperDocument[]> {
  let batch: WallpaperDocument[] = [];
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

const BULK_RESPONSE_FILTER = ['errors', 'items.*.status', 'items.*.error'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Indexes docs with _id = String(id) through the _bulk API, a bounded number of requests in flight.
 * Every document ends up either counted in `indexed` or listed in `failed`; a request that keeps
 * failing after retries aborts the load with a BulkLoadError.
 */
export async function bulkLoad(es: Client, index: string, docs: DocSource, options: BulkLoadOptions = {}): Promise<BulkLoadResult> {
  const { batchSize = 2000, concurrency = 2, retries = 3, requestTimeoutMs = 120_000, onProgress } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  const started = performance.now();
  let indexed = 0;
  const failed: BulkFailure[] = [];
  const report = () => onProgress?.({ indexed, failed: failed.length });
  const carriesTitle = createTitleCarriers();

  async function send(batch: WallpaperDocument[]): Promise<void> {
    // Decided once per document, so a retried carrier still carries its title's suggestions.
    const stored = new Map(batch.map((doc) => [doc, toIndexDocument(doc, { suggest: carriesTitle(doc.title) })]));
    let pending = batch.filter((doc) => {
      if (Number.isSafeInteger(doc.id)) return true;
      failed.push({ id: doc.id, reason: `id must be an integer, got ${JSON.stringify(doc.id)}`, document: doc });
      return false;
    });
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(250 * 2 ** attempt, 8000));
      const operations: unknown[] = [];
      for (const doc of pending) operations.push({ index: { _id: String(doc.id) } }, stored.get(doc));
      let response: estypes.BulkResponse;
      try {
        // Each item's status and error, in order, is all a load reads: not its _id, version, shards, seq_no.
        response = await es.bulk({ index, operations, filter_path: BULK_RESPONSE_FILTER }, { requestTimeout: requestTimeoutMs, maxRetries: 0 });
      } catch (error) {
        if (attempt < retries && isTransient(error)) continue;
        throw error;
      }
      if (response.items.length !== pending.length) {
        throw new Error(`bulk response has ${response.items.length} items for ${pending.length} documents`);
      }
      if (!response.errors) {
        indexed += pending.length;
        pending = [];
        break;
      }
      const rejected: WallpaperDocument[] = [];
      response.items.forEach((item, i) => {
        const doc = pending[i] as WallpaperDocument;
        const result = item.index;
        if (result === undefined) failed.push({ id: doc.id, reason: `unexpected bulk item ${JSON.stringify(item)}`, document: doc });
        else if (result.error === undefined) indexed++;
        else if (result.status === 429 && attempt < retries) rejected.push(doc);
        else failed.push({ id: doc.id, status: result.status, reason: describe(result.error), document: doc });
      });
      pending = rejected;
    }
    report();
  }

  const inFlight = new Set<Promise<void>>();
  let fatal: { error: unknown } | null = null;
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
  } finally {
    // Also when the source throws: a request still in flight after the caller deletes the
    // index would recreate it with a dynamic mapping.
    await Promise.all(inFlight);
  }
  const stop = fatal as { error: unknown } | null;
  if (stop !== null) {
    const reason = stop.error instanceof Error ? stop.error.message : String(stop.error);
    throw new BulkLoadError(`bulk load into ${index} stopped: ${reason}`, indexed, failed, { cause: stop.error });
  }
  return { indexed, failed, seconds: (performance.now() - started) / 1000 };
}
