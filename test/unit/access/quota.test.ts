import { expect } from 'chai';
import { type Quota, quotaHeaders, retryMessage, secondsUntilReset } from '../../../src/access/quota.js';

const quota = (over: Partial<Quota> = {}): Quota => ({
  tier: 'free',
  limit: 1000,
  remaining: 0,
  windowSeconds: 3600,
  nowMs: 1_700_000_000_250,
  resetMs: 1_700_000_042_100,
  ...over,
});

describe('rate-limit headers', () => {
  it('when a quota is rendered, then the X-RateLimit trio and the IETF draft pair agree', () => {
    expect(quotaHeaders(quota({ remaining: 7 }))).to.deep.equal({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': String(1_700_000_001 + 42),
      'RateLimit-Policy': '"free";q=1000;w=3600',
      RateLimit: '"free";r=7;t=42',
    });
  });

  it('when the reset is in less than a second or already passed, then the delay is 1 second, never 0', () => {
    expect(secondsUntilReset(quota({ resetMs: 1_700_000_000_300 }))).to.equal(1);
    expect(secondsUntilReset(quota({ resetMs: 1_699_999_999_000 }))).to.equal(1);
  });

  it('when the delay is rounded, then it rounds up so a client never retries too early', () => {
    expect(secondsUntilReset(quota({ resetMs: 1_700_000_010_251 }))).to.equal(11);
  });

  it('when the wait is described, then seconds are used below two minutes and minutes above', () => {
    expect(retryMessage(1)).to.equal('1 second');
    expect(retryMessage(59)).to.equal('59 seconds');
    expect(retryMessage(119)).to.equal('119 seconds');
    expect(retryMessage(120)).to.equal('2 minutes');
    expect(retryMessage(3541)).to.equal('60 minutes');
  });
});
