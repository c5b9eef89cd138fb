import { expect } from 'chai';
import { bearerToken } from '../../../../src/access/edge/access-guard.js';

describe('Authorization header parsing', () => {
  it('when the Bearer scheme carries a token, then the token is returned', () => {
    expect(bearerToken('Bearer abc')).to.equal('abc');
    expect(bearerToken('bearer   abc  ')).to.equal('abc');
    expect(bearerToken('Bearer\tabc')).to.equal('abc');
    // Only spaces and tabs separate: a no-break space is part of the token, which no key has.
    expect(bearerToken('Bearer abc\u00a0')).to.equal('abc\u00a0');
    expect(bearerToken('\tBEARER \t abc def \t')).to.equal('abc def');
    // A header of 16 KB (the most a request carries) is read in one pass, whatever its blanks.
    expect(bearerToken(`Bearer a${' '.repeat(16_000)}b`)).to.equal(`a${' '.repeat(16_000)}b`);
    expect(bearerToken(`Bearer${' '.repeat(16_000)}`)).to.equal(null);
  });

  it('when the header is absent, empty, bare or another scheme, then there is no token', () => {
    for (const h of [undefined, '', 'Bearer', 'Bearer   ', 'Basic abc', 'Bearerabc', 'Token abc', 'Bearer\u00a0abc', '\u00a0Bearer abc']) {
      expect(bearerToken(h), String(h)).to.equal(null);
    }
  });
});
