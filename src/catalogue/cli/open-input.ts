import { createReadStream, fstat, open, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

export interface OpenInput {
  stream: Readable;
  /** A regular file, which can be read twice (its lines counted first); not a pipe. */
  regularFile: boolean;
}

/**
 * An import's input file, opened for reading once. A pipe given by name (`<(zcat file.gz)`, a
 * FIFO) is read as standard input is, without blocking: read as a file, a read waits in libuv's
 * thread pool until the writer sends more, and a stopped run could not close it, so an import told
 * to stop waited for its writer (review).
 */
export async function openInput(path: string): Promise<OpenInput> {
  const fd = await promisify(open)(path, 'r');
  const info: Stats = await promisify(fstat)(fd);
  if (info.isFIFO() || info.isSocket()) return { stream: new Socket({ fd, readable: true, writable: false }), regularFile: false };
  return { stream: createReadStream('', { fd, autoClose: true }), regularFile: info.isFile() };
}
