import { expect } from 'chai';
import { isShared, share } from '../../../../src/infra/shared-result.js';
import { withSuggestion } from '../../../../src/wallpapers/domain/with-suggestion.js';
import { MISSPELT_MARGIN } from '../../../../src/wallpapers/domain/real-word-typos.js';
import { createWordOccurrences, type WordsOccur } from '../../../../src/wallpapers/domain/word-occurrences.js';
import type { Mistyped, SearchParams } from '../../../../src/wallpapers/params.js';
import type { SearchQuery } from '../../../../src/wallpapers/search-query.js';
import type { WallpaperRepository } from '../../../../src/wallpapers/store/repository.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';

// The catalogue names its things by these words; `soft` and `lamp` occur in its descriptions only.
const OWN = ['canyon', 'canyons', 'sunset', 'fjord', 'iceland', 'soft', 'mood'];
const DESCRIBED = ['lamp', 'meadow', 'room'];
const THINGS = ['canyon', 'canyons', 'fjord', 'lamp', 'room'];

/**
 * A catalogue that holds OWN and DESCRIBED: a search finds seven wallpapers when each group has a
 * term whose words all occur. With `partial`, a search of some groups that occur finds three (it left
 * the others out); without, it finds none (the word left names a thing the catalogue lacks). A
 * reading counted `whole` finds only the seven.
 */
function catalogue({ failing = false, partial = false, top = 'Golden Dunes', stalledMs = 0 } = {}) {
  const asked: SearchParams[] = [];
  const repository = {
    search: (params: SearchParams) => {
      asked.push(params);
      if (failing && asked.length > 1) return Promise.reject(new Error('Elasticsearch is late'));
      if (stalledMs > 0 && asked.length > 1)
        return new Promise((_, reject) => setTimeout(() => reject(new Error('Elasticsearch timed out')), stalledMs));
      const words = [...OWN, ...DESCRIBED];
      const held = params.text.groups.map((group) => group.some(({ text }) => text.split(' ').every((word) => words.includes(word))));
      const total = held.every(Boolean) ? 7 : partial && !params.whole && held.some(Boolean) ? 3 : 0;
      return Promise.resolve(share({ items: total > 0 ? [{ id: 1, title: top }] : [], total }));
    },
  } as unknown as WallpaperRepository;
  return { repository, asked };
}

/**
 * The language: every plain word is one; `meant` says which word each typed one stands for at a
 * suggestion's margin, `readBySearch` at the search's own (no margin given); the margins asked are kept.
 */
function sense(meant: Record<string, string>, readBySearch: Record<string, string> = {}, understood: readonly string[] = []) {
  const margins: (number | undefined)[] = [];
  return {
    margins,
    // A group holding an understood word gains a catalogue word for it.
    expand: (text: SearchQuery) => {
      const gains = text.groups.some((group) => group.some(({ text: said }) => understood.includes(said)));
      const query = gains
        ? {
            ...text,
            groups: text.groups.map((g) => (g.some(({ text: said }) => understood.includes(said)) ? [...g, { text: 'gained', phrase: false }] : g)),
          }
        : null;
      return Promise.resolve({ query, nothing: false, subject: null });
    },
    knows: (word: string) => /^[a-z]+$/.test(word),
    ownWord: (word: string) => OWN.includes(word) || word === 'room',
    namesThing: (word: string) => Promise.resolve(THINGS.includes(word)),
    misspelt: (_text: SearchQuery, words: readonly string[], margin?: number): Promise<Mistyped[]> => {
      margins.push(margin);
      const said = margin === undefined ? readBySearch : meant;
      return Promise.resolve(words.filter((word) => word in said).map((typed) => ({ typed, meant: said[typed]! })));
    },
  };
}

interface SearchedOptions {
  wordsOccur?: WordsOccur;
  failing?: boolean;
  /** Counting the reading fails after this long. */
  stalledMs?: number;
  budgetMs?: number;
  partial?: boolean;
  /** The title of the first wallpaper a search that finds something answers with. */
  top?: string;
  page?: number;
  readBySearch?: Record<string, string>;
  understood?: string[];
}

async function searched(q: string, meant: Record<string, string>, options: SearchedOptions = {}) {
  const { repository, asked } = catalogue(options);
  const language = sense(meant, options.readBySearch, options.understood);
  const wordsOccur = options.wordsOccur ?? occurringIn([...OWN, ...DESCRIBED]);
  const page = await withSuggestion(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }), language, options.budgetMs).search(
    searchParams({ q, page: options.page ?? 1, per_page: 20, facets: ['category'] }),
  );
  return { page, asked, margins: language.margins };
}

describe('a search of a word the catalogue lacks suggests what was likely meant', () => {
  it('when a search finds nothing and a word the catalogue lacks stands for a thing it holds, then the answer stays empty and suggests that word, with what it finds', async () => {
    const { page, asked } = await searched('cannon at sunset', { cannon: 'canyon' });
    expect(page.total).to.equal(0);
    expect(page.items).to.deep.equal([]);
    expect(page.suggestion).to.deep.equal({ corrections: [{ typed: 'cannon', meant: 'canyon' }], total: 7 });
    expect(isShared(page), 'shared as every page is').to.equal(true);
    const [, reading] = asked;
    expect(reading!.text.groups.map((group) => group.map(({ text }) => text))).to.deep.equal([['canyon'], ['sunset']]);
    expect(reading, 'counted alone: what matches every group, one wallpaper asked, no facets').to.deep.include({ whole: true, page: 1, per_page: 1 });
    expect(reading!.facets).to.equal(undefined);
  });

  it('when a search finds only wallpapers that leave a word out, and that word stands for a thing the catalogue holds, then the answer stands as it came and suggests that word', async () => {
    const { page, asked } = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true });
    expect(page.total, 'the partial matches, as the search found them').to.equal(3);
    expect(page.suggestion).to.deep.equal({ corrections: [{ typed: 'cannon', meant: 'canyon' }], total: 7 });
    expect(asked[1], 'the reading counted whole').to.deep.include({ whole: true, page: 1, per_page: 1 });
  });

  it('when the search itself already read the word as another and found something, then that reading is what it serves and is not suggested again', async () => {
    const { page, asked } = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, readBySearch: { cannon: 'canyon' } });
    expect(page.suggestion).to.equal(undefined);
    expect(asked, 'nothing counted').to.have.length(1);
  });

  it('when the search read the word as another and still found nothing (it names a thing the catalogue lacks), then the reading is suggested', async () => {
    const { page } = await searched('cannon at sunset', { cannon: 'canyon' }, { readBySearch: { cannon: 'canyon' } });
    expect(page.suggestion).to.deep.equal({ corrections: [{ typed: 'cannon', meant: 'canyon' }], total: 7 });
  });

  it('when the page that found something already shows the reading first, then saying it again says nothing: no suggestion, nothing counted', async () => {
    for (const top of ['Canyon at Sunset', 'Red Canyons']) {
      const { page, asked } = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, top });
      expect(page.suggestion, top).to.equal(undefined);
      expect(asked, `${top}: nothing counted`).to.have.length(1);
    }
    const plural = await searched('cannon at sunset', { cannon: 'canyons' }, { partial: true, top: 'Canyon at Sunset' });
    expect(plural.page.suggestion, 'the word meant in the plural, the title in the singular').to.equal(undefined);
    const other = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, top: 'Cannonball Sunset' });
    expect(other.page.suggestion, 'a longer word is not the word').to.deep.include({ total: 7 });
  });

  it('when the search found catalogue words for the word left out ("roof": rooftops), then its page answers it and no other reading is suggested', async () => {
    const { page } = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, understood: ['cannon'] });
    expect(page.suggestion).to.equal(undefined);
    const understoodElsewhere = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, understood: ['sunset'] });
    expect(understoodElsewhere.page.suggestion, 'another group`s meaning says nothing of this word').to.deep.include({ total: 7 });
  });

  it('when the word meant is one the query already says, or another correction says, then it is no reading of its own', async () => {
    const either = await searched('cannon OR canyon at sunset', { cannon: 'canyon' }, { partial: true });
    expect(either.page.suggestion, 'cannon OR canyon').to.equal(undefined);
    const twice = await searched('cannon cannot sunset', { cannon: 'canyon', cannot: 'canyon' });
    const [, reading] = twice.asked;
    expect(
      reading!.text.groups.map((group) => group.map(({ text }) => text)),
      'one correction to canyon counted, not canyon twice',
    ).to.deep.equal([['canyon'], ['cannot'], ['sunset']]);
  });

  it('when the query has more than four groups, then nothing is weighed: titles hold a few words', async () => {
    const { page, margins } = await searched('cannon at sunset fjord iceland mood', { cannon: 'canyon' });
    expect(page.suggestion).to.equal(undefined);
    expect(margins).to.deep.equal([]);
    const four = await searched('cannon at sunset fjord iceland', { cannon: 'canyon' });
    expect(four.margins, 'four groups are weighed').to.have.length(1);
  });

  it('when the words meant are weighed, then any better fit will do, less than the search`s own reading asks', async () => {
    const { margins } = await searched('cannon at sunset', { cannon: 'canyon' });
    expect(margins).to.have.length(1);
    expect(margins[0]).to.be.greaterThan(0).and.lessThan(MISSPELT_MARGIN);
    const partial = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true });
    expect(partial.margins.slice(1), 'on a page that found something, then the search`s own weighing, to leave out what it read').to.deep.equal([
      undefined,
    ]);
  });

  it('when every word occurs, or the page is not the first, then it is answered as it came and nothing is weighed', async () => {
    for (const [q, page] of [
      ['canyon at sunset', 1],
      ['cannon at sunset', 2],
    ] as const) {
      const { page: answer, asked, margins } = await searched(q, { cannon: 'canyon', canyon: 'cannon' }, { page });
      expect(answer.suggestion, q).to.equal(undefined);
      expect(asked, q).to.have.length(1);
      expect(margins, q).to.deep.equal([]);
    }
  });

  it('when the reading finds nothing either, then there is no suggestion', async () => {
    const { page, asked } = await searched('cannon at dawn', { cannon: 'canyon' });
    expect(page.suggestion).to.equal(undefined);
    expect(asked, 'the reading was counted').to.have.length(2);
  });

  it('when the query is one word, or the word is quoted, then there is nothing to weigh it against or it is what it says: no suggestion', async () => {
    for (const q of ['cannon', '"cannon" at sunset']) {
      const { page, asked, margins } = await searched(q, { cannon: 'canyon' });
      expect(page.suggestion, q).to.equal(undefined);
      expect(asked, q).to.have.length(1);
      expect(margins, q).to.deep.equal([]);
    }
  });

  it('when Elasticsearch does not say whether one of the words occurs, then nothing is weighed: an error never changes a search', async () => {
    const unsure: WordsOccur = (words) => Promise.resolve(words.map((word) => (word === 'sunset' ? null : false)));
    const { page, margins } = await searched('cannon at sunset', { cannon: 'canyon' }, { wordsOccur: unsure });
    expect(page.suggestion).to.equal(undefined);
    expect(margins).to.deep.equal([]);
  });

  it('when counting the reading fails, then the empty answer stands, with no suggestion and no error', async () => {
    const { page } = await searched('cannon at sunset', { cannon: 'canyon' }, { failing: true });
    expect(page.total).to.equal(0);
    expect(page.suggestion).to.equal(undefined);
  });

  it('when counting the reading takes longer than the budget, then the page comes at the budget without a suggestion, and the count failing later is heard by no one', async () => {
    const unheard: unknown[] = [];
    const hear = (reason: unknown) => unheard.push(reason);
    process.on('unhandledRejection', hear);
    try {
      const started = performance.now();
      const { page, asked } = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, stalledMs: 300, budgetMs: 40 });
      const took = performance.now() - started;
      expect(asked, 'the count was asked').to.have.length(2);
      expect(page.total, 'the page as found').to.equal(3);
      expect(page.suggestion).to.equal(undefined);
      expect(took, 'not held up until the count fails').to.be.within(35, 250);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(unheard).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', hear);
    }
    const inTime = await searched('cannon at sunset', { cannon: 'canyon' }, { partial: true, stalledMs: 0, budgetMs: 40 });
    expect(inTime.page.suggestion, 'a count within the budget').to.deep.include({ total: 7 });
    expect(inTime.asked[1]!.budgetMs, 'the count is read within what is left of the budget').to.be.within(1, 40);
    expect(inTime.asked[0]!.budgetMs, 'the page itself has the whole timeout').to.equal(undefined);
  });

  it('when the word meant is only in descriptions, names no thing, or is not written as a suggestion can say, then it is not suggested', async () => {
    for (const [q, meant] of [
      ['lamb in the meadow', { lamb: 'lamp' }],
      ['sofa at sunset', { sofa: 'soft' }],
      ['moor at sunset', { moor: 'mood' }],
      ['cannon at sunset', { cannon: 'Canyon' }],
    ] as const) {
      const { page, asked } = await searched(q, meant);
      expect(page.suggestion, q).to.equal(undefined);
      expect(asked, `${q}: nothing counted`).to.have.length(1);
    }
  });

  it('when no word the catalogue lacks is a word of the language, then nothing is weighed', async () => {
    const { page, margins } = await searched('xq7zz sunset', {});
    expect(page.suggestion).to.equal(undefined);
    expect(margins).to.deep.equal([]);
  });
});
