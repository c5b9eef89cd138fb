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

// Records held to keep the order, per picture read at once: a slow picture at the head holds only
// the records behind it, while the others' pictures go on being read. With the window as deep as
// the reads, a picture that kept timing out stopped every other read: 10 hung hosts among 200
// records took 68 s, one after another (review).
const READ_AHEAD = 4;

export interface ExtractCounts {
  extracted: number;
  failed: number;
  /** Already had a palette: nothing fetched. */
  kept: number;
  seconds: number;
}

interface Read {
  doc: WallpaperDocument;
  failure?: { id: number; url: string; reason: string };
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
    if (counts.extracted === 0 && counts.failed >= GIVE_UP_AFTER) throw new NoPictureReadable(counts.failed, `${doc.thumbnail}: ${reason}`);
    return { doc, failure: { id: doc.id, url: doc.thumbnail, reason } };
  }
}

/** At most `limit` at once; `take` waits for a place, and the place it gives is given back once. */
function places(limit: number) {
  let taken = 0;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<() => void> {
      while (taken >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      taken++;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        taken--;
        waiting.shift()?.();
      };
    },
  };
}

/**
 * The documents in their order, each without a palette given one read from its thumbnail:
 * `concurrency` pictures in flight, the next read as soon as one is done, and up to READ_AHEAD
 * times as many records held to keep the order (a slow image host holds the load back instead of
 * filling memory: a read picture's bytes are gone once its palette is). A picture that could not
 * be read is reported as its document comes out, so reports follow the records' order whichever
 * picture fails first. `counts` is filled in as they go. Stops with NoPictureReadable when the
 * first GIVE_UP_AFTER all fail; with the run's signal, at once: pictures in flight are abandoned
 * and the records held are not passed on.
 */
export async function* withExtractedColors<T extends LoadEntry>(
  documents: Iterable<T> | AsyncIterable<T>,
  options: ExtractOptions,
  counts: ExtractCounts = { extracted: 0, failed: 0, kept: 0, seconds: 0 },
): AsyncGenerator<T> {
  const started = performance.now();
  const { signal } = options;
  const reads = places(options.concurrency);
  const window: Promise<Read | { doc: LoadEntry; failure?: undefined }>[] = [];
  const next = async (): Promise<T> => {
    let read: Read | { doc: LoadEntry; failure?: undefined };
    try {
      read = await window.shift()!;
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
      if (isDeletion(doc)) window.push(Promise.resolve({ doc }));
      else if (doc.colors && doc.colors.length > 0) {
        counts.kept++;
        window.push(Promise.resolve({ doc }));
      } else {
        const done = await reads.take();
        const pending = withPalette(doc, options, counts).finally(done);
        // Only the first failure in the window is awaited; the others must not go unhandled.
        pending.catch(() => undefined);
        window.push(pending);
      }
      if (window.length >= options.concurrency * READ_AHEAD) yield await next();
    }
    signal?.throwIfAborted();
    while (window.length > 0) yield await next();
  } finally {
    counts.seconds = (performance.now() - started) / 1000;
  }
}
