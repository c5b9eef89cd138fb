import { expect } from 'chai';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { request } from '../support/harness.js';
import type { CatalogueContext } from './catalogue-context.js';

// What the tests of words that ask for a picture's look (shape, screen, tone) share: small
// catalogues of the fixture's wallpaper told apart by a few fields, and what a search finds there.

/** A fixture wallpaper with a plain description in the nature category, and the fields given. */
export function wallpaperWith(fields: Pick<WallpaperDocument, 'id' | 'title' | 'downloads'> & Partial<WallpaperDocument>): WallpaperDocument {
  const [template] = fixtureWallpapers() as [WallpaperDocument];
  return { ...template, description: 'A picture.', category: 'nature', ...fields };
}

/** A fixture wallpaper of a resolution ("1920x1080"), its width and height with it. */
export function wallpaperSized(id: number, title: string, resolution: string, downloads: number): WallpaperDocument {
  const [width, height] = resolution.split('x').map(Number) as [number, number];
  return wallpaperWith({ id, title, resolution, width, height, downloads });
}

/** The ids of the first page a search finds, and its total; the search must answer 200. */
export function searchFound(ctx: CatalogueContext): (q: string) => Promise<{ ids: number[]; total: number }> {
  return async (q) => {
    const res = await request(ctx.app.url, `/v1/search?q=${encodeURIComponent(q)}`, { key: ctx.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const body = res.body as { data: { id: number }[]; meta: { total_items: number } };
    return { ids: body.data.map((w) => w.id), total: body.meta.total_items };
  };
}
