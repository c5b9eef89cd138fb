import { type LoadEntry, type WallpaperDocument, isDeletion } from '../../wallpapers/wallpaper.js';
import { type ImageSource, fetchImage } from './fetch-image.js';
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
    counts.failed++;
    const reason = error instanceof Error ? error.message : String(error);
    if (counts.extracted === 0 && counts.failed >= GIVE_UP_AFTER) throw new NoPictureReadable(counts.failed, `${doc.thumbnail}: ${reason}`);
    return { doc, failure: { id: doc.id, url: doc.thumbnail, reason } };
  }
}

/**
 * The documents in their order, each without a palette given one read from its thumbnail:
 * `concurrency` pictures in flight, the next read as soon as one is done, and no more read ahead
 * than that (a slow image host holds the load back instead of filling memory). A picture that
 * could not be read is reported as its document comes out, so reports follow the records' order
 * whichever picture fails first. `counts` is filled in as they go. Stops with NoPictureReadable
 * when the first GIVE_UP_AFTER all fail.
 */
export async function* withExtractedColors<T extends LoadEntry>(
  documents: Iterable<T> | AsyncIterable<T>,
  options: ExtractOptions,
  counts: ExtractCounts = { extracted: 0, failed: 0, kept: 0, seconds: 0 },
): AsyncGenerator<T> {
  const started = performance.now();
  const window: Promise<Read | { doc: LoadEntry; failure?: undefined }>[] = [];
  const next = async (): Promise<T> => {
    const { doc, failure } = await window.shift()!;
    if (failure) options.onFailure(failure);
    // Each comes out as it went in, a palette added at most.
    return doc as T;
  };
  try {
    for await (const doc of documents) {
      // A deletion has no picture; it keeps its place in the order.
      if (isDeletion(doc)) window.push(Promise.resolve({ doc }));
      else if (doc.colors && doc.colors.length > 0) {
        counts.kept++;
        window.push(Promise.resolve({ doc }));
      } else {
        const pending = withPalette(doc, options, counts);
        // Only the first failure in the window is awaited; the others must not go unhandled.
        pending.catch(() => undefined);
        window.push(pending);
      }
      if (window.length >= options.concurrency) yield await next();
    }
    while (window.length > 0) yield await next();
  } finally {
    counts.seconds = (performance.now() - started) / 1000;
  }
}
