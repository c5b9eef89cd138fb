import { expect } from 'chai';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperWith } from './search-words-context.js';

// A word inside a compound of the catalogue's that names another thing is that thing's name, not
// the word: "Snow Leopard at Sunset" says no snow (docs/api.md, "What matches").
// The leopards are the most downloaded: only the words may rank them below.
const doc = (id: number, title: string, tags: string[], description = 'A picture.') =>
  wallpaperWith({ id, title, tags, description, downloads: 1000 - id, colors: [{ hex: '#808080', share: 1 }] });
const DOCS = [
  doc(1, 'Snow Leopard at Sunset', ['snow leopard'], 'A snow leopard resting on a rock.'),
  doc(2, 'Snow Leopard in the Snow', ['snow leopard', 'snow']),
  doc(3, 'Cabin in the Snow', ['cabin', 'snow']),
  doc(4, 'Frozen Lake', ['lake', 'snow'], 'A lake under fresh snow.'),
  doc(5, 'Mountain Range at Dawn', ['mountain range']),
  doc(6, 'Mountain Lake', ['mountain', 'lake']),
  doc(7, 'Quiet Valley', ['valley'], 'A valley below a mountain.'),
];

describe('a word inside a compound that names another thing', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = async (q: string) => (await searchFound(ctx)(q)).ids;

  it('when the word is searched, then what says it apart comes first and what says it only inside the compound last, still found', async () => {
    const ids = await found('snow');
    expect(ids).to.have.members([1, 2, 3, 4]);
    expect(ids.at(-1), 'the snow leopard at sunset').to.equal(1);
  });

  it('when the compound is searched, with a typo too, then it is what was asked', async () => {
    expect((await found('snow leopard')).slice(0, 2)).to.have.members([1, 2]);
    expect((await found('snow leapord')).slice(0, 2)).to.have.members([1, 2]);
  });

  it('when the word is quoted, then it means exactly what was typed, the compound`s too', async () => {
    const ids = await found('"snow"');
    expect(ids.indexOf(1), 'a title saying it, in its compound too, above a description').to.be.below(ids.indexOf(4));
  });

  it('when WordNet defines the compound by the word, then the compound is of it and ranks as any other', async () => {
    const ids = await found('mountain');
    expect(ids).to.have.members([5, 6, 7]);
    expect(ids.indexOf(5), 'a title saying it above a description').to.be.below(ids.indexOf(7));
  });
});
