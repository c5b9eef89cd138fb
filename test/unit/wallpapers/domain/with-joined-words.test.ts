import { expect } from 'chai';
import { joinablePairs, joinedWord, withJoinedWords } from '../../../../src/wallpapers/domain/with-joined-words.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';
import { recordingRepository } from '../../../support/recording-repository.js';

const WORDS = new Set(['lighthouse', 'skyscraper', 'darkroom', 'sunset', 'bedroom', 'bird', 'red', 'car', 'sun', 'flower', 'light', 'horse', 'dawn']);
const knows = (word: string) => WORDS.has(word);
// The catalogue's words a joining is a misspelling of, as SearchMeaning.respelt answers.
const MISSPELT = new Map([
  ['humingbird', ['hummingbird']],
  ['lighthorse', ['lighthouse']],
  ['redcar', ['racecar']],
  ['sunflwer', ['sunflower']],
]);
const respelt = (word: string) => MISSPELT.get(word) ?? [];
const sense = { knows, respelt };

async function groupsSearched(q: string, present: readonly string[], meaning: Parameters<typeof withJoinedWords>[2] = sense) {
  const repository = recordingRepository();
  const wordsOccur = occurringIn(present);
  await withJoinedWords(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }), meaning).search(
    searchParams({ q, page: 1, per_page: 20 }),
  );
  return {
    groups: repository.seen[0]!.text.groups.map((group) => group.map(({ text, phrase }) => (phrase ? `"${text}"` : text))),
    asked: wordsOccur.asked,
  };
}

describe('a word typed in two', () => {
  it('when two neighbouring plain words typed with spaces between join into a word of the language, then they are a pair, each word in one pair at most', () => {
    const pairs = (q: string) => joinablePairs(readSearchText(q), (first, second) => joinedWord(sense, first, second)).map(({ joined }) => joined);
    expect(pairs('light house sun set')).to.deep.equal(['lighthouse', 'sunset']);
    expect(pairs('Light   House set')).to.deep.equal(['lighthouse']);
    for (const q of ['"light house"', 'light OR dark house', 'light -house', 'light-house', 'lighthouse', 'light beach house'])
      expect(pairs(q), q).to.deep.equal([]);
    for (const q of ['sun, set', 'sun -moon set', 'sun NOT dark set', 'sun the set', 'light (house)', 'sun|set'])
      expect(pairs(q), q).to.deep.equal([]);
  });

  it('when the joined word occurs in the catalogue, then the pair is one group: the word, or the two as a phrase', async () => {
    const { groups, asked } = await groupsSearched('light house at night', ['lighthouse', 'light', 'house', 'night']);
    expect(groups).to.deep.equal([['lighthouse', '"light house"'], ['night']]);
    expect(asked, 'one question for the pairs').to.deep.equal([['lighthouse']]);
  });

  it('when a word of the two is none of the language and their joining is a misspelling of a catalogue word, then they are that word', async () => {
    const { groups } = await groupsSearched('huming bird at dawn', ['hummingbird', 'bird', 'dawn']);
    expect(groups).to.deep.equal([['hummingbird', '"huming bird"'], ['dawn']]);
    expect((await groupsSearched('sun flwer', ['sunflower', 'sun'])).groups).to.deep.equal([['sunflower', '"sun flwer"']]);
  });

  it('when both words are of the language, then their joining is never respelt, however near a catalogue word it is', async () => {
    expect((await groupsSearched('red car', ['racecar', 'red', 'car'])).groups).to.deep.equal([['red'], ['car']]);
    expect((await groupsSearched('light horse', ['lighthouse', 'light'])).groups).to.deep.equal([['light'], ['horse']]);
  });

  it('when both words occur apart and the joined word does not, then they stay two words: the catalogue decides', async () => {
    expect((await groupsSearched('dark room', ['dark', 'room'])).groups).to.deep.equal([['dark'], ['room']]);
  });

  it('when the joined word occurs nowhere, then the two stay apart, though one of them occurs nowhere either (cat walk)', async () => {
    expect((await groupsSearched('sky scraper', ['sky'])).groups).to.deep.equal([['sky'], ['scraper']]);
  });

  it('when no pair joins into a word, or WordNet is not read, then nothing is asked and the search goes down as it came', async () => {
    expect(await groupsSearched('sunset beach', ['sunset', 'beach'])).to.deep.equal({ groups: [['sunset'], ['beach']], asked: [] });
    expect(await groupsSearched('light house', [], { knows: () => undefined, respelt })).to.deep.equal({
      groups: [['light'], ['house']],
      asked: [],
    });
  });

  it('when Elasticsearch does not say whether the joined word occurs, then the words stay apart', async () => {
    const repository = recordingRepository();
    const occurrences = createWordOccurrences({ wordsOccur: () => Promise.reject(new Error('timeout')), absentMs: 1000 });
    await withJoinedWords(repository, occurrences, sense).search(searchParams({ q: 'bed room', page: 1, per_page: 20 }));
    expect(repository.seen[0]!.text.groups.map((group) => group.map(({ text }) => text))).to.deep.equal([['bed'], ['room']]);
  });
});
