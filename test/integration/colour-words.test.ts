import { expect } from 'chai';
import type { ColorShare } from '../../src/wallpapers/colors.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

// A colour typed as a word finds the pictures whose pixels hold it, as well as those whose text
// names it, and never stands for another colour (docs/api.md, "What matches").
const [template] = fixtureWallpapers() as [WallpaperDocument];
const YELLOW = '#f2d338';
const BLUE = '#2a5bd7';
const RED = '#c62828';
const GREEN = '#3c9a3c';
const ORANGE = '#f08a24';
const doc = (id: number, title: string, colors: ColorShare[], tags: string[] = []): WallpaperDocument => ({
  ...template,
  id,
  title,
  description: 'A picture.',
  category: 'nature',
  downloads: 100 - id,
  colors,
  tags,
});
const DOCS = [
  doc(1, 'Quiet Meadow', [
    { hex: YELLOW, share: 0.6 },
    { hex: BLUE, share: 0.4 },
  ]),
  doc(2, 'Quiet Harbor', [
    { hex: BLUE, share: 0.9 },
    { hex: YELLOW, share: 0.1 },
  ]),
  doc(3, 'Yellow Kayak', [{ hex: BLUE, share: 1 }]),
  // Yellow, but too little of the picture to count (under 5 %, as the `color` filter reads it).
  doc(4, 'Quiet Dunes', [
    { hex: RED, share: 0.97 },
    { hex: YELLOW, share: 0.03 },
  ]),
  // "red" is a catalogue word (a tag), which the sentence model places next to yellow.
  doc(
    5,
    'Red Panda in the Forest',
    [
      { hex: RED, share: 0.6 },
      { hex: BLUE, share: 0.4 },
    ],
    ['red panda', 'red', 'forest'],
  ),
  doc(
    6,
    'Pine Forest',
    [
      { hex: GREEN, share: 0.7 },
      { hex: BLUE, share: 0.3 },
    ],
    ['forest'],
  ),
  doc(7, 'Quiet Street', [{ hex: '#808080', share: 1 }]),
  // A cat in a corner of its description, in an orange picture; the catalogue calls cats kittens.
  {
    ...doc(8, 'Empty Schoolyard', [
      { hex: ORANGE, share: 0.8 },
      { hex: BLUE, share: 0.2 },
    ]),
    description: 'Empty schoolyard, with a cat asleep in the corner.',
  },
  doc(9, 'Sleepy Kitten', [{ hex: BLUE, share: 1 }], ['kitten']),
  doc(10, 'Kitten on a Sofa', [{ hex: ORANGE, share: 1 }], ['kitten']),
];

describe('colour words in a search', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = async (q: string) => {
    const res = await request(ctx.app.url, `/v1/search?q=${encodeURIComponent(q)}`, { key: ctx.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.data as { id: number }[]).map((w) => w.id);
  };

  it('when a colour is searched, then the pictures holding it are found, the most of it first, with those naming it', async () => {
    const ids = await found('yellow');
    expect(ids).to.have.members([1, 2, 3]);
    expect(ids.indexOf(1), 'more of the picture ranks higher').to.be.lessThan(ids.indexOf(2));
  });

  it('when a colour no tag holds is searched, then no other colour stands for it', async () => {
    expect(await found('yellow')).to.not.include(5);
    expect(await found('Yellow')).to.not.include(5);
  });

  it('when a colour and a thing are searched, then the things of that colour come first', async () => {
    expect(await found('green forest')).to.deep.equal([6, 5]);
    const red = await found('red forest');
    expect(red[0], 'both asked').to.equal(5);
    expect(red, 'the forests; the red dunes say no forest nor red').to.deep.equal([5, 6]);
  });

  it('when a colour is searched beside a thing, then its pixels rank what the words find and find nothing on their own', async () => {
    expect(await found('red dunes'), 'the red dunes, then the panda whose tags say red').to.deep.equal([4, 5]);
    expect(await found('red meadow'), 'not the dunes, red but saying neither').to.have.members([1, 5]);
    expect(await found('yellow harbor'), 'the harbour holds yellow; the kayak says it').to.deep.equal([2, 3]);
  });

  it('when a colour is searched beside a figure the titles call by another word, then the pictures named for it come first, of that colour first', async () => {
    const ids = await found('orange cat');
    expect(ids.slice(0, 2), 'the kittens, the orange one first').to.deep.equal([10, 9]);
    expect(ids, 'the orange schoolyard whose description has a cat in a corner, after them').to.include(8);
  });

  it('when a colour is spelt the British way, then it finds what the American spelling finds', async () => {
    expect(await found('grey')).to.deep.equal([7]);
    expect(await found('gray')).to.deep.equal([7]);
  });

  it('when a colour is in quotes, then only the text that names it counts', async () => {
    expect(await found('"yellow"')).to.deep.equal([3]);
  });

  it('when a colour is excluded, then the wallpapers whose text names it are left out, and those it covers 30 % or more of rank last', async () => {
    expect(await found('quiet -yellow'), 'the meadow is 60 % yellow; the harbour holds a tenth, the dunes 3 %').to.have.members([1, 2, 4, 7]);
    expect((await found('quiet -yellow')).at(-1), 'the meadow last').to.equal(1);
    expect((await found('quiet not yellow')).at(-1), 'in words').to.equal(1);
    expect((await found('forest -green')).at(-1), 'the pine forest, 70 % green, after the red panda').to.equal(6);
    expect(await found('forest -green'), 'kept: a palette is the whole picture').to.have.members([5, 6]);
    expect(await found('yellow -kayak')).to.deep.equal([1, 2]);
    expect(await found('kayak -yellow'), 'its text names it').to.deep.equal([]);
    expect((await found('quiet -"yellow"')).at(-1), 'quoted, the word alone: the meadow ranks as it would').to.not.equal(1);
  });
});
