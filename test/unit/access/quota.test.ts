import { expect } from 'chai';
import { secondsUntilReset } from '../../../src/access/quota.js';
import { quotaFixture } from '../../support/fixtures.js';

const quota = quotaFixture;

describe('quota', () => {
  it('when the reset is in less than a second or already passed, then the delay is 1 second, never 0', () => {
    expect(secondsUntilReset(quota({ resetMs: 1_700_000_000_300 }))).to.equal(1);
    expect(secondsUntilReset(quota({ resetMs: 1_699_999_999_000 }))).to.equal(1);
  });

  it('when the delay is rounded, then it rounds up so a client never retries too early', () => {
    expect(secondsUntilReset(quota({ resetMs: 1_700_000_010_251 }))).to.equal(11);
  });
});
