import type { Readable } from 'node:stream';
import type { Client } from '@elastic/elasticsearch';
import { type ChangeStamp, type LoadEntry, isDeletion } from '../../wallpapers/wallpaper.js';
import { contentHash } from '../admin/change-recorder.js';
import { liveIndexOrNone } from '../admin/index-admin.js';
import { StampScan } from '../admin/stamp-scan.js';
import { NdjsonRecords, type RejectHandler } from './ndjson-records.js';
import {
  type ImportProgress,
  NEEDS_LIVE_INDEX,
  NO_VALID_RECORDS,
  PROGRESS_EVERY_MS,
  deletesAllowed,
  tooManyDeletes,
  tooManyRejects,
} from './import-catalogue.js';

export interface ImportPreviewOptions {
  alias: string;
  input: Readable;
  incremental: boolean;
  /** Rejected lines tolerated before the import counts as failed. */
  allowRejects: number;
  /** Deletions a full import may imply (import-catalogue.ts, deletesAllowed); undefined for the default. */
  allowDeletes?: number;
  /** Records compared with the catalogue at a time. */
  batchSize?: number;
  signal?: AbortSignal;
  onReject: RejectHandler;
  /** The input starts being read (a run that fails before reads none). */
  onRead?: () => void;
  onProgress?: (progress: ImportProgress) => void;
}

/** What an import of the input would do to the catalogue, found without writing anything. */
export interface ImportPreview {
  lines: number;
  rejected: number;
  /** The live index compared against; null when the alias points at none. */
  against: string | null;
  /** Wallpapers in it. */
  live: number;
  /** Records of ids the catalogue does not hold. */
  added: number;
  /** Records of ids it holds, with other content. */
  changed: number;
  /** Records the same as the catalogue's: a real run records no change for them. */
  unchanged: number;
  /** Wallpapers that would go: named by a deletion (incremental), or missing from the input (full). */
  deleted: number;
  /** Deletions of ids the catalogue does not hold, which change nothing (incremental). */
  deletionsOfAbsent: number;
  /**
   * An incremental import past its allowance stops writing at the line that goes past it, and what
   * it wrote before stays: the changes that would be (new, changed, deleted); null when it would not stop.
   */
  writtenBeforeStop: { added: number; changed: number; deleted: number; beforeLine: number } | null;
  /** Why the real run would fail; null when it would succeed. */
  failure: string | null;
}

/**
 * Reads and checks the input as an import would (the same reader, the same rejects) and compares
 * each valid record with the live catalogue's by the digest the change feed keeps: a dry run says
 * which lines would be rejected, what would change, and whether the run would succeed, writing
 * nothing to Elasticsearch. Pictures are not read: a record whose palette `--extract-colors` would
 * add is compared as it stands. Killed runs a real run finishes first (killed-runs.ts) are not
 * finished here, and the catalogue may change before the real run; both can make it differ.
 */
export async function previewImport(es: Client, options: ImportPreviewOptions): Promise<ImportPreview> {
  const { alias, incremental, allowRejects, signal, onProgress } = options;
  const against = await liveIndexOrNone(es, alias);
  const preview: ImportPreview = {
    lines: 0,
    rejected: 0,
    against,
    live: against === null ? 0 : (await es.count({ index: against })).count,
    added: 0,
    changed: 0,
    unchanged: 0,
    deleted: 0,
    deletionsOfAbsent: 0,
    writtenBeforeStop: null,
    failure: null,
  };
  // The real run fails before it reads a line: no rejects either.
  if (incremental && against === null) return { ...preview, failure: failureOf(preview, options) };
  // Valid records read, and how many of them the real run would write before a reject past the
  // allowance stops it (import-catalogue.ts: it yields no record after that reject).
  let read = 0;
  let stopAt = Number.POSITIVE_INFINITY;
  let stopLine = 0;
  const records: NdjsonRecords = new NdjsonRecords(
    options.input,
    async (reject) => {
      if (records.rejected > allowRejects && stopAt === Number.POSITIVE_INFINITY) [stopAt, stopLine] = [read, reject.line];
      await options.onReject(reject);
    },
    { deletions: incremental },
  );
  const scan = against === null ? null : new StampScan(es, against);
  const beforeStop = { added: 0, changed: 0, deleted: 0 };
  let held = 0;
  const compare = async (batch: LoadEntry[], first: number) => {
    const stamps = scan === null ? new Map<number, ChangeStamp>() : await scan.lookup(batch.map(({ id }) => id));
    for (const [i, entry] of batch.entries()) {
      const stamp = stamps.get(entry.id);
      const kind = changeOf(entry, stamp);
      if (stamp !== undefined) held++;
      preview[kind]++;
      if (first + i < stopAt && (kind === 'added' || kind === 'changed' || kind === 'deleted')) beforeStop[kind]++;
    }
  };
  options.onRead?.();
  const report = () => onProgress?.({ lines: records.lines, rejected: records.rejected });
  const timer = setInterval(report, PROGRESS_EVERY_MS);
  const stopReading = () => options.input.destroy();
  signal?.addEventListener('abort', stopReading, { once: true });
  try {
    let batch: LoadEntry[] = [];
    for await (const entry of records.documents()) {
      batch.push(entry);
      read++;
      if (batch.length >= (options.batchSize ?? 2000)) {
        await compare(batch, read - batch.length);
        batch = [];
      }
    }
    await compare(batch, read - batch.length);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopReading);
    clearInterval(timer);
    preview.lines = records.lines;
    preview.rejected = records.rejected;
    report();
  }
  // A full import's new index holds the input alone: what the catalogue holds beyond it goes.
  if (!incremental) preview.deleted = preview.live - held;
  if (incremental && stopAt !== Number.POSITIVE_INFINITY) preview.writtenBeforeStop = { ...beforeStop, beforeLine: stopLine };
  preview.failure = failureOf(preview, options);
  return preview;
}

/** What an entry would do to the catalogue, by the stamp of its id there (none: absent). */
function changeOf(entry: LoadEntry, stamp: ChangeStamp | undefined): 'added' | 'changed' | 'unchanged' | 'deleted' | 'deletionsOfAbsent' {
  if (isDeletion(entry)) return stamp === undefined ? 'deletionsOfAbsent' : 'deleted';
  if (stamp === undefined) return 'added';
  return stamp.hash === contentHash(entry) ? 'unchanged' : 'changed';
}

/** Why a real import would fail, as the import itself would say it; null when it would not. */
function failureOf(preview: ImportPreview, { incremental, allowRejects, allowDeletes }: ImportPreviewOptions): string | null {
  if (incremental && preview.against === null) return `${NEEDS_LIVE_INDEX}, and the alias points at none`;
  if (preview.rejected > allowRejects) {
    const written = preview.writtenBeforeStop;
    const stop =
      written === null
        ? ''
        : `; writing would stop at line ${written.beforeLine}, after ${written.added + written.changed + written.deleted} changes ` +
          `(${written.added} new, ${written.changed} changed, ${written.deleted} deleted), which would stay`;
    return `${tooManyRejects(preview.rejected, allowRejects)}${stop}`;
  }
  if (!incremental && preview.added + preview.changed + preview.unchanged === 0) return NO_VALID_RECORDS;
  if (!incremental && preview.deleted > deletesAllowed(allowDeletes, preview.live))
    return tooManyDeletes(preview.deleted, preview.live, allowDeletes);
  return null;
}
