import { expect } from 'chai';
import { mixesLookAlikeScripts } from '../../../../src/portal/domain/look-alike.js';

describe('local parts that mix look-alike scripts', () => {
  for (const mixed of ['аlice', 'pаypal', 'αlpha', 'иван-ivan']) {
    it(`when a name is ${JSON.stringify(mixed)}, then it mixes scripts`, () => {
      expect(mixesLookAlikeScripts(mixed)).to.equal(true);
    });
  }
  for (const single of ['alice', 'иван', 'δοκιμή', '山田', 'josé.müller', '42']) {
    it(`when a name is ${JSON.stringify(single)}, then it does not`, () => {
      expect(mixesLookAlikeScripts(single)).to.equal(false);
    });
  }
});
