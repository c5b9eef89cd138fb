import { expect } from 'chai';
import { isShared, share } from '../../../../src/infra/shared-result.js';
import { withCorrections } from '../../../../src/wallpapers/domain/with-corrections.js';
import { MISSPELT_MARGIN } from '../../../../src/wallpapers/domain/real-word-typos.js';
import { createWordOccurrences, type WordsOccur } from '../../../../src/wallpapers/domain/word-occurrences.js';
import type { Mistyped, SearchParams } from '../../../../src/wallpapers/params.js';
import type { SearchQuery } from '../../../../src/wallpapers/search-query.js';
import type { WallpaperRepository } from '../../../../src/wallpapers/store/repository.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';

/** A catalogue that holds `present`: a search finds seven wallpapers when each group has a term whose words all occur. */
function catalogue(present: readonly string[]) {
  const searched: string[][][] = [];
  const whole: (true | undefined)[] = [];
  const repository = {
    search: (params: SearchParams) => {
      const groups = params.text.groups.map((group) => group.map(({ text }) => text));
      searched.push(groups);
      whole.push(params.whole);
      const found = groups.every((group) => group.some((text) => text.split(' ').every((word) => present.includes(word))));
      return Promise.resolve(share({ items: [], total: found ? 7 : 0 }));
    },
  } as unknown as WallpaperRepository;
  return { repository, searched, whole };
}

/**
 * The language: every word is one; `meant` says which word each typed one stands for, and records
 * the margin asked. The catalogue names its things by the words of PRESENT.
 */
function sense(meant: Record<string, string>) {
  const asked: { words: readonly string[]; margin: number | undefined }[] = [];
  return {
    asked,
    knows: (word: string) => /^[a-z]+$/.test(word),
    ownWord: (word: string) => PRESENT.includes(word),
    misspelt: (_text: SearchQuery, words: readonly string[], margin?: number): Promise<Mistyped[]> => {
      asked.push({ words, margin });
      return Promise.resolve(words.filter((word) => word in meant).map((typed) => ({ typed, meant: meant[typed]! })));
    },
  };
}

const PRESENT = ['canyon', 'sunset', 'fjord', 'iceland'];
// A word the catalogue holds in descriptions only: it occurs, but names none of its things.
const DESCRIBED = ['lamp', 'meadow'];

async function searched(q: string, meant: Record<string, string>, wordsOccur: WordsOccur = occurringIn([...PRESENT, ...DESCRIBED])) {
  const { repository, searched: seen, whole } = catalogue([...PRESENT, ...DESCRIBED]);
  const language = sense(meant);
  const page = await withCorrections(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }), language).search(
    searchParams({ q, page: 1, per_page: 20 }),
  );
  return { page, seen, whole, weighed: language.asked };
}

describe('a search that finds nothing, read with the words meant', () => {
  it('when a search finds nothing and a word the catalogue lacks stands for one it holds, then the answer is for that word, saying so', async () => {
    const { page, seen, whole } = await searched('cannon at sunset', { cannon: 'canyon' });
    expect(page.total).to.equal(7);
    expect(page.corrections).to.deep.equal([{ typed: 'cannon', meant: 'canyon' }]);
    expect(seen).to.deep.equal([
      [['cannon'], ['sunset']],
      [['canyon'], ['sunset']],
    ]);
    expect(whole, 'the reading answers with what matches every group of it').to.deep.equal([undefined, true]);
    expect(isShared(page), 'shared as every page is').to.equal(true);
  });

  it('when the words meant are weighed, then any better fit will do, less than the search`s own reading asks', async () => {
    const { weighed } = await searched('cannon at sunset', { cannon: 'canyon' });
    expect(weighed).to.have.length(1);
    expect(weighed[0]!.words).to.deep.equal(['cannon']);
    expect(weighed[0]!.margin).to.be.greaterThan(0).and.lessThan(MISSPELT_MARGIN);
  });

  it('when the search finds something as typed, then it is answered as it came and nothing is weighed', async () => {
    const { page, seen, weighed } = await searched('canyon at sunset', { canyon: 'cannon' });
    expect(page.total).to.equal(7);
    expect(page.corrections).to.equal(undefined);
    expect(seen).to.have.length(1);
    expect(weighed).to.deep.equal([]);
  });

  it('when the reading finds nothing either, then the empty search is answered, with no correction', async () => {
    const { page, seen } = await searched('cannon at dawn', { cannon: 'canyon' });
    expect(page.total).to.equal(0);
    expect(page.corrections).to.equal(undefined);
    expect(seen, 'the reading was searched').to.have.length(2);
  });

  it('when the query is one word, or the word is quoted, then there is nothing to weigh it against or it is what it says: it stays as typed', async () => {
    for (const q of ['cannon', '"cannon" at sunset']) {
      const { page, seen, weighed } = await searched(q, { cannon: 'canyon' });
      expect(page.total, q).to.equal(0);
      expect(seen, q).to.have.length(1);
      expect(weighed, q).to.deep.equal([]);
    }
  });

  it('when Elasticsearch does not say whether the words occur, then the search is not read around: an error never changes it', async () => {
    const { page, weighed } = await searched('cannon at sunset', { cannon: 'canyon' }, () => Promise.reject(new Error('timeout')));
    expect(page.total).to.equal(0);
    expect(weighed).to.deep.equal([]);
  });

  it('when the word meant is not one the catalogue names its things by, only one its descriptions hold, then it stays as typed', async () => {
    const { page, seen } = await searched('lamb in the meadow', { lamb: 'lamp' });
    expect(page.total).to.equal(0);
    expect(page.corrections).to.equal(undefined);
    expect(seen, 'no reading searched').to.have.length(1);
  });

  it('when no word the catalogue lacks is a word of the language, then nothing is weighed', async () => {
    const { page, weighed } = await searched('xq7zz sunset', {});
    expect(page.total).to.equal(0);
    expect(weighed).to.deep.equal([]);
  });
});
