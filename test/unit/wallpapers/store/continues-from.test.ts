import { expect } from 'chai';
import type { Position, SortOrder } from '../../../../src/wallpapers/params.js';
import { RANKING, continuesFrom } from '../../../../src/wallpapers/store/build-queries.js';

const at = (after: (string | number)[], shuffled?: boolean, ranking: number | null = RANKING): Position => ({
  index: 'wallpapers-1',
  after,
  ...(shuffled ? { shuffled } : {}),
  ...(ranking === null ? {} : { ranking }),
});

describe('which positions an order continues from', () => {
  const fits: [SortOrder, Position][] = [
    ['newest', at([1_704_067_200_000, 42])],
    ['oldest', at([1_704_067_200_000, 42])],
    ['downloads', at([0, 42])],
    ['downloads', at([0, 42], false, null)],
    ['relevance', at([3.25, 1200, 42])],
    ['random', at([0.625, 42])],
    ['random', at([-5_000, 42], true)],
  ];
  for (const [sort, position] of fits) {
    it(`when sort=${sort} meets the values of its own hits ${JSON.stringify(position.after)}, then it continues`, () => {
      expect(continuesFrom(sort, position)).to.equal(true);
    });
  }

  const misfits: [SortOrder, Position, string][] = [
    ['newest', at([1_704_067_200_000, 42, 7]), 'a value more'],
    ['relevance', at([3.25, 42]), 'a value fewer'],
    ['downloads', at(['many', 42]), 'a word'],
    ['oldest', at([1_704_067_200_000, 4.5]), 'a fraction for the id'],
    ['downloads', at([1e300, 42]), 'a count past whole numbers'],
    ['relevance', at([Number.NaN, 1200, 42]), 'a score that is no number'],
    ['relevance', at([3.25, 1200, 42], false, RANKING - 1), 'a score of another scoring (a build before)'],
    ['relevance', at([3.25, 1200, 42], false, null), 'a score of a build before scorings were numbered'],
    ['newest', at([5, 42], true), 'a place along a shuffle key'],
  ];
  for (const [sort, position, what] of misfits) {
    it(`when sort=${sort} meets ${what}, then it does not continue`, () => {
      expect(continuesFrom(sort, position)).to.equal(false);
    });
  }
});
