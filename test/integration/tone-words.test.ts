import { expect } from 'chai';
import type { ColorShare } from '../../src/wallpapers/colors.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperWith } from './search-words-context.js';

// A word that says a tone ("dark", "night") finds the pictures of that tone as a colour word finds
// its colour: alone, all of them with those whose text says it ("night", which names what has the
// tone, ranks by it what says night); beside other words, it ranks what they find (docs/api.md,
// "What matches").
const DARK: ColorShare[] = [{ hex: '#14182b', share: 1 }];
const LIGHT: ColorShare[] = [{ hex: '#f0e6d2', share: 1 }];
const doc = (id: number, title: string, colors: ColorShare[], downloads: number): WallpaperDocument =>
  wallpaperWith({ id, title, colors, downloads, tags: [] });
const DOCS = [
  // The light forest is the more downloaded, and ranks first on the words alone.
  doc(1, 'Forest Path at Dusk', DARK, 10),
  doc(2, 'Ancient Forest', LIGHT, 90),
  doc(3, 'Dark Farm', DARK, 50),
  doc(4, 'Quiet Lake', DARK, 70),
  doc(5, 'Sunny Meadow', LIGHT, 80),
  // The plainest forest, which its words rank first.
  doc(6, 'Forest', DARK, 5),
  doc(7, 'Harbour at Night', LIGHT, 60),
  doc(8, 'Bridge at Night', DARK, 1),
];

describe('tone words in a search', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = searchFound(ctx);

  it('when a tone word is searched beside a thing, then the things of that tone come first, and nothing is found by the tone alone', async () => {
    for (const q of ['dark forest', 'night forest', 'forest at midnight', 'amoled forest']) {
      const { ids, total } = await found(q);
      expect(ids.slice(0, 2), q).to.have.members([1, 6]);
      expect(ids, q).to.not.include(4);
      expect(total, q).to.equal(ids.length);
    }
    expect((await found('dark forest')).ids).to.have.members([1, 2, 3, 6]);
  });

  it('when a tone word is searched alone, then the pictures of that tone are found, those saying it first', async () => {
    const { ids } = await found('dark');
    expect(ids[0]).to.equal(3);
    expect(ids).to.have.members([1, 3, 4, 6, 8]);
  });

  it('when a word implying a tone is searched alone, then what says it is found, the pictures of that tone first', async () => {
    expect(await found('night')).to.deep.equal({ ids: [8, 7], total: 2 });
  });

  it('when a tone word is in quotes, then it is the word as typed, in the text alone', async () => {
    expect((await found('"dark"')).ids).to.deep.equal([3]);
    expect((await found('"dark" forest')).ids[0], 'the plainest forest, as its words rank it').to.equal(6);
  });

  it('when a tone word is excluded, then its text is left out and the pictures of its tone rank last', async () => {
    for (const q of ['forest -dark', 'forest but not at night']) {
      const { ids } = await found(q);
      expect(ids[0], q).to.equal(2);
      expect(ids, q).to.have.members([1, 2, 6]);
    }
    expect((await found('lake OR farm -dark')).ids, 'the farm says dark').to.deep.equal([4]);
  });
});
