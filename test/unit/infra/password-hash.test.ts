import { expect } from 'chai';
import { hashPassword, verifyPassword } from '../../../src/infra/password-hash.js';

describe('password hashes', function () {
  this.timeout(20_000);

  it('when a password is hashed, then the hash carries scrypt parameters and a salt, and only that password verifies', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).to.match(/^scrypt-nfkc\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
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

  it('when a password is typed with decomposed accents or full-width letters, then it is the same password (NFKC)', async () => {
    const hash = await hashPassword('café au lait ＡＢＣ');
    expect(await verifyPassword('cafe\u0301 au lait ABC', hash)).to.equal(true);
  });

  it('when a long password is checked, then all of it counts: a different character past 128 does not verify', async () => {
    const long = `${'x'.repeat(200)}tail`;
    const hash = await hashPassword(long);
    expect(await verifyPassword(long, hash)).to.equal(true);
    expect(await verifyPassword(`${'x'.repeat(200)}TAIL`, hash)).to.equal(false);
  });

  it('when a hash was made before NFKC (scrypt$, NFC), then it still verifies its password', async () => {
    const nfkc = await hashPassword('plain ascii password');
    const legacy = nfkc.replace(/^scrypt-nfkc\$/, 'scrypt$');
    expect(await verifyPassword('plain ascii password', legacy)).to.equal(true);
  });
});
