import { expect } from 'chai';
import { PASSWORD, passwordProblem } from '../../../../src/portal/domain/password-policy.js';

const email = 'river.stone@example.com';

describe('new passwords (NIST SP 800-63B)', () => {
  for (const weak of [
    'aaaaaaaaaaaaaaaaaaaa',
    'abcabcabcabcabcabc',
    'passwordpassword',
    'password12345678',
    '1234567890123456',
    'abcdefghijklmnopq',
    'qwertyuiopasdfgh',
    'iloveyou!!!!!!!!!!',
    'riverstone2024!!!',
    'wallpapers123456',
    '123456789987654321',
  ]) {
    it(`when the password is ${JSON.stringify(weak)}, then it is refused as too easy to guess`, () => {
      expect(passwordProblem(weak, { email })).to.match(/too easy to guess/);
    });
  }

  it(`when a password is shorter than ${PASSWORD.min} or longer than ${PASSWORD.max} characters, then it is refused naming the lengths`, () => {
    expect(passwordProblem('short but okay', { email })).to.equal(`Use a password of ${PASSWORD.min} to ${PASSWORD.max} characters.`);
    expect(passwordProblem('x'.repeat(PASSWORD.max) + 'y', { email })).to.equal(`Use a password of ${PASSWORD.min} to ${PASSWORD.max} characters.`);
  });

  it('when characters are counted, then a code point counts once (an emoji is one, not two)', () => {
    expect(passwordProblem('🌊'.repeat(7) + 'tide pool', { email })).to.equal(null);
    expect([...('🌊'.repeat(5) + 'tidepool')].length).to.equal(13);
    expect(passwordProblem('🌊'.repeat(5) + 'tidepool', { email })).to.match(/characters/);
  });

  for (const fine of ['correct horse battery', 'granite kettle orbit 42', 'Мой пароль длинный и странный', 'café au lait à minuit']) {
    it(`when the password is ${JSON.stringify(fine)}, then it is accepted`, () => {
      expect(passwordProblem(fine, { email })).to.equal(null);
    });
  }
});
