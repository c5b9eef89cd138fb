import { expect } from 'chai';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { occurringIn } from '../../../support/words-occur.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('whether words occur, remembered', () => {
  it('when searches ask about words at once, then one question answers them all, and its answers are remembered', async () => {
    const wordsOccur = occurringIn(['noon']);
    const occurrences = createWordOccurrences({ wordsOccur, absentMs: 1000 });
    const answers = await Promise.all([occurrences.of(['noon', 'montain']), occurrences.of(['montain']), occurrences.of(['noon'])]);
    expect(answers).to.deep.equal([[true, false], [false], [true]]);
    expect(await occurrences.of(['noon', 'montain'])).to.deep.equal([true, false]);
    expect(wordsOccur.asked).to.deep.equal([['noon', 'montain']]);
  });

  it('when a word found to occur is older than occursMs, or forgotten, then it is asked again', async () => {
    const wordsOccur = occurringIn(['noon']);
    const occurrences = createWordOccurrences({ wordsOccur, absentMs: 1000, occursMs: 40 });
    await occurrences.of(['noon']);
    await wait(60);
    await occurrences.of(['noon']);
    occurrences.forget();
    await occurrences.of(['noon']);
    expect(wordsOccur.asked).to.deep.equal([['noon'], ['noon'], ['noon']]);
  });

  it('when a word did not occur, then it is asked again after absentMs: an import may have brought it', async () => {
    const present: string[] = [];
    const wordsOccur = occurringIn(present);
    const occurrences = createWordOccurrences({ wordsOccur, absentMs: 40 });
    expect(await occurrences.of(['noon'])).to.deep.equal([false]);
    present.push('noon');
    expect(await occurrences.of(['noon']), 'still believed').to.deep.equal([false]);
    await wait(60);
    expect(await occurrences.of(['noon'])).to.deep.equal([true]);
  });

  it('when Elasticsearch fails, then the words are not known (null) for absentMs, and not asked again meanwhile', async () => {
    let asked = 0;
    const occurrences = createWordOccurrences({
      wordsOccur: () => {
        asked++;
        return Promise.reject(new Error('timeout'));
      },
      absentMs: 1000,
    });
    expect(await occurrences.of(['noon', 'neon'])).to.deep.equal([null, null]);
    expect(await occurrences.of(['noon'])).to.deep.equal([null]);
    expect(asked).to.equal(1);
  });

  it('when one word of a question is not answered, then it alone is not known (null), and asked again after absentMs', async () => {
    const asked: string[][] = [];
    let failing = true;
    const occurrences = createWordOccurrences({
      wordsOccur: (words) => {
        asked.push([...words]);
        return Promise.resolve(words.map((word) => (word === 'neon' && failing ? null : word === 'noon')));
      },
      absentMs: 40,
    });
    expect(await occurrences.of(['noon', 'neon'])).to.deep.equal([true, null]);
    failing = false;
    expect(await occurrences.of(['neon']), 'within absentMs').to.deep.equal([null]);
    await wait(60);
    expect(await occurrences.of(['noon', 'neon'])).to.deep.equal([true, false]);
    expect(asked).to.deep.equal([['noon', 'neon'], ['neon']]);
  });
});
