import type { Readable } from 'node:stream';
import type { Client } from '@elastic/elasticsearch';
import { type ChangeStamp, type LoadEntry, isDeletion } from '../../wallpapers/wallpaper.js';
import { contentHash } from '../admin/change-recorder.js';
import { liveIndexOrNone } from '../admin/index-admin.js';
import { StampScan } from '../admin/stamp-scan.js';
import { NdjsonRecords, type RejectHandler } from './ndjson-records.js';
import type { ImportProgress } from './import-catalogue.js';

export interface ImportPreviewOptions {
  alias: string;
  input: Readable;
  incremental: boolean;
  /** Rejected lines tolerated before the import counts as failed. */
  allowRejects: number;
  /** Records compared with the catalogue at a time. */
  batchSize?: number;
  signal?: AbortSignal;
  onReject: RejectHandler;
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
  /** Why the real run would fail; null when it would succeed. */
  failure: string | null;
}

const PROGRESS_EVERY_MS = 250;

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
    failure: null,
  };
  const records = new NdjsonRecords(options.input, options.onReject, { deletions: incremental });
  const scan = against === null ? null : new StampScan(es, against);
  let held = 0;
  const compare = async (batch: LoadEntry[]) => {
    const stamps = scan === null ? new Map<number, ChangeStamp>() : await scan.lookup(batch.map(({ id }) => id));
    for (const entry of batch) {
      const stamp = stamps.get(entry.id);
      if (stamp !== undefined) held++;
      if (isDeletion(entry)) {
        if (stamp === undefined) preview.deletionsOfAbsent++;
        else preview.deleted++;
      } else if (stamp === undefined) preview.added++;
      else if (stamp.hash === contentHash(entry)) preview.unchanged++;
      else preview.changed++;
    }
  };
  const report = () => onProgress?.({ lines: records.lines, rejected: records.rejected });
  const timer = setInterval(report, PROGRESS_EVERY_MS);
  const stopReading = () => options.input.destroy();
  signal?.addEventListener('abort', stopReading, { once: true });
  try {
    let batch: LoadEntry[] = [];
    for await (const entry of records.documents()) {
      batch.push(entry);
      if (batch.length >= (options.batchSize ?? 2000)) {
        await compare(batch);
        batch = [];
      }
    }
    await compare(batch);
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
  preview.failure = failureOf(preview, { incremental, allowRejects });
  return preview;
}

/** Why a real import would fail, as the import itself would say it; null when it would not. */
function failureOf(preview: ImportPreview, { incremental, allowRejects }: { incremental: boolean; allowRejects: number }): string | null {
  if (incremental && preview.against === null) return 'an incremental import needs exactly one live index, and the alias points at none';
  if (preview.rejected > allowRejects) {
    const stop = incremental ? '; writing would stop at that point' : '';
    return `${preview.rejected} line${preview.rejected === 1 ? '' : 's'} rejected, more than --allow-rejects ${allowRejects}${stop}`;
  }
  if (!incremental && preview.added + preview.changed + preview.unchanged === 0) return 'no valid records to import';
  return null;
}
