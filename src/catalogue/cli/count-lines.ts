import { createReadStream } from 'node:fs';

const NEWLINE = 0x0a;

/** Lines in a file, a last line without a trailing newline included; for a progress total. */
export async function countLines(path: string): Promise<number> {
  let lines = 0;
  let last = NEWLINE;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) lines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] as number;
  }
  return last === NEWLINE ? lines : lines + 1;
}
