import { expect } from 'chai';
import { readAsIndexed } from '../../src/wallpapers/store/catalogue-words.js';
import { useCatalogue } from './catalogue-context.js';

describe('how the index reads words', () => {
  const ctx = useCatalogue();

  it('when words are read, then each is the one term the index makes of it, in order; none for a common word or a word it splits', async () => {
    const words = ['falling', 'deserted', 'fall', 'the', 'x-ray', 'harbour', 'Café', 'wolves', 'skier'];
    expect(await readAsIndexed(ctx.es, ctx.alias, words, 5000)).to.deep.equal([
      'fall',
      'desert',
      'fall',
      undefined,
      undefined,
      'harbor',
      'cafe',
      'wolf',
      'sky',
    ]);
  });

  it('when more words are read than one request holds, then every word is answered in its place', async () => {
    const words = Array.from({ length: 9_001 }, (_, i) => (i % 3 === 0 ? 'the' : i % 3 === 1 ? `w${i}` : 'falling'));
    const read = await readAsIndexed(ctx.es, ctx.alias, words, 10_000);
    expect(read).to.have.length(words.length);
    read.forEach((term, i) => expect(term, words[i]).to.equal(i % 3 === 0 ? undefined : i % 3 === 1 ? `w${i}` : 'fall'));
  });

  it('when no word is asked, then Elasticsearch is not asked either', async () => {
    expect(await readAsIndexed(ctx.es, 'no-such-alias', [])).to.deep.equal([]);
  });

  it('when the index cannot be read, then the reading fails', async () => {
    let failed: unknown;
    await readAsIndexed(ctx.es, 'no-such-alias', ['falling'], 2000).catch((error: unknown) => (failed = error));
    expect(failed).to.be.instanceOf(Error);
  });
});
