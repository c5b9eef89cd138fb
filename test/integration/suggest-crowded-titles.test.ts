import { Readable } from 'node:stream';
import { expect } from 'chai';
import { importCatalogue } from '../../src/catalogue/ingest/import-catalogue.js';
import type { Wallpaper } from '../../src/wallpapers/wallpaper.js';
import { toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { feedSuite } from '../support/feed-reader.js';
import { request } from '../support/harness.js';

// The suggester answers each wallpaper that carries a title once, and several of a title's
// wallpapers can carry it (createTitleCarriers), so the options asked can all be one title's.
describe('suggestions when one title has many carriers', () => {
  const { es, key, freshAlias, apiOn } = feedSuite('suggest-crowded');
  const template = wallpapers(3);
  const wallpaper = (id: number, title: string, downloads: number): Wallpaper => ({ ...template[id % 3]!, id, title, downloads });
  const texts = async (url: string, q: string, limit: number) =>
    (
      (await request(url, `/v1/search/suggest?q=${encodeURIComponent(q)}&limit=${limit}`, { key: key() })).body as { data: { text: string }[] }
    ).data.map(({ text }) => text);

  it('when one title has more carriers than the answer has room for, then the titles after it still fill the answer', async () => {
    const alias = freshAlias();
    // Each of twelve wallpapers of one title, loaded from the least to the most popular, has more
    // downloads than every earlier one, so each carries the title, and all twelve outweigh the others.
    const crowded = Array.from({ length: 12 }, (_, i) => wallpaper(100 + i, 'Vortex Bloom', 100 * (i + 2)));
    await importCatalogue(es, {
      alias,
      input: Readable.from([toNdjson([...crowded, wallpaper(2, 'Vortex Garden', 50), wallpaper(3, 'Vortex Lights', 40)])]),
      incremental: false,
      allowRejects: 0,
      keep: 2,
      onReject: () => undefined,
    });
    const app = await apiOn(alias);
    const { hits } = await es.search({ index: alias, size: 0, track_total_hits: true, query: { exists: { field: 'suggest' } } });
    expect(hits.total, 'every wallpaper carries its title').to.deep.include({ value: 14 });
    expect(await texts(app.url, 'vortex', 2)).to.deep.equal(['Vortex Bloom', 'Vortex Garden']);
    expect(await texts(app.url, 'vort', 3)).to.deep.equal(['Vortex Bloom', 'Vortex Garden', 'Vortex Lights']);
  });
});
