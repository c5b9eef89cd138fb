import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { WallpaperRecord } from '../../wallpapers/wallpaper.js';

// Lines are gathered into writes of about this much: one write a record cost a large export most of its time.
const CHUNK_CHARS = 1 << 20;

/** Standard output was closed by its reader (`| head -1`): what it had not read yet is lost. */
export class ReaderGone extends Error {
  constructor() {
    super('standard output closed by its reader');
    this.name = 'ReaderGone';
  }
}

/** Where records go: standard output, or a file written whole or not at all. */
export interface RecordSink {
  /** Writes every record; throws what the records or the output throw. */
  write(records: Iterable<WallpaperRecord> | AsyncIterable<WallpaperRecord>): Promise<number>;
  /** Puts a file in place under its name (the temporary one renamed); nothing for standard output. */
  commit(): Promise<void>;
  /** Removes what a file sink wrote; nothing for standard output. */
  abort(): Promise<void>;
}

/**
 * Opens where the records go before any is read, so a path that cannot be written (a missing
 * directory, no permission, a directory) fails at once, not after a whole export. A file is
 * written whole or not at all: under a temporary name beside it, put in place by `commit`, removed
 * by `abort`, so a file named as asked is never half an export.
 */
export async function openRecordSink(out: string | undefined): Promise<RecordSink> {
  if (out === undefined) {
    return { write: (records) => writeTo(process.stdout, records, true), commit: () => Promise.resolve(), abort: () => Promise.resolve() };
  }
  const existing = await stat(out).catch(() => null);
  if (existing?.isDirectory()) throw new Error(`${out} is a directory`);
  const partial = `${out}.partial-${process.pid}`;
  const file = createWriteStream(partial);
  await opened(file);
  // A second Ctrl-C exits at once (interrupt.ts), with no time for `abort`: the temporary file goes
  // with the process. Only SIGKILL leaves it.
  const removeOnExit = () => rmSync(partial, { force: true });
  process.on('exit', removeOnExit);
  return {
    write: (records) => writeTo(file, records, false),
    async commit() {
      file.end();
      await once(file, 'close');
      await rename(partial, out);
      process.off('exit', removeOnExit);
    },
    async abort() {
      file.destroy();
      await rm(partial, { force: true });
      process.off('exit', removeOnExit);
    },
  };
}

/** Writes records to a sink opened for `out` and puts the file in place; removes it when anything fails. */
export async function writeRecords(records: Iterable<WallpaperRecord> | AsyncIterable<WallpaperRecord>, out: string | undefined): Promise<number> {
  const sink = await openRecordSink(out);
  try {
    const written = await sink.write(records);
    await sink.commit();
    return written;
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/** Resolves once the file is open; rejects with why it cannot be (ENOENT, EACCES). */
async function opened(file: WriteStream): Promise<void> {
  await once(file, 'open');
  // Later failures reach the writer through its own listener, or `commit` through the close it waits for.
  file.on('error', () => undefined);
}

async function writeTo(out: Writable, records: Iterable<WallpaperRecord> | AsyncIterable<WallpaperRecord>, stdout: boolean): Promise<number> {
  let written = 0;
  // An output that fails while a write waits (a disk full, a reader gone) ends the export with that error.
  let failure: Error | null = null;
  const onError = (error: Error) => (failure ??= error);
  out.on('error', onError);
  const check = () => {
    if (failure === null) return;
    throw stdout && (failure as NodeJS.ErrnoException).code === 'EPIPE' ? new ReaderGone() : failure;
  };
  const send = async (chunk: string) => {
    check();
    // Waiting for room ends with the output's error too (onError has kept it).
    if (!out.write(chunk)) await once(out, 'drain').catch(() => undefined);
    check();
  };
  try {
    let chunk = '';
    let inChunk = 0;
    for await (const record of records) {
      chunk += `${JSON.stringify(record)}\n`;
      inChunk++;
      if (chunk.length >= CHUNK_CHARS) {
        await send(chunk);
        written += inChunk;
        [chunk, inChunk] = ['', 0];
      }
    }
    if (chunk !== '') await send(chunk);
    written += inChunk;
    return written;
  } finally {
    out.off('error', onError);
  }
}
