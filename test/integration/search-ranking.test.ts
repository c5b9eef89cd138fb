import { expect } from 'chai';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

// A small catalogue built for each ranking rule: the ids say what must come first.
const [template] = fixtureWallpapers() as [WallpaperDocument];
const doc = (id: number, title: string, description: string, category = 'nature'): WallpaperDocument => ({
  ...template,
  id,
  title,
  description,
  category,
  downloads: 0,
});
const DOCS = [
  doc(1, 'Wolves at Night', 'A picture.'),
  doc(2, 'Lone Wolf', 'A picture.'),
  doc(
    3,
    'Mountain Lake',
    'A long description about the view from the shore, with many words that make the field long and dilute the score of the one word that matters.',
  ),
  doc(4, 'Montain Garden', 'Montain, montain and montain.'),
  doc(5, 'Harbor', 'A picture.'),
  doc(6, 'Quiet Evening', 'Boats in the harbor.'),
  doc(7, 'Waves', 'Foam on the rocks.', 'ocean'),
  doc(8, 'Waves', 'Foam on the rocks.', 'abstract'),
  doc(9, 'Rainy Street', 'A picture.'),
  doc(10, 'Rain on Glass', 'A picture.'),
  doc(11, 'Sunrise in the Valley', 'A picture.'),
  doc(12, 'Lighthouse at Dusk', 'A picture.'),
  doc(13, 'Final Tennis Court', 'A picture.', 'sports'),
  doc(14, 'Red Sports Car', 'A picture.', 'cars'),
  doc(15, 'Pickup Truck', 'A picture.', 'cars'),
  doc(16, 'Pizza Slice', 'A picture.', 'food'),
];

describe('search ranking rules', function () {
  this.timeout(30_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const ids = async (q: string) =>
    ((await request(ctx.app.url, `/v1/search?q=${encodeURIComponent(q)}`, { key: ctx.key })).body.data as { id: number }[]).map((w) => w.id);

  it('when a word matches one title exactly and another through its stem, then the exact match ranks first', async () => {
    expect(await ids('wolves')).to.deep.equal([1, 2]);
    expect(await ids('wolf')).to.deep.equal([2, 1]);
  });

  it('when a word names a category, then that category comes before the word found elsewhere', async () => {
    expect(await ids('sports')).to.deep.equal([13, 14]);
    expect(await ids('sport')).to.deep.equal([13, 14]);
    expect((await ids('sports car'))[0], 'a query of more than the category').to.equal(14);
    expect(await ids('food truck'), 'a category word describing another').to.deep.equal([15, 16]);
  });

  it('when a word matches some wallpaper as typed, then it is taken as meant: no typo of it is looked for', async () => {
    expect(await ids('mountain')).to.deep.equal([3]);
    // A misspelling the catalogue holds is still no word of the language: its own wallpaper first, then the typo.
    expect(await ids('montain'), 'the catalogue spells it so').to.deep.equal([4, 3]);
  });

  it('when a word matches no wallpaper as typed, then it is tried with a typo', async () => {
    expect(await ids('mountian')).to.have.members([3, 4]);
  });

  it('when a misspelling is no word but the stemmer reads it as one that occurs, then its typo is still looked for', async () => {
    // "rainly" is read as rain by the index's analysis, but WordNet knows no such word: "rainy" was meant.
    expect(await ids('rainly')).to.include.members([9, 10]);
  });

  it('when a category`s name is misspelt, then its wallpapers are found through the typo, as its name is only there', async () => {
    expect(await ids('ocaen')).to.deep.equal([7]);
    expect(await ids('ocaen waves')).to.deep.equal([7, 8]);
  });

  it('when a typo leaves a word the stemmer cuts further (sunris as sunri, vally as val), then the word meant is still found', async () => {
    expect(await ids('sunris')).to.deep.equal([11]);
    expect(await ids('vally')).to.deep.equal([11]);
  });

  it('when a word is typed in two (light house, sun rise), then it finds what the word finds', async () => {
    expect(await ids('light house')).to.deep.equal([12]);
    expect(await ids('sun rise valley')).to.deep.equal([11]);
  });

  it('when one word matches as typed and another only through a typo, then the typo never ranks first', async () => {
    const found = await ids('harbor mountian');
    expect(found.slice(0, 2)).to.deep.equal([5, 6]);
    expect(found.slice(2)).to.have.members([3, 4]);
  });

  it('when the word is in one title and another description, then the title ranks first', async () => {
    expect(await ids('harbor')).to.deep.equal([5, 6]);
  });

  it('when the query names a category, then wallpapers of that category rank first', async () => {
    expect(await ids('ocean waves')).to.deep.equal([7, 8]);
  });
});
