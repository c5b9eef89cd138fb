import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { WallpaperRecord } from '../../wallpapers/wallpaper.js';

// Lines are gathered into writes of about this much: one write a record cost a large export most of its time.
const CHUNK_CHARS = 1 << 20;

/**
 * Writes records as NDJSON, one a line, to standard output or to `out`. A file is written whole or
 * not at all: under a temporary name beside it, renamed when every record is written, removed when
 * the run fails or is stopped, so a file named as asked is never half an export.
 */
export async function writeRecords(records: Iterable<WallpaperRecord> | AsyncIterable<WallpaperRecord>, out: string | undefined): Promise<number> {
  if (out === undefined) return writeTo(process.stdout, records);
  const partial = `${out}.partial-${process.pid}`;
  const file = createWriteStream(partial);
  try {
    const written = await writeTo(file, records);
    file.end();
    await once(file, 'close');
    await rename(partial, out);
    return written;
  } catch (error) {
    file.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

async function writeTo(out: Writable, records: Iterable<WallpaperRecord> | AsyncIterable<WallpaperRecord>): Promise<number> {
  let written = 0;
  let chunk = '';
  for await (const record of records) {
    chunk += `${JSON.stringify(record)}\n`;
    written++;
    if (chunk.length >= CHUNK_CHARS) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  if (chunk !== '' && !out.write(chunk)) await once(out, 'drain');
  return written;
}
