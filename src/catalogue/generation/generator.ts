import { CATEGORIES, type Category } from '../../wallpapers/categories.js';
import { formatResolution } from '../../wallpapers/resolution.js';
import type { WallpaperDocument } from '../../wallpapers/wallpaper.js';
import { formatIsoSeconds } from './iso-seconds.js';
import { normal, pickWeighted, Random, weightedTable } from './prng.js';
import { SCREEN_SIZES } from './screen-sizes.js';
import { vocabularyOf } from './vocabulary.js';
import { type Look, generatedPalette, lookOf } from './look.js';
import { composeDescription, composeTitleParts, slugOf, tagsOf, titleOf } from './wording.js';

export interface GenerateOptions {
  count: number;
  seed: number;
  /** Absolute http(s) base; image URLs are `${imageBaseUrl}/full/...` and `/thumb/...`. */
  imageBaseUrl: string;
  startId?: number;
  /**
   * `generated` (the default): each wallpaper carries the palette of its look (look.ts), as a
   * catalogue without images would; `none`: no palette, for one read from the pictures themselves.
   */
  palettes?: PaletteSource;
}

export type PaletteSource = 'generated' | 'none';

const FIRST_SECOND = Date.UTC(2019, 0, 1) / 1000;
const END_SECOND = Date.UTC(2026, 6, 1) / 1000;
const SPAN_SECONDS = END_SECOND - FIRST_SECOND;

// Log-normal downloads scaled by age: median about 150, a few dozen per million above 1M.
const DOWNLOADS_LOG_MEDIAN = Math.log(260);
const DOWNLOADS_LOG_SIGMA = 2.2;

const CATEGORY_TABLE = weightedTable(CATEGORIES.map((c): [Category, number] => [c, vocabularyOf(c).popularity]));

function createdAtSecond(random: Random): number {
  // Uploads grow over time: the power below 1 skews the draw towards recent dates.
  return FIRST_SECOND + Math.floor(Math.pow(random.next(), 0.8) * SPAN_SECONDS);
}

function downloadsFor(random: Random, createdAt: number): number {
  const age = (END_SECOND - createdAt) / SPAN_SECONDS;
  const exposure = 0.3 + 0.7 * age;
  return Math.floor(Math.exp(DOWNLOADS_LOG_MEDIAN + DOWNLOADS_LOG_SIGMA * normal(random)) * exposure);
}

function validate({ count, seed, imageBaseUrl, startId = 1 }: GenerateOptions): string {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed must be an integer in 0..4294967295, got ${seed}`);
  if (!Number.isSafeInteger(startId) || startId < 1) throw new RangeError(`startId must be a positive integer, got ${startId}`);
  if (!Number.isSafeInteger(startId + count)) throw new RangeError('startId + count exceeds the safe integer range');
  if (!/^https?:\/\/[^/]/.test(imageBaseUrl))
    throw new RangeError(`imageBaseUrl must be an absolute http(s) URL, got ${JSON.stringify(imageBaseUrl)}`);
  return imageBaseUrl.replace(/\/+$/, '');
}

/**
 * The first draws of a wallpaper's stream, in their order: what its picture is drawn from too, so
 * the words and the picture can never fall out of step.
 */
function firstDraws(id: number, seed: number) {
  const random = new Random(seed, id);
  const category = pickWeighted(random, CATEGORY_TABLE);
  const screen = pickWeighted(random, SCREEN_SIZES);
  const parts = composeTitleParts(random, category);
  return { random, category, screen, parts };
}

/** The wallpaper with this id for this seed: independent of count and startId. */
export function generateWallpaper(id: number, seed: number, imageBaseUrl: string, palettes: PaletteSource = 'generated'): WallpaperDocument {
  const { random, category, screen, parts } = firstDraws(id, seed);
  const title = titleOf(parts);
  const { text: description, mood } = composeDescription(random, category, parts, screen.kind);
  const createdAt = createdAtSecond(random);
  const file = `${id}-${slugOf(parts)}.jpg`;
  return {
    id,
    title,
    description,
    url: `${imageBaseUrl}/full/${file}`,
    thumbnail: `${imageBaseUrl}/thumb/${file}`,
    resolution: formatResolution(screen),
    width: screen.width,
    height: screen.height,
    category,
    downloads: downloadsFor(random, createdAt),
    created_at: formatIsoSeconds(createdAt),
    tags: tagsOf(category, parts, mood),
    ...(palettes === 'generated' ? { colors: generatedPalette(lookOf(category, parts)) } : {}),
  };
}

/** What a demo wallpaper looks like: what its picture is drawn from (see picture.ts). */
export function demoLook(id: number, seed: number): Look {
  const { category, parts } = firstDraws(id, seed);
  return lookOf(category, parts);
}

/** Deterministic: the same options yield the same documents, ids startId..startId+count-1. */
export function* generateWallpapers(options: GenerateOptions): Generator<WallpaperDocument, void, undefined> {
  const base = validate(options);
  const first = options.startId ?? 1;
  const end = first + options.count;
  for (let id = first; id < end; id++) yield generateWallpaper(id, options.seed, base, options.palettes);
}
