import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { LoadEntry } from '../../wallpapers/wallpaper.js';
import { checkRecord } from './wallpaper-record.js';

export type RejectCode = 'blank_line' | 'invalid_json' | 'invalid_record' | 'duplicate_id' | 'refused_by_elasticsearch';

/** One rejected input line, as written to the rejects file. */
export interface Reject {
  line: number;
  id: number | string | null;
  code: RejectCode;
  reason: string;
  text: string;
}

export type RejectHandler = (reject: Reject) => void | Promise<void>;

/**
 * Reads NDJSON wallpapers line by line (never the whole input at once), yields the valid ones
 * as documents (and, with `deletions`, the deletions) and hands every other line to `onReject`:
 * blank lines, invalid JSON, records breaking the schema, and ids already accepted on an earlier
 * line (an id is written or deleted once per import, so its outcome does not hang on the order of
 * concurrent batches).
 */
export class NdjsonRecords {
  lines = 0;
  accepted = 0;
  rejected = 0;
  private readonly firstLine = new Map<number, number>();

  constructor(
    private readonly input: Readable,
    private readonly onReject: RejectHandler,
    private readonly options: { deletions?: boolean } = {},
  ) {}

  /** The line an accepted id was read from. */
  lineOf(id: number): number | undefined {
    return this.firstLine.get(id);
  }

  async reject(reject: Reject): Promise<void> {
    this.rejected++;
    await this.onReject(reject);
  }

  /** Ends with the input's error, if reading it fails. */
  async *documents(): AsyncGenerator<LoadEntry, void, undefined> {
    const reader = createInterface({ input: this.input, crlfDelay: Infinity });
    const failed: { error?: Error } = {};
    const onError = (error: Error) => {
      failed.error ??= error;
      reader.close();
    };
    this.input.on('error', onError);
    try {
      for await (const raw of reader) {
        const line = ++this.lines;
        const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
        if (text.trim() === '') {
          await this.reject({ line, id: null, code: 'blank_line', reason: 'blank line', text });
          continue;
        }
        const verdict = checkRecord(text, this.options);
        if (!verdict.ok) {
          await this.reject({ line, id: verdict.id, code: verdict.code, reason: verdict.reason, text });
          continue;
        }
        const entry = 'deletion' in verdict ? verdict.deletion : verdict.document;
        const { id } = entry;
        const first = this.firstLine.get(id);
        if (first !== undefined) {
          await this.reject({ line, id, code: 'duplicate_id', reason: `duplicate id ${id}, first seen on line ${first}`, text });
          continue;
        }
        this.firstLine.set(id, line);
        this.accepted++;
        yield entry;
      }
      if (failed.error) throw failed.error;
    } finally {
      this.input.off('error', onError);
      reader.close();
    }
  }
}
