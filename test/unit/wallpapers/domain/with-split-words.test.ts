import { expect } from 'chai';
import { splitWord, withSplitWords } from '../../../../src/wallpapers/domain/with-split-words.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';
import { recordingRepository } from '../../../support/recording-repository.js';

// The language's words, the catalogue's own among them, and the misspellings of the catalogue's.
const WORDS = new Set([
  'snow',
  'leopard',
  'night',
  'sky',
  'rose',
  'garden',
  'poke',
  'mon',
  'star',
  'wars',
  'sunflower',
  'pen',
  'island',
  'penis',
  'land',
]);
const OWN = new Set(['snow', 'leopard', 'night', 'sky', 'rose', 'garden', 'star', 'sunflower', 'island', 'land']);
const sense = {
  knows: (word: string) => WORDS.has(word),
  ownWord: (word: string) => OWN.has(word),
  respelt: (word: string) => (word === 'sunflwer' ? ['sunflower'] : []),
  ready: Promise.resolve(),
};

async function groupsSearched(q: string, present: readonly string[]) {
  const repository = recordingRepository();
  const wordsOccur = occurringIn(present);
  await withSplitWords(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }), sense).search(searchParams({ q, page: 1, per_page: 20 }));
  const { groups, spaced } = repository.seen[0]!.text;
  return { groups: groups.map((group) => group.map(({ text }) => text)), spaced, asked: wordsOccur.asked };
}

describe('a word typed as one', () => {
  it('when a word no language knows cuts into two of the catalogue`s words, then those are its words', () => {
    expect(splitWord(sense, 'snowleopard')).to.deep.equal(['snow', 'leopard']);
    expect(splitWord(sense, 'nightsky')).to.deep.equal(['night', 'sky']);
  });

  it('when it is a word, a misspelling of the catalogue`s, or cut only into words the catalogue lacks, then it stays whole', () => {
    expect(splitWord(sense, 'sunflower'), 'a word').to.equal(undefined);
    expect(splitWord(sense, 'sunflwer'), 'a misspelling').to.equal(undefined);
    expect(splitWord(sense, 'pokemon'), 'poke and mon: neither the catalogue`s').to.equal(undefined);
    expect(splitWord(sense, 'starwars'), 'star and wars: one of the catalogue`s').to.equal(undefined);
  });

  it('when it cuts two ways, then it stays whole: which was meant is a guess', () => {
    expect(splitWord(sense, 'sealion'), 'sea lion, seal ion').to.equal(undefined);
  });

  it('when the word occurs nowhere in the catalogue, then it is searched as its two words typed apart', async () => {
    const { groups, spaced, asked } = await groupsSearched('snowleopard at nightsky', ['snow', 'leopard']);
    expect(groups).to.deep.equal([['snow'], ['leopard'], ['night'], ['sky']]);
    expect(spaced, 'side by side, as typed apart').to.include.members(['snow leopard', 'night sky']);
    expect(asked, 'one question for both').to.deep.equal([['snowleopard', 'nightsky']]);
  });

  it('when the word occurs in the catalogue, or is quoted, then it is searched whole', async () => {
    expect((await groupsSearched('snowleopard', ['snowleopard'])).groups).to.deep.equal([['snowleopard']]);
    const quoted = await groupsSearched('"snowleopard"', []);
    expect(quoted.groups).to.deep.equal([['snowleopard']]);
    expect(quoted.asked, 'nothing asked').to.deep.equal([]);
  });
});
