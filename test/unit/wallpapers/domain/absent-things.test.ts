import { expect } from 'chai';
import { buildVocabulary } from '../../../../src/infra/nearest-words.js';
import type { SentenceModel } from '../../../../src/infra/sentence-model.js';
import { createAbsentThings } from '../../../../src/wallpapers/domain/absent-things.js';
import { occurringIn } from '../../../support/words-occur.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';

const model: SentenceModel = {
  words: [],
  pieces: () => 1,
  embed: (texts) => Promise.resolve(texts.map(() => Float32Array.of(1, 0))),
  close: () => Promise.resolve(),
};
const things = new Set(['giraffe', 'flamingo', 'tower']);
const namesThing = (word: string) => Promise.resolve(things.has(word));

describe('things the catalogue holds nowhere', () => {
  it('when a group of strangers names things that occur nowhere, then the catalogue has nothing for the query', async () => {
    const words = await buildVocabulary(model, ['kitten'], new Map());
    const absent = createAbsentThings({ occurrences: createWordOccurrences({ wordsOccur: occurringIn(['tower']), absentMs: 1000 }), namesThing });
    expect(await absent([['giraffe']], words)).to.equal(true);
    expect(await absent([['tower']], words), 'it occurs').to.equal(false);
    expect(await absent([['giraffe', 'tower']], words), 'one of either occurs').to.equal(false);
    expect(await absent([['bosque']], words), 'not a pictured thing').to.equal(false);
    expect(await absent([], words)).to.equal(false);
  });

  it('when searches ask about the same words at once, then one question answers them all, and its answer is remembered', async () => {
    const words = await buildVocabulary(model, ['kitten'], new Map());
    const wordsOccur = occurringIn(['tower']);
    const absent = createAbsentThings({ occurrences: createWordOccurrences({ wordsOccur, absentMs: 1000 }), namesThing });
    expect(await Promise.all([absent([['giraffe']], words), absent([['giraffe']], words), absent([['tower']], words)])).to.deep.equal([
      true,
      true,
      false,
    ]);
    expect(await absent([['giraffe'], ['tower']], words)).to.equal(true);
    expect(wordsOccur.asked).to.deep.equal([['giraffe'], ['tower']]);
  });

  it('when an absent word may since have been imported, then it is asked again after absentMs; a word found is not', async () => {
    const words = await buildVocabulary(model, ['kitten'], new Map());
    const present: string[] = ['tower'];
    const wordsOccur = occurringIn(present);
    const absent = createAbsentThings({ occurrences: createWordOccurrences({ wordsOccur, absentMs: 50 }), namesThing });
    expect(await absent([['giraffe'], ['tower']], words)).to.equal(true);
    present.push('giraffe');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await absent([['giraffe'], ['tower']], words)).to.equal(false);
    expect(wordsOccur.asked).to.deep.equal([['giraffe', 'tower'], ['giraffe']]);
  });

  it('when Elasticsearch does not answer, then the words count as occurring for absentMs and are not asked again meanwhile', async () => {
    const words = await buildVocabulary(model, ['kitten'], new Map());
    let asked = 0;
    const absent = createAbsentThings({
      occurrences: createWordOccurrences({
        wordsOccur: () => {
          asked++;
          return Promise.reject(new Error('timeout'));
        },
        absentMs: 1000,
      }),
      namesThing,
    });
    expect(await absent([['giraffe']], words)).to.equal(false);
    expect(await absent([['giraffe']], words)).to.equal(false);
    expect(asked).to.equal(1);
  });

  it('when the typo rule has asked about a word already, then the answer it got is the one used: one memo for both', async () => {
    const words = await buildVocabulary(model, ['kitten'], new Map());
    const wordsOccur = occurringIn(['tower']);
    const occurrences = createWordOccurrences({ wordsOccur, absentMs: 1000 });
    await occurrences.of(['giraffe', 'tower']);
    const absent = createAbsentThings({ occurrences, namesThing });
    expect(await absent([['giraffe']], words)).to.equal(true);
    expect(wordsOccur.asked).to.deep.equal([['giraffe', 'tower']]);
  });
});
