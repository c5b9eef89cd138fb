import { type Orientation, nominalRatio, orientationOf } from '../aspect-ratio.js';
import { parseResolution } from '../resolution.js';
import { STOP_WORDS } from '../search-query.js';
import { type Wallpaper, type WallpaperDocument, toWallpaper } from '../wallpaper.js';

/** What the index stores per wallpaper: the resource, its dimensions and shape, and the as-you-type inputs. */
export interface IndexDocument extends WallpaperDocument {
  orientation: Orientation;
  ratio: string;
  suggest?: { input: string[]; weight: number };
}

// Suggestions complete any word of a title, not only its first: "light" finds "Wild Lighthouse".
const MAX_SUGGEST_INPUTS = 6;
const MAX_WEIGHT = 2 ** 31 - 1;

/** The title from each word on, skipping starts on common words ("at Dawn" starts at "Dawn"). */
export function suggestInputs(title: string): string[] {
  const words = title.split(/\s+/).filter(Boolean);
  const inputs: string[] = [];
  for (let i = 0; i < words.length && inputs.length < MAX_SUGGEST_INPUTS; i++) {
    if (!STOP_WORDS.has(words[i]!.toLowerCase())) inputs.push(words.slice(i).join(' '));
  }
  return inputs;
}

/**
 * The one place a stored document is derived from a wallpaper, whatever loads it (seed, import,
 * reindex): the nine fields of the resource are the source of truth, everything else follows.
 * `suggest` says whether this document carries its title's completion inputs: a completion field
 * is costly to index (it nearly tripled load time at one input set per document), and a title
 * needs only one carrier, so loaders set it on the first document of each title (see
 * createTitleCarriers). More popular carriers weigh more among suggestions.
 */
export function toIndexDocument(source: Wallpaper, { suggest = true }: { suggest?: boolean } = {}): IndexDocument {
  const wallpaper = toWallpaper(source);
  const { width, height } = parseResolution(wallpaper.resolution) ?? { width: 0, height: 0 };
  const shape = { width, height };
  const document: IndexDocument = { ...wallpaper, width, height, orientation: orientationOf(shape), ratio: nominalRatio(shape) };
  if (suggest) {
    document.suggest = { input: suggestInputs(wallpaper.title), weight: Math.min(Math.max(0, Math.floor(wallpaper.downloads)), MAX_WEIGHT) };
  }
  return document;
}

/** Says, title by title, whether a document is the first of its title in this load (the carrier). */
export function createTitleCarriers(): (title: string) => boolean {
  const seen = new Set<string>();
  return (title) => {
    const key = title.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}
