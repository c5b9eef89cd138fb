import { expect } from 'chai';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

// A word typed as one, as hashtags are written, is the two words it joins where the catalogue holds
// it nowhere (docs/api.md, "What matches").
const [template] = fixtureWallpapers() as [WallpaperDocument];
const doc = (id: number, title: string, tags: string[]): WallpaperDocument => ({
  ...template,
  id,
  title,
  description: 'A picture.',
  category: 'nature',
  downloads: 100 - id,
  colors: [{ hex: '#808080', share: 1 }],
  tags,
});
const DOCS = [
  doc(1, 'Snow Leopard on a Ridge', ['snow leopard']),
  doc(2, 'Roses in the Garden', ['rose', 'garden']),
  doc(3, 'Stars in the Night Sky', ['night sky', 'stars']),
  doc(4, 'Sky Island', ['sky', 'island']),
  doc(5, 'Rose Gold Waves', ['rose gold']),
  doc(6, 'Skyisland Poster', ['poster']),
];

describe('a word typed as one', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const search = async (q: string) => {
    const res = await request(ctx.app.url, `/v1/search?q=${encodeURIComponent(q)}`, { key: ctx.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { ids: (res.body.data as { id: number }[]).map((w) => w.id), total: res.body.meta.total_items as number };
  };

  it('when the word occurs nowhere, then it finds what its two words typed apart find', async () => {
    for (const [joined, apart] of [
      ['snowleopard', 'snow leopard'],
      ['rosegarden', 'rose garden'],
      ['NightSky', 'night sky'],
    ]) {
      expect(await search(joined!), joined).to.deep.equal(await search(apart!));
    }
    expect((await search('snowleopard')).ids[0]).to.equal(1);
    expect((await search('rosegarden')).ids[0], 'the roses in the garden, not the rose gold').to.equal(2);
  });

  it('when the catalogue holds the word as typed, or it is quoted, then it is searched whole', async () => {
    expect((await search('skyisland')).ids[0], 'as typed first').to.equal(6);
    expect((await search('"snowleopard"')).total).to.equal(0);
  });
});
