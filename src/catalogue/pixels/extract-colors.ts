import { type LoadEntry, type WallpaperDocument, isDeletion } from '../../wallpapers/wallpaper.js';
import { type ImageSource, ImageFetchStopped, fetchImage } from './fetch-image.js';
import { paletteOfImage } from './palette-of-image.js';

export interface ExtractOptions extends ImageSource {
  /** Pictures fetched and read at once. */
  concurrency: number;
  /** A wallpaper whose picture could not be read: it goes on without a palette. */
  onFailure: (failure: { id: number; url: string; reason: string }) => void;
  onExtracted?: () => void;
}

/**
 * The first pictures all failed: the URLs, the image host or the folder is wrong, and going on
 * would spend a timeout on every record to load none of their palettes.
 */
export class NoPictureReadable extends Error {
  constructor(tried: number, last: string) {
    super(`none of the first ${tried} pictures could be read (the last: ${last}); check where they are, or load without --extract-colors`);
    this.name = 'NoPictureReadable';
  }
}

// How many pictures must fail, with none read, before the run stops.
export const GIVE_UP_AFTER = 50;

// Records held to keep the order: a slow picture at the head holds only the records behind it,
// while the others' pictures go on being read. With the window as deep as the reads (8), a
// picture that kept timing out stopped every other read: 10 hung hosts among 200 records took
// 68 s, one after another; with four times the reads, hung hosts 40 records apart still were
// (review). A record held is a document of a few KB: its picture's bytes are gone once read.
const HELD_RECORDS = 1024;

export interface ExtractCounts {
  extracted: number;
  failed: number;
  /** Already had a palette: nothing fetched. */
  kept: number;
  /** The last picture that could not be read, and why (the give-up names it). */
  lastFailure?: string;
  seconds: number;
}

interface Read {
  doc: WallpaperDocument;
  failure?: { id: number; url: string; reason: string };
}

/** The give-up, as soon as the first GIVE_UP_AFTER pictures to finish all failed. */
function gaveUp(counts: ExtractCounts): NoPictureReadable | null {
  return counts.extracted === 0 && counts.failed >= GIVE_UP_AFTER ? new NoPictureReadable(counts.failed, counts.lastFailure ?? '') : null;
}

async function withPalette(doc: WallpaperDocument, options: ExtractOptions, counts: ExtractCounts): Promise<Read> {
  try {
    const colors = await paletteOfImage(await fetchImage(doc.thumbnail, options));
    counts.extracted++;
    options.onExtracted?.();
    return { doc: colors.length > 0 ? { ...doc, colors } : doc };
  } catch (error) {
    // Not the picture's failure: the run is stopping.
    if (error instanceof ImageFetchStopped) throw error;
    counts.failed++;
    const reason = error instanceof Error ? error.message : String(error);
    counts.lastFailure = `${doc.thumbnail}: ${reason}`;
    const stop = gaveUp(counts);
    if (stop) throw stop;
    return { doc, failure: { id: doc.id, url: doc.thumbnail, reason } };
  }
}

/** At most `limit` places taken at once; a place is given back once, and `whenFree` waits for one. */
function places(limit: number) {
  let taken = 0;
  let waiting: (() => void)[] = [];
  return {
    free: () => taken < limit,
    whenFree: () => new Promise<void>((resolve) => waiting.push(resolve)),
    take(): () => void {
      taken++;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        taken--;
        const woken = waiting;
        waiting = [];
        for (const wake of woken) wake();
      };
    },
  };
}

/** A record on its way out: read (a palette or a failure), or passed as it came. */
type Passed = Read | { doc: LoadEntry; failure?: undefined };
type Held = { read: Promise<Passed>; done: boolean };

/**
 * The documents in their order, each without a palette given one read from its thumbnail:
 * `concurrency` pictures in flight, the next read as soon as one is done, and up to HELD_RECORDS
 * records held to keep the order (a slow image host holds the load back instead of filling
 * memory). While every place is taken, records whose pictures are done go on out. A picture that
 * could not be read is reported as its document comes out, so reports follow the records' order
 * whichever picture fails first. `counts` is filled in as they go. Stops with NoPictureReadable
 * when the first GIVE_UP_AFTER all fail; with the run's signal, at once: pictures in flight are
 * abandoned and the records held are not passed on. However it ends, no fetch outlives it (a
 * give-up had left hung fetches holding the run open).
 */
export async function* withExtractedColors<T extends LoadEntry>(
  documents: Iterable<T> | AsyncIterable<T>,
  options: ExtractOptions,
  counts: ExtractCounts = { extracted: 0, failed: 0, kept: 0, seconds: 0 },
): AsyncGenerator<T> {
  const started = performance.now();
  const { signal } = options;
  const ended = new AbortController();
  const reading: ExtractOptions = { ...options, signal: signal ? AbortSignal.any([signal, ended.signal]) : ended.signal };
  const reads = places(options.concurrency);
  const window: Held[] = [];
  const hold = (read: Promise<Passed>) => {
    const held: Held = { read, done: false };
    const settle = () => {
      held.done = true;
    };
    // Only the head's failure is awaited; the others must not go unhandled.
    read.then(settle, settle);
    window.push(held);
  };
  const next = async (): Promise<T> => {
    let read: Passed;
    try {
      read = await window.shift()!.read;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    if (read.failure) options.onFailure(read.failure);
    // Each comes out as it went in, a palette added at most.
    return read.doc as T;
  };
  try {
    for await (const doc of documents) {
      if (signal?.aborted) break;
      // A deletion has no picture; it keeps its place in the order.
      if (isDeletion(doc)) hold(Promise.resolve({ doc }));
      else if (doc.colors && doc.colors.length > 0) {
        counts.kept++;
        hold(Promise.resolve({ doc }));
      } else {
        // Decided by the pictures done, not by the record at the head: one hung first picture
        // had held the give-up back while 1,023 more were fetched (review).
        for (;;) {
          const stop = gaveUp(counts);
          if (stop) throw stop;
          if (reads.free()) break;
          if (window[0]?.done) yield await next();
          else await Promise.race([reads.whenFree(), window[0]?.read.catch(() => undefined)]);
        }
        const done = reads.take();
        hold(withPalette(doc, reading, counts).finally(done));
      }
      if (window.length >= Math.max(HELD_RECORDS, options.concurrency)) yield await next();
    }
    signal?.throwIfAborted();
    while (window.length > 0) yield await next();
  } finally {
    ended.abort();
    counts.seconds = (performance.now() - started) / 1000;
  }
}
