import { expect } from 'chai';
import { quotaFixture } from '../../../support/fixtures.js';
import { quotaHeaders, retryMessage, tooManyRequests } from '../../../../src/access/edge/rate-limit-headers.js';

const quota = quotaFixture;

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

  it('when the wait is described, then seconds are used below two minutes and minutes above', () => {
    expect(retryMessage(1)).to.equal('1 second');
    expect(retryMessage(59)).to.equal('59 seconds');
    expect(retryMessage(119)).to.equal('119 seconds');
    expect(retryMessage(120)).to.equal('2 minutes');
    expect(retryMessage(3541)).to.equal('60 minutes');
  });

  it('when a 429 is built, then Retry-After is the wait and the other headers come with it', () => {
    const err = tooManyRequests(42, { 'X-RateLimit-Remaining': '0' });
    expect(err.status).to.equal(429);
    expect(err.headers).to.deep.equal({ 'X-RateLimit-Remaining': '0', 'Retry-After': '42' });
    expect(err.message).to.equal('Rate limit exceeded. Please try again in 42 seconds');
  });
});
