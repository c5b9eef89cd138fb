import { Readable } from 'node:stream';
import { expect } from 'chai';
import { TouchedTitles } from '../../src/catalogue/admin/title-carriers.js';
import { importCatalogue } from '../../src/catalogue/ingest/import-catalogue.js';
import type { LoadEntry, Wallpaper } from '../../src/wallpapers/wallpaper.js';
import { toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { feedSuite } from '../support/feed-reader.js';
import { request } from '../support/harness.js';

// A title's completions are carried by some of its wallpapers only (createTitleCarriers); an
// incremental import that deletes, renames or lowers one of them must leave the title with its
// most popular live wallpaper carrying it (helper-136).
describe('suggestions after an incremental import', () => {
  const { es, key, freshAlias, apiOn } = feedSuite('suggest-import');
  const template = wallpapers(8);
  const wallpaper = (id: number, title: string, downloads: number): Wallpaper => ({ ...template[id - 1]!, id, title, downloads });
  // In id order, the first of each title carries it: 1, 3, 5 and 7.
  const catalogue = [
    wallpaper(1, 'Lagoon in the Maldives', 100),
    wallpaper(2, 'Lagoon in the Maldives', 50),
    wallpaper(3, 'Sea Stack at Dawn', 90),
    wallpaper(4, 'Sea Stack at Dawn', 40),
    wallpaper(5, 'Terminal at Night', 300),
    wallpaper(6, 'Terminal at Night', 200),
    wallpaper(7, 'Holographic Terminal at Night', 97),
  ];
  const load = (alias: string, entries: readonly (Wallpaper | LoadEntry)[], incremental: boolean) =>
    importCatalogue(es, { alias, input: Readable.from([toNdjson(entries)]), incremental, allowRejects: 0, keep: 2, onReject: () => undefined });
  const texts = async (url: string, q: string) =>
    ((await request(url, `/v1/search/suggest?q=${encodeURIComponent(q)}`, { key: key() })).body as { data: { text: string }[] }).data.map(
      ({ text }) => text,
    );
  const stamps = async (alias: string, ids: number[]) =>
    (await es.mget<{ change_seq: number }>({ index: alias, ids: ids.map(String), _source: ['change_seq'] })).docs.map((doc) =>
      'found' in doc && doc.found ? doc._source!.change_seq : null,
    );

  it('when a carrier is deleted, renamed or made less popular, then its title is still suggested, as high as its most popular wallpaper, and the feed records only what the file changed', async () => {
    const alias = freshAlias();
    await load(alias, catalogue, false);
    const app = await apiOn(alias);
    expect(await texts(app.url, 'Terminal at Ni'), 'before').to.deep.equal(['Terminal at Night', 'Holographic Terminal at Night']);
    const before = await stamps(alias, [2, 4, 6]);
    const result = await load(alias, [{ id: 1, deleted: true }, wallpaper(3, 'Sea Stack at Noon', 90), wallpaper(5, 'Terminal at Night', 1)], true);
    expect(result.changes).to.deep.equal({ upserts: 2, deletes: 1, unchanged: 0 });
    expect(await texts(app.url, 'Lagoon in the Mal'), 'a deleted carrier').to.deep.equal(['Lagoon in the Maldives']);
    expect(await texts(app.url, 'Sea Stack at'), 'a renamed carrier').to.have.members(['Sea Stack at Dawn', 'Sea Stack at Noon']);
    expect(await texts(app.url, 'Terminal at Ni'), 'a carrier made less popular: 200 downloads against 97').to.deep.equal([
      'Terminal at Night',
      'Holographic Terminal at Night',
    ]);
    expect(await stamps(alias, [2, 4, 6]), 'the wallpapers that now carry their titles are otherwise unchanged').to.deep.equal(before);
  });

  it('when imports lower the most popular wallpaper of a title again and again, then the title keeps one carrier, the most popular, and its stamps', async () => {
    const alias = freshAlias();
    // Loaded from the least to the most popular: each of the eight carries the title.
    const quasars = Array.from({ length: 8 }, (_, i) => wallpaper(i + 1, 'Quasar Drift', 100 * (i + 1)));
    await load(alias, quasars, false);
    const app = await apiOn(alias);
    const carriers = async () =>
      (await es.search<{ id: number }>({ index: alias, size: 100, _source: ['id'], query: { exists: { field: 'suggest' } } })).hits.hits.map(
        (hit) => hit._source!.id,
      );
    expect(await carriers(), 'as loaded').to.have.length(8);
    for (const [round, top] of [8, 7, 6].entries()) {
      const before = await stamps(alias, [top - 1]);
      await load(alias, [{ ...quasars[top - 1]!, downloads: round + 1 }], true);
      expect(await carriers(), `after lowering ${top}`).to.deep.equal([top - 1]);
      expect(await stamps(alias, [top - 1]), 'the new carrier is otherwise unchanged').to.deep.equal(before);
    }
    expect(await texts(app.url, 'quasar')).to.deep.equal(['Quasar Drift']);
  });

  it('when a title`s most popular wallpaper is not found among the longer titles holding it, then that title keeps its carriers while the others mended beside it lose theirs', async () => {
    const alias = freshAlias();
    // In id order: both Sunsets and all three Harbor Lights carry their titles; the 120 longer,
    // more popular titles holding "Sunset" fill the one page of phrase matches read here.
    const bays = Array.from({ length: 120 }, (_, i) => ({ ...wallpaper(1, 'Sunset over the Bay', 1_000 + i), id: 100 + i }));
    const harbors = [1, 2, 3].map((n) => ({ ...wallpaper(1, 'Harbor Lights', 10 * n), id: 10 + n }));
    await load(alias, [wallpaper(1, 'Sunset', 10), wallpaper(2, 'Sunset', 20), ...harbors, ...bays], false);
    const index = Object.keys(await es.indices.getAlias({ name: alias }))[0]!;
    const titles = new TouchedTitles(es, index, true, 1);
    // What an import about to lower them would hand it: Sunset's more popular carrier, the most popular Harbor Lights.
    const asLoaded = (one: Wallpaper): LoadEntry => {
      const [width, height] = one.resolution.split('x').map(Number);
      return { ...one, width: width!, height: height! };
    };
    await titles.note([asLoaded(wallpaper(2, 'Sunset', 5)), asLoaded({ ...harbors[2]!, downloads: 1 })]);
    await titles.elect();
    await es.indices.refresh({ index });
    const carriersOf = async (title: string) =>
      (
        await es.search<{ id: number; title: string }>({ index, size: 200, _source: ['id', 'title'], query: { exists: { field: 'suggest' } } })
      ).hits.hits
        .filter((hit) => hit._source!.title === title)
        .map((hit) => hit._source!.id)
        .sort((a, b) => a - b);
    expect(await carriersOf('Sunset'), 'not found: as they were').to.deep.equal([1, 2]);
    expect(await carriersOf('Harbor Lights'), 'found: the most popular alone').to.deep.equal([13]);
  });
});
