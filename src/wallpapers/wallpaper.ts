import type { Orientation } from './aspect-ratio.js';
import type { Category } from './categories.js';
import type { ColorShare, Tone } from './colors.js';

/** The spec's Wallpaper resource, exactly its nine fields. */
export interface Wallpaper {
  id: number;
  title: string;
  description: string;
  url: string;
  thumbnail: string;
  resolution: string;
  category: Category;
  downloads: number;
  created_at: string;
}

/** What a wallpaper is described by beyond the nine fields; absent when nobody said. */
export interface Description {
  tags?: readonly string[];
  /** The palette: at most six colours, shares descending. */
  colors?: readonly ColorShare[];
}

/** What an import reads and an export writes: the resource and its description. */
export type WallpaperRecord = Wallpaper & Description;

/**
 * Where a wallpaper stands in the change feed (GET /v1/changes): the sequence number of its last
 * change, when that was, and a digest of its record, by which a load tells a change from a
 * rewrite of the same record.
 */
export interface ChangeStamp {
  seq: number;
  at: string;
  hash: string;
}

/** What loaders hand to the index: the record plus its dimensions, and its change stamp once given one. */
export interface WallpaperDocument extends Wallpaper, Description {
  width: number;
  height: number;
  change?: ChangeStamp;
}

/** An import line `{"id": N, "deleted": true}`: the wallpaper leaves the catalogue. */
export interface Deletion {
  id: number;
  deleted: true;
}

/** What a load writes: a wallpaper, or its deletion. */
export type LoadEntry = WallpaperDocument | Deletion;

export const isDeletion = (entry: LoadEntry): entry is Deletion => 'deleted' in entry && entry.deleted === true;

/** The detailed resource of `GET /v1/wallpapers/{id}`, and what lists may `include`. */
export interface WallpaperDetail extends Wallpaper {
  width: number;
  height: number;
  ratio: string;
  orientation: Orientation;
  tags: readonly string[];
  colors: readonly ColorShare[];
  tone: Tone | null;
}

export const WALLPAPER_FIELDS = [
  'id',
  'title',
  'description',
  'url',
  'thumbnail',
  'resolution',
  'category',
  'downloads',
  'created_at',
] as const satisfies readonly (keyof Wallpaper)[];

export function toWallpaper(doc: WallpaperDocument | Wallpaper): Wallpaper {
  return {
    id: doc.id,
    title: doc.title,
    description: doc.description,
    url: doc.url,
    thumbnail: doc.thumbnail,
    resolution: doc.resolution,
    category: doc.category,
    downloads: doc.downloads,
    created_at: doc.created_at,
  };
}

/**
 * The record of a document: the nine fields, then tags and colours when it has any, each colour as
 * `{hex, share}` whatever order its input named them in. The record is what a load's digest is of
 * (contentHash): a colour written `{"share", "hex"}` had made the same record loaded again a change.
 */
export function toRecord(doc: WallpaperDocument | WallpaperRecord): WallpaperRecord {
  const record: WallpaperRecord = toWallpaper(doc);
  if (doc.tags && doc.tags.length > 0) record.tags = doc.tags;
  if (doc.colors && doc.colors.length > 0) record.colors = doc.colors.map(({ hex, share }) => ({ hex, share }));
  return record;
}
