import { type Orientation, nominalRatio, orientationOf } from './aspect-ratio.js';
import type { ColorShare, Tone } from './colors.js';
import type { Include } from './params.js';
import { parseResolution } from './resolution.js';
import { type Wallpaper, type WallpaperDetail, type WallpaperDocument, toWallpaper } from './wallpaper.js';

/**
 * A wallpaper as the catalogue keeps it (an index document's _source) and reads it back: the nine
 * fields, its shape, its tone, and its tags and palette packed into one string each. Packed,
 * because a list parses every hit it reads: as JSON arrays of strings and objects, tags and a
 * palette made a page of 20 twice as slow to parse (22 µs to 46 µs); packed, 26 µs, and they are
 * unpacked only for what a response shows. Everything but the nine fields is absent in a
 * catalogue indexed before it existed.
 */
export interface CataloguedWallpaper extends Wallpaper {
  width?: number;
  height?: number;
  ratio?: string;
  orientation?: Orientation;
  tone?: Tone;
  /** The tags joined by '|' (which no tag holds). */
  tag_line?: string;
  /** The palette as `rrggbb:share` entries joined by spaces, largest first. */
  palette_line?: string;
  /** Its change stamp (ChangeStamp); absent in a catalogue loaded before the change feed. */
  change_seq?: number;
  changed_at?: string;
  content_hash?: string;
}

export function packTags(tags: readonly string[]): string | undefined {
  return tags.length > 0 ? tags.join('|') : undefined;
}

export function unpackTags(line: string | undefined): string[] {
  return line ? line.split('|') : [];
}

export function packPalette(colors: readonly ColorShare[]): string | undefined {
  return colors.length > 0 ? colors.map(({ hex, share }) => `${hex.slice(1)}:${share}`).join(' ') : undefined;
}

export function unpackPalette(line: string | undefined): ColorShare[] {
  return line ? line.split(' ').map((entry) => ({ hex: `#${entry.slice(0, 6)}`, share: Number(entry.slice(7)) })) : [];
}

/** Width, height, ratio and orientation: as stored, or from the resolution in an older catalogue. */
function dimensionsOf(kept: CataloguedWallpaper): Pick<WallpaperDetail, 'width' | 'height' | 'ratio' | 'orientation'> {
  const shape =
    kept.width !== undefined && kept.height !== undefined
      ? { width: kept.width, height: kept.height }
      : (parseResolution(kept.resolution) ?? { width: 0, height: 0 });
  return { ...shape, ratio: kept.ratio ?? nominalRatio(shape), orientation: kept.orientation ?? orientationOf(shape) };
}

/** The detailed wallpaper, in the contract's order of fields. */
export function toDetail(kept: CataloguedWallpaper): WallpaperDetail {
  return {
    ...toWallpaper(kept),
    ...dimensionsOf(kept),
    tags: unpackTags(kept.tag_line),
    colors: unpackPalette(kept.palette_line),
    tone: kept.tone ?? null,
  };
}

/** A list item: the nine fields, then what `include` asks, in the detail's order. */
export type ListItem = Wallpaper & Partial<Omit<WallpaperDetail, keyof Wallpaper>>;

export function toListItem(kept: CataloguedWallpaper, include: readonly Include[] | undefined): ListItem {
  const item: ListItem = toWallpaper(kept);
  if (!include) return item;
  if (include.includes('dimensions')) Object.assign(item, dimensionsOf(kept));
  if (include.includes('tags')) item.tags = unpackTags(kept.tag_line);
  if (include.includes('colors')) {
    item.colors = unpackPalette(kept.palette_line);
    item.tone = kept.tone ?? null;
  }
  return item;
}

/** The record a kept wallpaper was loaded from: what a reindex copies and a copy check compares. */
export function toDocument(kept: CataloguedWallpaper): WallpaperDocument {
  const tags = unpackTags(kept.tag_line);
  const colors = unpackPalette(kept.palette_line);
  const { width, height } = dimensionsOf(kept);
  const document: WallpaperDocument = {
    ...toWallpaper(kept),
    width,
    height,
    ...(tags.length > 0 ? { tags } : {}),
    ...(colors.length > 0 ? { colors } : {}),
  };
  if (kept.change_seq !== undefined && kept.changed_at !== undefined && kept.content_hash !== undefined) {
    document.change = { seq: kept.change_seq, at: kept.changed_at, hash: kept.content_hash };
  }
  return document;
}
