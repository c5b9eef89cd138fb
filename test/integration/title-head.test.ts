import { expect } from 'chai';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperWith } from './search-words-context.js';

// A title names what a wallpaper is of first, and where or when after ("Castle beyond the
// Mountains"); the last word before the setting is what it is ("Snow Leopard" is a leopard): that
// word, the title's head, ranks above the same word elsewhere in the title (docs/api.md, Ranking).
const doc = (id: number, title: string, downloads: number): WallpaperDocument => wallpaperWith({ id, title, downloads, tags: [] });
const DOCS = [
  // The settings say the plural as typed and are the more downloaded.
  doc(1, 'Castle beyond the Mountains', 90),
  doc(2, 'Temple beyond the Mountains', 80),
  doc(3, 'Snowy Mountain', 10),
  doc(4, 'Misty Mountain at Dawn', 5),
  doc(5, 'Kitten in the Rain', 70),
  doc(6, 'Rain on a Window', 1),
  doc(7, 'Lighthouse with Sunflowers', 60),
  doc(8, 'Field of Sunflowers', 2),
  doc(9, 'Tower beyond the Mountains at Dawn', 95),
  // A word describing the head is no more than a word in the setting.
  doc(10, 'Snow Leopard', 99),
  doc(11, 'Fresh Snow', 3),
];

describe('words in the head of a title', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = searchFound(ctx);

  it('when a plural is written as typed only in settings, then the titles that are of it rank first, the settings still found', async () => {
    for (const q of ['mountains', 'mountain']) {
      const { ids } = await found(q);
      expect(ids.slice(0, 2), q).to.have.members([3, 4]);
      expect(ids, q).to.have.members([1, 2, 3, 4, 9]);
    }
  });

  it('when a word stands after a word saying where or with what, then a title that begins with it ranks above', async () => {
    expect((await found('rain')).ids).to.deep.equal([6, 5]);
    expect((await found('sunflowers')).ids, '"of" begins no setting: a field of sunflowers is of sunflowers').to.deep.equal([8, 7]);
  });

  it('when the word only describes the head, then the title whose head it is ranks first', async () => {
    expect((await found('snow')).ids[0], 'fresh snow, not the snow leopard').to.equal(11);
  });

  it('when the word is beside another, then the titles of it still rank first among those matching both', async () => {
    expect((await found('mountains dawn')).ids.slice(0, 2)).to.deep.equal([4, 9]);
  });

  it('when the word is in quotes or a phrase, then it is matched as before and nothing more is found', async () => {
    expect((await found('"mountains"')).ids).to.have.members([1, 2, 3, 4, 9]);
    expect((await found('"beyond the mountains"')).ids).to.have.members([1, 2, 9]);
  });
});
