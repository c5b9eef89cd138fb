import type { Readable } from 'node:stream';
import type { LoadEntry } from '../../wallpapers/wallpaper.js';
import { checkRecord } from './wallpaper-record.js';
import { inputLines } from './input-lines.js';

export type RejectCode =
  'blank_line' | 'not_utf8' | 'line_too_long' | 'invalid_json' | 'invalid_record' | 'duplicate_id' | 'refused_by_elasticsearch';

/**
 * The longest line read as a record: a wallpaper with every field at its bound is a few kilobytes,
 * so a longer line is not one (a catalogue sent as one JSON array, a file of another kind).
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** One rejected input line, as written to the rejects file. */
export interface Reject {
  line: number;
  id: number | string | null;
  code: RejectCode;
  reason: string;
  text: string;
}

export type RejectHandler = (reject: Reject) => void | Promise<void>;

/** Where a rejected line stands, as the import names it: its number and, when it has one, its id. */
export const whereRejected = ({ line, id }: Reject): string => `line ${line}${id === null ? '' : ` (id ${JSON.stringify(id)})`}`;

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

  /** Ends with the input's error, if reading it fails, or when it is destroyed. */
  async *documents(): AsyncGenerator<LoadEntry, void, undefined> {
    for await (const read of inputLines(this.input, MAX_LINE_BYTES)) {
      const line = ++this.lines;
      const text = line === 1 ? read.text.replace(/^\uFEFF/, '') : read.text;
      if (read.kind === 'not_utf8') {
        await this.reject({
          line,
          id: null,
          code: 'not_utf8',
          reason: 'not UTF-8: the line holds bytes that are no UTF-8 character (shown as U+FFFD)',
          text,
        });
        continue;
      }
      if (read.kind === 'too_long') {
        const reason = `line of ${read.bytes} bytes, longer than ${MAX_LINE_BYTES}: one record a line (shown: its first 200 bytes)`;
        await this.reject({ line, id: null, code: 'line_too_long', reason, text });
        continue;
      }
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
  }
}
