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
  const load = async (records: Wallpaper[]) => {
    const alias = freshAlias();
    await importCatalogue(es, {
      alias,
      input: Readable.from([toNdjson(records)]),
      incremental: false,
      allowRejects: 0,
      keep: 2,
      onReject: () => undefined,
    });
    return { alias, app: await apiOn(alias) };
  };
  // Loaded from the least to the most popular, each has more downloads than every one before, so
  // each carries the title.
  const ascending = (count: number, firstId: number, title: string, from: number) =>
    Array.from({ length: count }, (_, i) => wallpaper(firstId + i, title, from + i));

  it('when one title has more carriers than the answer has room for, then the titles after it still fill the answer', async () => {
    const { alias, app } = await load([
      ...ascending(12, 100, 'Vortex Bloom', 200),
      wallpaper(2, 'Vortex Garden', 50),
      wallpaper(3, 'Vortex Lights', 40),
    ]);
    const { hits } = await es.search({ index: alias, size: 0, track_total_hits: true, query: { exists: { field: 'suggest' } } });
    expect(hits.total, 'every wallpaper carries its title').to.deep.include({ value: 14 });
    expect(await texts(app.url, 'vortex', 2)).to.deep.equal(['Vortex Bloom', 'Vortex Garden']);
    expect(await texts(app.url, 'vort', 3)).to.deep.equal(['Vortex Bloom', 'Vortex Garden', 'Vortex Lights']);
  });

  it('when popular titles complete the prefix through a typo, then they come after every completion as typed (helper-139)', async () => {
    const { app } = await load([
      ...ascending(30, 100, 'Vortex Bloom', 10_000),
      wallpaper(2, 'Vortex Garden', 500),
      wallpaper(3, 'Vortex Lights', 400),
      wallpaper(4, 'Vertex Peak', 5_000_000),
      wallpaper(5, 'Vartan Sky', 4_000_000),
    ]);
    expect(await texts(app.url, 'vortex', 2)).to.deep.equal(['Vortex Bloom', 'Vortex Garden']);
    expect(await texts(app.url, 'vort', 3)).to.deep.equal(['Vortex Bloom', 'Vortex Garden', 'Vortex Lights']);
    expect(await texts(app.url, 'vort', 4)).to.deep.equal(['Vortex Bloom', 'Vortex Garden', 'Vortex Lights', 'Vertex Peak']);
  });

  it('when a title completes the prefix through several of its words, then the other titles still come (helper-139)', async () => {
    const { app } = await load([
      ...ascending(5, 100, 'Wave upon Wave upon Wave', 1_000),
      wallpaper(2, 'Wave Rider', 10),
      wallpaper(3, 'Wave Crest', 9),
    ]);
    for (const limit of [2, 3, 5]) {
      expect(await texts(app.url, 'wave', limit), `limit ${limit}`).to.deep.equal(
        ['Wave upon Wave upon Wave', 'Wave Rider', 'Wave Crest'].slice(0, limit),
      );
    }
  });

  it('when titles differ only in case, then they are one suggestion, the most popular spelling (helper-139)', async () => {
    const { app } = await load([wallpaper(1, 'Harbor Lights', 50), wallpaper(2, 'harbor lights', 60), wallpaper(3, 'HARBOR LIGHTS', 70)]);
    expect(await texts(app.url, 'harb', 3)).to.deep.equal(['HARBOR LIGHTS']);
  });
});
