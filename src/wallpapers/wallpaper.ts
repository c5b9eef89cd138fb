import type { Category } from './categories.js';

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

/** What is stored in Elasticsearch: the resource plus fields derived for filtering and sorting. */
export interface WallpaperDocument extends Wallpaper {
  width: number;
  height: number;
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
