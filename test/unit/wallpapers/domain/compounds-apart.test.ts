import { expect } from 'chai';
import { type CompoundReading, compoundsByWord, compoundsNotOf, withCompoundsApart } from '../../../../src/wallpapers/domain/compounds-apart.js';
import type { MeaningOfQuery } from '../../../../src/wallpapers/domain/search-meaning.js';
import { type SearchQuery, readSearchText } from '../../../../src/wallpapers/search-query.js';

// WordNet as it reads these: each compound and the words it is of.
const OF: Record<string, string[]> = { 'snow leopard': [], 'mountain range': ['mountain'], 'red panda': [], 'rose window': [] };
const reading: CompoundReading = {
  isCompound: (words) => words in OF,
  compoundIsOf: (compound, word) => Promise.resolve(OF[compound]?.includes(word) ?? true),
};
const CATALOGUE = ['snow leopard', 'mountain range', 'red panda', 'rose window', 'pine forest', 'snow', 'leopard'];
const byWord = compoundsByWord(CATALOGUE, reading);
const notOf = (word: string) => compoundsNotOf(word, byWord, reading);
const AS_TYPED: MeaningOfQuery = { query: null, nothing: false, subject: null };

async function apartIn(q: string, meaning: MeaningOfQuery = AS_TYPED) {
  const text: SearchQuery = readSearchText(q);
  const marked = await withCompoundsApart(text, meaning, notOf);
  return (marked.typed ?? text.groups).flat().map(({ text: word, apart }) => [word, apart ?? []]);
}

describe('the catalogue`s compounds a word stands in', () => {
  it('when the catalogue holds compounds, then each is listed under its words but its last, what it is', () => {
    expect(Object.fromEntries(byWord)).to.deep.equal({
      snow: ['snow leopard'],
      mountain: ['mountain range'],
      red: ['red panda'],
      rose: ['rose window'],
    });
  });

  it('when a compound names another thing, then it is apart from the word; when WordNet says it is of the word, it is not', async () => {
    expect(await notOf('snow')).to.deep.equal(['snow leopard']);
    expect(await notOf('mountain')).to.deep.equal([]);
    expect(await notOf('leopard'), 'the word a compound is').to.deep.equal([]);
  });

  it('when the word is a colour, then no compound is apart, whatever WordNet says: such a picture mostly has the colour', async () => {
    expect(await notOf('red')).to.deep.equal([]);
    expect(await apartIn('red')).to.deep.equal([['red', []]]);
  });

  it('when a plain word is typed, then it is marked with its compounds apart, its plural by its singular', async () => {
    expect(await apartIn('snow')).to.deep.equal([['snow', ['snow leopard']]]);
    expect(await apartIn('roses')).to.deep.equal([['roses', ['rose window']]]);
    expect(await apartIn('mountain')).to.deep.equal([['mountain', []]]);
  });

  it('when the query says the compound`s other words, even with typos, then the compound is not apart: it was asked for', async () => {
    for (const q of ['snow leopard', 'snow leopards', 'snow leapord', 'snow leotard']) {
      expect((await apartIn(q))[0], q).to.deep.equal(['snow', []]);
    }
  });

  it('when a word is quoted or a phrase, then it is not marked: it means exactly what was typed', async () => {
    expect(await apartIn('"snow"')).to.deep.equal([['snow', []]]);
    expect(await apartIn('"snow at night"')).to.deep.equal([['snow at night', []]]);
  });

  it('when the query has a meaning and a subject, then the word as typed is marked there too, and its stand-ins are not', async () => {
    const typed = readSearchText('snow cabin');
    const meaning: MeaningOfQuery = {
      query: {
        ...typed,
        groups: [
          [
            { text: 'snow', phrase: false },
            { text: 'snowy', phrase: false, similarity: 0.8 },
          ],
          [{ text: 'cabin', phrase: false }],
        ],
      },
      nothing: false,
      subject: [{ text: 'snow', phrase: false }],
    };
    const marked = await withCompoundsApart(typed, meaning, notOf);
    expect(marked.query!.groups[0]!.map(({ apart }) => apart)).to.deep.equal([['snow leopard'], undefined]);
    expect(marked.subject![0]!.apart).to.deep.equal(['snow leopard']);
  });

  it('when no word of the query stands in a compound apart, then the meaning is returned as it was', async () => {
    const meaning = { ...AS_TYPED };
    expect(await withCompoundsApart(readSearchText('pine forest'), meaning, notOf)).to.equal(meaning);
  });
});
