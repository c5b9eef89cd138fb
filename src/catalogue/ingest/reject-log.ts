import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Reject } from './ndjson-records.js';

export interface RejectLog {
  readonly path: string;
  readonly count: number;
  /**
   * The run starts reading its input: an earlier run's file no longer describes it and goes now, so
   * a run killed before its first reject leaves none rather than another input's lines.
   */
  begin(): void;
  write(reject: Reject): Promise<void>;
  /**
   * Closes the file. Once the run began reading, the file exists exactly when it rejected
   * something; a run that stopped before (no live index, Elasticsearch gone) leaves an earlier
   * run's file as it was, the only account of what that run refused.
   */
  close(): Promise<void>;
}

/** One JSON object per rejected line, in a file made at the first one: it never mixes in an earlier run's lines. */
export function openRejectLog(path: string): RejectLog {
  let stream: WriteStream | null = null;
  let began = false;
  let count = 0;
  let failure: Error | null = null;
  return {
    path,
    get count() {
      return count;
    },
    begin() {
      began = true;
      // A file that cannot be removed here is tried again at close, which reports it.
      if (stream === null) {
        try {
          rmSync(path, { force: true });
        } catch {
          // Left to close.
        }
      }
    },
    async write(reject) {
      if (stream === null) {
        stream = createWriteStream(path, { flags: 'w' });
        stream.on('error', (error) => (failure ??= error));
      }
      if (failure !== null) throw failure;
      count++;
      if (!stream.write(`${JSON.stringify(reject)}\n`)) await once(stream, 'drain');
    },
    async close() {
      if (stream !== null && !stream.closed) {
        stream.end();
        await once(stream, 'close');
      }
      if (failure !== null) throw failure;
      if (count === 0 && began) await rm(path, { force: true });
    },
  };
}
