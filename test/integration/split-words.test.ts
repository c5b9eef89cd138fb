import { expect } from 'chai';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperWith } from './search-words-context.js';

// A word typed as one, as hashtags are written, is the two words it joins where the catalogue holds
// it nowhere (docs/api.md, "What matches").
const doc = (id: number, title: string, tags: string[]) =>
  wallpaperWith({ id, title, tags, downloads: 100 - id, colors: [{ hex: '#808080', share: 1 }] });
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

  const search = (q: string) => searchFound(ctx)(q);

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
