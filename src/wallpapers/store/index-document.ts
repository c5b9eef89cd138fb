import { type Orientation, nominalRatio, orientationOf } from '../aspect-ratio.js';
import { COLOR_NAMES, type ColorShare, MIN_SHARE, SHARE_TIERS, type Tone, colorFacts, tierTerm, toneFromLightness } from '../colors.js';
import { parseResolution } from '../resolution.js';
import { STOP_WORDS } from '../stop-words.js';
import { type CataloguedWallpaper, packPalette, packTags } from '../catalogued.js';
import type { WallpaperDocument, WallpaperRecord } from '../wallpaper.js';
import { SHUFFLE_KEYS, shuffleField, shuffleKey } from './shuffle.js';

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
  /** sort=random's keys (shuffle.ts), indexed only: derived from the id, like everything above. */
  [shuffle: `shuffle_${number}`]: number;
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
 * needs few carriers (see createTitleCarriers). A carrier weighs its downloads among suggestions.
 */
export function toIndexDocument(
  source: WallpaperRecord | WallpaperDocument,
  { suggest = true, shuffle = true }: { suggest?: boolean; shuffle?: boolean } = {},
): IndexDocument {
  // A checked record carries its shape already; a reindexed document of an older catalogue does not.
  const shape =
    'width' in source && typeof source.width === 'number'
      ? { width: source.width, height: source.height }
      : (parseResolution(source.resolution) ?? { width: 0, height: 0 });
  const { width, height } = shape;
  const colors = source.colors ?? [];
  const tags = source.tags ?? [];
  const { color_names, color_cells, color_ranks, tone } = colorFields(colors);
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
  if (tone !== null) document.tone = tone;
  const tagLine = packTags(tags);
  if (tagLine !== undefined) document.tag_line = tagLine;
  const paletteLine = packPalette(colors);
  if (paletteLine !== undefined) document.palette_line = paletteLine;
  if ('change' in source && source.change !== undefined) {
    document.change_seq = source.change.seq;
    document.changed_at = source.change.at;
    document.content_hash = source.change.hash;
  }
  // An index made before the keys refuses them (its mapping is strict) and is read by random_score.
  if (shuffle) for (let key = 0; key < SHUFFLE_KEYS; key++) document[shuffleField(key) as `shuffle_${number}`] = shuffleKey(source.id, key);
  if (suggest) {
    document.suggest = { input: suggestInputs(source.title), weight: Math.min(Math.max(0, Math.floor(source.downloads)), MAX_WEIGHT) };
  }
  return document;
}

const RANK_TIERS = SHARE_TIERS.filter((tier) => tier > MIN_SHARE).reverse();

function largestTier(share: number): number | undefined {
  return RANK_TIERS.find((tier) => share >= tier);
}

type ColorFields = Pick<IndexDocument, 'color_names' | 'color_cells' | 'color_ranks'> & { tone: Tone | null };

/**
 * Everything a palette adds to the index, in one pass over its (at most six) colours: small
 * arrays, not maps, as this runs once per record of every load. The tone is toneOf's, worked out
 * here from the same conversions.
 */
function colorFields(colors: readonly ColorShare[]): ColorFields {
  const cells: string[] = [];
  const cellShares: number[] = [];
  const nameShares = new Array<number>(COLOR_NAMES.length).fill(0);
  let covered = 0;
  let lightness = 0;
  for (const { hex, share } of colors) {
    const facts = colorFacts(hex);
    covered += share;
    lightness += facts.lab.l * share;
    if (share < MIN_SHARE) continue;
    const at = cells.indexOf(facts.cell);
    if (at === -1) {
      cells.push(facts.cell);
      cellShares.push(share);
    } else cellShares[at]! += share;
    for (const name of facts.names) nameShares[NAME_INDEX.get(name)!]! += share;
  }
  const names: string[] = [];
  const ranks: string[] = [];
  cells.forEach((cell, i) => pushRank(ranks, cell, cellShares[i]!));
  COLOR_NAMES.forEach((name, i) => {
    if (nameShares[i]! <= 0) return;
    names.push(name);
    pushRank(ranks, name, nameShares[i]!);
  });
  const tone = colors.length === 0 || covered <= 0 ? null : toneFromLightness(lightness / covered);
  return { color_names: names, color_cells: cells, color_ranks: ranks, tone };
}

const NAME_INDEX = new Map(COLOR_NAMES.map((name, i) => [name, i]));

function pushRank(ranks: string[], key: string, share: number): void {
  const tier = largestTier(share);
  if (tier !== undefined) ranks.push(tierTerm(key, tier));
}

/**
 * Says, document by document of one load, whether it carries its title's completion inputs: the
 * first of its title, and each with more downloads than every earlier one of its title. So the
 * title's most popular wallpaper carries it, and a title weighs its most popular wallpaper's
 * downloads among suggestions, not its first one's. A title of n wallpapers in random order has
 * about ln n + 0.6 carriers: the 27,116 titles of 10M demo wallpapers about 6.5 each, 2 % of the
 * documents (bench/results/suggestion-carriers.md). The suggester answers each carrier once;
 * equal titles are made one afterwards.
 */
export function createTitleCarriers(): (title: string, downloads: number) => boolean {
  const most = new Map<string, number>();
  return (title, downloads) => {
    const key = title.toLowerCase();
    const before = most.get(key);
    if (before !== undefined && downloads <= before) return false;
    most.set(key, downloads);
    return true;
  };
}
