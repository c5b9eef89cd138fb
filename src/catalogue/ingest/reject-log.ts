import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Reject } from './ndjson-records.js';

export interface RejectLog {
  readonly path: string;
  readonly count: number;
  write(reject: Reject): Promise<void>;
  /** Closes the file; an empty one is removed, so the file exists exactly when this run rejected something. */
  close(): Promise<void>;
}

/** One JSON object per rejected line. Truncates an existing file, so it never mixes in an earlier run's lines. */
export function openRejectLog(path: string): RejectLog {
  const stream = createWriteStream(path, { flags: 'w' });
  let count = 0;
  let failure: Error | null = null;
  stream.on('error', (error) => (failure ??= error));
  return {
    path,
    get count() {
      return count;
    },
    async write(reject) {
      if (failure !== null) throw failure;
      count++;
      if (!stream.write(`${JSON.stringify(reject)}\n`)) await once(stream, 'drain');
    },
    async close() {
      if (!stream.closed) {
        stream.end();
        await once(stream, 'close');
      }
      if (failure !== null) throw failure;
      if (count === 0) await rm(path, { force: true });
    },
  };
}
