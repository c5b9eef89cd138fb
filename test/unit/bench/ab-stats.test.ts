import { expect } from 'chai';
import { bootstrapRatioOfMedians, median, signFlipPValue } from '../../../bench/api/ab-stats.js';

describe('bench/api/ab-stats', () => {
  describe('median', () => {
    it('when the count is odd, then it is the middle value', () => {
      expect(median([9, 1, 5])).to.equal(5);
    });

    it('when the count is even, then it is the mean of the two middle values', () => {
      expect(median([4, 1, 3, 10])).to.equal(3.5);
    });

    it('when there are no values, then it refuses', () => {
      expect(() => median([])).to.throw(/no values/);
    });
  });

  describe('bootstrapRatioOfMedians', () => {
    it('when every process of A costs twice every process of B, then the interval is exactly 2', () => {
      expect(bootstrapRatioOfMedians([200, 200, 200], [100, 100, 100])).to.deep.equal([2, 2]);
    });

    it('when the samples overlap widely, then the interval contains 1 and the point ratio', () => {
      const a = [556, 645, 685, 554, 612, 653, 479, 629, 542, 592];
      const b = [606, 559, 609, 526, 591, 676, 440, 588, 598, 671];
      const [low, high] = bootstrapRatioOfMedians(a, b);
      const point = median(a) / median(b);
      expect(low).to.be.below(1);
      expect(high).to.be.above(1);
      expect(low).to.be.at.most(point);
      expect(high).to.be.at.least(point);
    });

    it('when A is clearly dearer than B, then the whole interval lies above 1', () => {
      const [low] = bootstrapRatioOfMedians([130, 128, 135, 131, 129, 133], [100, 98, 103, 101, 99, 102]);
      expect(low).to.be.above(1.2);
    });

    it('when run twice on the same figures, then it gives the same interval', () => {
      const a = [1, 2, 3, 4, 5];
      const b = [2, 3, 4, 5, 6];
      expect(bootstrapRatioOfMedians(a, b)).to.deep.equal(bootstrapRatioOfMedians(a, b));
    });
  });

  describe('signFlipPValue', () => {
    it('when every pair leans the same way, then p is the chance of that under fair signs (2 of 2^n)', () => {
      expect(signFlipPValue([0.05, 0.04, 0.06, 0.05, 0.03])).to.equal(2 / 32);
    });

    it('when the pairs lean both ways evenly, then p is 1', () => {
      expect(signFlipPValue([0.05, -0.05, 0.02, -0.02])).to.equal(1);
    });

    it('when one pair leans hard and the rest balance, then p is well above 0.05', () => {
      expect(signFlipPValue([0.1, -0.02, 0.03, -0.01, 0.02, -0.03])).to.be.above(0.05);
    });

    it('when given nothing or more than 20 pairs, then it refuses', () => {
      expect(() => signFlipPValue([])).to.throw(/no values/);
      expect(() => signFlipPValue(Array.from({ length: 21 }, () => 0.01))).to.throw(/at most 20/);
    });
  });
});
