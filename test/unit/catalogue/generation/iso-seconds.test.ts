import { expect } from 'chai';
import { formatIsoSeconds } from '../../../../src/catalogue/generation/iso-seconds.js';

describe('formatIsoSeconds', () => {
  it('when given any second from 1970 to 2100, then it matches Date#toISOString without milliseconds', () => {
    const edges = [0, 951_782_400, 951_868_799, 1_709_164_800, Date.UTC(2026, 5, 30, 23, 59, 59) / 1000, 4_102_444_799];
    for (let s = 0; s < 4_102_444_800; s += 7_777_777) edges.push(s);
    for (const second of edges) {
      expect(formatIsoSeconds(second)).to.equal(new Date(second * 1000).toISOString().slice(0, 19) + 'Z');
    }
  });
});
