import { type Orientation, nominalRatio, orientationOf } from '../aspect-ratio.js';
import { type ColorShare, MAX_COLORS, MIN_SHARE, abPoint, colorNamesOf, hexToLab, namesOf, toneOf } from '../colors.js';
import { parseResolution } from '../resolution.js';
import { STOP_WORDS } from '../search-query.js';
import { type CataloguedWallpaper, packPalette, packTags } from '../catalogued.js';
import { type WallpaperDocument, type WallpaperRecord, toWallpaper } from '../wallpaper.js';

export const PALETTE_SLOTS = Array.from({ length: MAX_COLORS }, (_, i) => `s${i}` as const);
export type PaletteSlot = (typeof PALETTE_SLOTS)[number];

/** One colour of the palette as queries see it (not kept in _source: derived from the palette). */
export interface PaletteEntry {
  l: number;
  /** a* and b* as a point (see abPoint). */
  ab: { lat: number; lon: number };
  share: number;
  names: string[];
}

/**
 * What the index stores per wallpaper: the wallpaper as the catalogue keeps it (CataloguedWallpaper,
 * its _source), and what queries need beside it, left out of _source: the tags as values, the
 * named colours, the palette in CIELAB and the as-you-type inputs.
 */
export interface IndexDocument extends CataloguedWallpaper {
  width: number;
  height: number;
  orientation: Orientation;
  ratio: string;
  /** Indexed for filters and facets, not kept in _source (tag_line keeps them). */
  tags: readonly string[];
  /** The named colours the palette shows, flat for the colour facet and named filters. */
  color_names: string[];
  /**
   * The colours of MIN_SHARE or more, one slot each (s0, s1, …, largest first). Slots rather than a
   * nested list: "one colour both close enough and large enough" stays one exact query either way,
   * and nested documents (one per colour) made fetching a list page twice as costly for
   * Elasticsearch (bench/results/descriptions).
   */
  palette: Partial<Record<PaletteSlot, PaletteEntry>>;
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
 * reindex): the nine fields of the resource and its description (tags, colours) are the source of
 * truth, everything else follows; a document of an older catalogue moves with empty ones.
 * `suggest` says whether this document carries its title's completion inputs: a completion field
 * is costly to index (it nearly tripled load time at one input set per document), and a title
 * needs only one carrier, so loaders set it on the first document of each title (see
 * createTitleCarriers). More popular carriers weigh more among suggestions.
 */
export function toIndexDocument(source: WallpaperRecord | WallpaperDocument, { suggest = true }: { suggest?: boolean } = {}): IndexDocument {
  const wallpaper = toWallpaper(source);
  const { width, height } = parseResolution(wallpaper.resolution) ?? { width: 0, height: 0 };
  const shape = { width, height };
  const colors = source.colors ?? [];
  const tone = toneOf(colors);
  const tags = source.tags ?? [];
  const tagLine = packTags(tags);
  const paletteLine = packPalette(colors);
  const document: IndexDocument = {
    ...wallpaper,
    width,
    height,
    orientation: orientationOf(shape),
    ratio: nominalRatio(shape),
    ...(tone === null ? {} : { tone }),
    ...(tagLine === undefined ? {} : { tag_line: tagLine }),
    ...(paletteLine === undefined ? {} : { palette_line: paletteLine }),
    tags,
    color_names: colorNamesOf(colors),
    palette: paletteSlots(colors),
  };
  if (suggest) {
    document.suggest = { input: suggestInputs(wallpaper.title), weight: Math.min(Math.max(0, Math.floor(wallpaper.downloads)), MAX_WEIGHT) };
  }
  return document;
}

function paletteSlots(colors: readonly ColorShare[]): IndexDocument['palette'] {
  const slots: IndexDocument['palette'] = {};
  colors.filter(({ share }) => share >= MIN_SHARE).forEach((color, i) => (slots[PALETTE_SLOTS[i]!] = paletteEntry(color)));
  return slots;
}

function paletteEntry({ hex, share }: ColorShare): PaletteEntry {
  const lab = hexToLab(hex);
  return { l: lab.l, ab: abPoint(lab), share, names: namesOf(lab) };
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
