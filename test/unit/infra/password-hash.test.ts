import { expect } from 'chai';
import { hashPassword, verifyPassword } from '../../../src/infra/password-hash.js';

describe('password hashes', function () {
  this.timeout(20_000);

  it('when a password is hashed, then the hash carries scrypt parameters and a salt, and only that password verifies', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).to.match(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery', hash)).to.equal(true);
    expect(await verifyPassword('correct horse batterY', hash)).to.equal(false);
  });

  it('when the same password is hashed twice, then the salts differ', async () => {
    expect(await hashPassword('same')).not.to.equal(await hashPassword('same'));
  });

  it('when the stored hash is malformed, then nothing verifies against it', async () => {
    expect(await verifyPassword('', '')).to.equal(false);
    expect(await verifyPassword('x', 'scrypt$1$1$1$short$short')).to.equal(false);
  });
});
