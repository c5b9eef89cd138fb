import { expect } from 'chai';
import { normalizeEmail } from '../../../../src/portal/domain/portal-service.js';

describe('portal emails', () => {
  it('when an email has spaces and capitals, then it is trimmed and lower-cased', () => {
    expect(normalizeEmail('  Dev@Example.COM ')).to.equal('dev@example.com');
  });

  for (const bad of ['no-at-sign', 'a@b', '<x>@example.com', 'a b@example.com', `${'x'.repeat(65)}@example.com`, 'a@-example.com']) {
    it(`when the email is ${JSON.stringify(bad)}, then it is refused`, () => {
      expect(normalizeEmail(bad)).to.equal(null);
    });
  }
});
