import { type Orientation, nominalRatio, orientationOf } from '../aspect-ratio.js';
import { COLOR_NAMES, type ColorShare, MIN_SHARE, SHARE_TIERS, colorFacts, tierTerm, toneOf } from '../colors.js';
import { parseResolution } from '../resolution.js';
import { STOP_WORDS } from '../search-query.js';
import { type CataloguedWallpaper, packPalette, packTags } from '../catalogued.js';
import type { WallpaperDocument, WallpaperRecord } from '../wallpaper.js';

/**
 * What the index stores per wallpaper: the wallpaper as the catalogue keeps it (CataloguedWallpaper,
 * its _source), and what queries need beside it, left out of _source: the tags as values, where
 * the palette's colours lie and the as-you-type inputs.
 */
export interface IndexDocument extends CataloguedWallpaper {
  width: number;
  height: number;
  orientation: Orientation;
  ratio: string;
  /** Indexed for filters and facets, not kept in _source (tag_line keeps them). */
  tags: readonly string[];
  /** The named colours of the palette's colours of MIN_SHARE or more: the colour facet and named filters. */
  color_names: string[];
  /** The CIELAB cells of those colours (cellOf): filters by hex. */
  color_cells: string[];
  /**
   * For sort=relevance, how large: `cell@tier` for each of those cells and `name@tier` for each
   * name (by the share their colours cover together), the largest tier of SHARE_TIERS reached
   * above MIN_SHARE. The largest only: relevance scores each tier's term by its own size, best first.
   */
  color_ranks: string[];
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
  const { width, height } = parseResolution(source.resolution) ?? { width: 0, height: 0 };
  const shape = { width, height };
  const colors = source.colors ?? [];
  const tags = source.tags ?? [];
  const { color_names, color_cells, color_ranks } = colorFields(colors);
  // One literal, every field named: spreading the wallpaper made this a third of a load's own CPU.
  const document: IndexDocument = {
    id: source.id,
    title: source.title,
    description: source.description,
    url: source.url,
    thumbnail: source.thumbnail,
    resolution: source.resolution,
    category: source.category,
    downloads: source.downloads,
    created_at: source.created_at,
    width,
    height,
    orientation: orientationOf(shape),
    ratio: nominalRatio(shape),
    tags,
    color_names,
    color_cells,
    color_ranks,
  };
  const tone = toneOf(colors);
  if (tone !== null) document.tone = tone;
  const tagLine = packTags(tags);
  if (tagLine !== undefined) document.tag_line = tagLine;
  const paletteLine = packPalette(colors);
  if (paletteLine !== undefined) document.palette_line = paletteLine;
  if (suggest) {
    document.suggest = { input: suggestInputs(source.title), weight: Math.min(Math.max(0, Math.floor(source.downloads)), MAX_WEIGHT) };
  }
  return document;
}

const RANK_TIERS = SHARE_TIERS.filter((tier) => tier > MIN_SHARE).reverse();

function largestTier(share: number): number | undefined {
  return RANK_TIERS.find((tier) => share >= tier);
}

function colorFields(colors: readonly ColorShare[]): Pick<IndexDocument, 'color_names' | 'color_cells' | 'color_ranks'> {
  const cellShares = new Map<string, number>();
  const nameShares = new Map<string, number>();
  for (const { hex, share } of colors) {
    if (share < MIN_SHARE) continue;
    const { cell, names } = colorFacts(hex);
    cellShares.set(cell, (cellShares.get(cell) ?? 0) + share);
    for (const name of names) nameShares.set(name, (nameShares.get(name) ?? 0) + share);
  }
  const names = COLOR_NAMES.filter((name) => nameShares.has(name));
  const ranks: string[] = [];
  for (const [key, share] of [...cellShares, ...names.map((name) => [name, nameShares.get(name)!] as const)]) {
    const tier = largestTier(share);
    if (tier !== undefined) ranks.push(tierTerm(key, tier));
  }
  return { color_names: names, color_cells: [...cellShares.keys()], color_ranks: ranks };
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
