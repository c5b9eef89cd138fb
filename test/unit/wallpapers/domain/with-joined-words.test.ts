import { expect } from 'chai';
import { joinablePairs, withJoinedWords } from '../../../../src/wallpapers/domain/with-joined-words.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';
import { recordingRepository } from '../../../support/recording-repository.js';

const WORDS = new Set(['lighthouse', 'skyscraper', 'darkroom', 'sunset', 'bedroom']);
const knows = (word: string) => WORDS.has(word);

async function groupsSearched(q: string, present: readonly string[], sense = { knows }) {
  const repository = recordingRepository();
  const wordsOccur = occurringIn(present);
  await withJoinedWords(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }), sense).search(searchParams({ q, page: 1, per_page: 20 }));
  return {
    groups: repository.seen[0]!.text.groups.map((group) => group.map(({ text, phrase }) => (phrase ? `"${text}"` : text))),
    asked: wordsOccur.asked,
  };
}

describe('a word typed in two', () => {
  it('when two neighbouring plain words join into a word of the language, then they are a pair, each word in one pair at most', () => {
    expect(joinablePairs(readSearchText('light house sun set'), knows).map(({ joined }) => joined)).to.deep.equal(['lighthouse', 'sunset']);
    expect(joinablePairs(readSearchText('light house set'), knows).map(({ joined }) => joined)).to.deep.equal(['lighthouse']);
    for (const q of ['"light house"', 'light OR dark house', 'light -house', 'light-house', 'lighthouse', 'light beach house'])
      expect(joinablePairs(readSearchText(q), knows), q).to.deep.equal([]);
  });

  it('when the joined word occurs in the catalogue, then the pair is one group: the word, or the two as a phrase', async () => {
    const { groups, asked } = await groupsSearched('light house at night', ['lighthouse', 'light', 'house', 'night']);
    expect(groups).to.deep.equal([['lighthouse', '"light house"'], ['night']]);
    expect(asked, 'one question for the pair').to.deep.equal([['lighthouse', 'light', 'house']]);
  });

  it('when both words occur apart and the joined word does not, then they stay two words: the catalogue decides', async () => {
    expect((await groupsSearched('dark room', ['dark', 'room'])).groups).to.deep.equal([['dark'], ['room']]);
  });

  it('when one of the two words occurs nowhere, then the pair is the joined word, which meaning reads next', async () => {
    expect((await groupsSearched('sky scraper', ['sky'])).groups).to.deep.equal([['skyscraper', '"sky scraper"']]);
  });

  it('when no pair joins into a word, or WordNet is not read, then nothing is asked and the search goes down as it came', async () => {
    expect(await groupsSearched('sunset beach', ['sunset', 'beach'])).to.deep.equal({ groups: [['sunset'], ['beach']], asked: [] });
    expect(await groupsSearched('light house', [], { knows: () => undefined as unknown as boolean })).to.deep.equal({
      groups: [['light'], ['house']],
      asked: [],
    });
  });

  it('when Elasticsearch does not say whether the joined word occurs, then the words stay apart', async () => {
    const repository = recordingRepository();
    const occurrences = createWordOccurrences({ wordsOccur: () => Promise.reject(new Error('timeout')), absentMs: 1000 });
    await withJoinedWords(repository, occurrences, { knows }).search(searchParams({ q: 'bed room', page: 1, per_page: 20 }));
    expect(repository.seen[0]!.text.groups.map((group) => group.map(({ text }) => text))).to.deep.equal([['bed'], ['room']]);
  });
});
