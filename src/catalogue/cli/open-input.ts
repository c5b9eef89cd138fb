import { closeSync, constants, createReadStream, fstat, open, openSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

const UNBLOCK_RETRY_MS = 10;

export interface OpenInput {
  stream: Readable;
  /** A regular file, which can be read twice (its lines counted first); not a pipe. */
  regularFile: boolean;
}

/**
 * Opening a FIFO for reading waits for its writer, in libuv's thread pool, where nothing cancels
 * it: a run stopped while it waited held its lock for good (review), and a process whose pool
 * thread never returns cannot exit, as libuv joins its threads at exit. A stop opens the FIFO for
 * writing for a moment, which ends the wait. Such an open finds no reader while ours still waits
 * its turn in the pool (its threads busy, or not yet started on a loaded machine), so the stop
 * opens again every few milliseconds until ours has returned.
 */
async function openWaitingForWriter(path: string, signal: AbortSignal | undefined): Promise<number> {
  signal?.throwIfAborted();
  let again: NodeJS.Timeout | undefined;
  const unblock = () => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader yet (ENXIO): ours has not begun, or has already ended.
    }
    again = setTimeout(unblock, UNBLOCK_RETRY_MS);
  };
  signal?.addEventListener('abort', unblock, { once: true });
  let fd: number;
  try {
    fd = await promisify(open)(path, 'r');
  } finally {
    signal?.removeEventListener('abort', unblock);
    clearTimeout(again);
  }
  if (signal?.aborted) {
    closeSync(fd);
    throw signal.reason;
  }
  return fd;
}

/**
 * An import's input file, opened for reading once (`onWait` is told when it waits for a FIFO's
 * writer). A pipe given by name (`<(zcat file.gz)`, a
 * FIFO) is read as standard input is, without blocking: read as a file, a read waits in libuv's
 * thread pool until the writer sends more, and a stopped run could not close it, so an import told
 * to stop waited for its writer (review).
 */
export async function openInput(path: string, signal?: AbortSignal, onWait?: () => void): Promise<OpenInput> {
  const fifo = (await stat(path)).isFIFO();
  if (fifo) onWait?.();
  const fd = fifo ? await openWaitingForWriter(path, signal) : await promisify(open)(path, 'r');
  const info: Stats = await promisify(fstat)(fd);
  if (info.isFIFO() || info.isSocket()) return { stream: new Socket({ fd, readable: true, writable: false }), regularFile: false };
  return { stream: createReadStream('', { fd, autoClose: true }), regularFile: info.isFile() };
}
