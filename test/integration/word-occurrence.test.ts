import { expect } from 'chai';
import { wordsOccur } from '../../src/wallpapers/store/word-occurrence.js';
import { useCatalogue } from './catalogue-context.js';

describe('whether words occur in the catalogue', () => {
  const ctx = useCatalogue();

  it('when words are asked, then each is answered as a search would match it typed: inflected, but not with a typo', async () => {
    const words = ['aurora', 'auroras', 'auroa', 'giraffe', 'zxqvbnm'];
    expect(await wordsOccur(ctx.es, ctx.alias, words, 5000)).to.deep.equal([true, true, false, false, false]);
  });

  it('when a compound is asked, then it occurs only where its words stand together', async () => {
    // "frozen lake" stands in a title; "lake frozen" and "aurora lake" are words that merely meet.
    expect(await wordsOccur(ctx.es, ctx.alias, ['frozen lake', 'lake frozen', 'aurora lake'], 5000)).to.deep.equal([true, false, false]);
  });

  it('when no word is asked, then Elasticsearch is not asked either', async () => {
    expect(await wordsOccur(ctx.es, 'no-such-alias', [], 5000)).to.deep.equal([]);
  });

  it('when the catalogue cannot answer for a word, then the word is not said (null): neither absent nor occurring', async () => {
    expect(await wordsOccur(ctx.es, 'no-such-alias', ['giraffe'], 5000)).to.deep.equal([null]);
  });
});
