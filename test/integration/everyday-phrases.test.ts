import { expect } from 'chai';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperWith } from './search-words-context.js';

// A phrase people type for a catalogue word (thesaurus/everyday-words.json: "rose garden" for
// roses, "mountain lake" for alpine lake) finds what it stands for, and first the titles that say
// it in its own words (docs/api.md, What matches).
const doc = (id: number, title: string, downloads: number, tags: string[]): WallpaperDocument => wallpaperWith({ id, title, downloads, tags });
const DOCS = [
  // The more downloaded roses and one the title calls a rose but is of gold.
  doc(1, 'Wild Roses', 90, ['roses']),
  doc(2, 'Roses in the Morning Dew', 80, ['roses']),
  doc(3, 'Roses in the Garden', 10, ['roses', 'garden']),
  doc(4, 'Waves in Rose Gold', 95, ['rose gold']),
  // A garden of other flowers, and a title holding both words of which neither is the head.
  doc(5, 'Tulips in the Garden', 70, ['tulips', 'garden']),
  doc(6, 'Rose Window of a Garden Chapel', 99, ['chapel']),
  doc(7, 'Alpine Lake at Dawn', 5, ['alpine lake']),
  doc(8, 'Misty Mountain', 60, ['mountain']),
  doc(9, 'Castle beyond the Mountains', 85, ['castle']),
  // More downloaded, and of a word typed beside a phrase.
  doc(10, 'Roadster at Night', 99, ['roadster']),
  doc(11, 'Owl at Dawn', 98, ['owl']),
];

describe('phrases people type for a catalogue word', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = searchFound(ctx);

  it('when a title says the phrase in its own words, its first word the head, then it ranks above the rest of what the phrase stands for', async () => {
    for (const q of ['rose garden', 'roses garden', 'garden roses']) {
      const { ids } = await found(q);
      expect(ids[0], `${q}: not the more downloaded chapel, whose title holds both words but is of neither`).to.equal(3);
      expect(ids, `${q}: the roses it stands for`).to.include.members([1, 2]);
    }
  });

  it('when the words of a phrase are typed side by side in the plural, then they are read singular each and find what the phrase stands for first', async () => {
    for (const q of ['mountain lake', 'mountains lake', 'mountains lakes']) {
      expect((await found(q)).ids[0], q).to.equal(7);
    }
  });

  it('when another word follows the phrase, then what the phrase stands for stays first, above what the other word alone finds', async () => {
    expect((await found('mountains lake at night')).ids[0], 'the lake, not the roadster').to.equal(7);
    expect((await found('roses garden at dawn')).ids[0], 'the roses, not the owl').to.equal(3);
  });
});
