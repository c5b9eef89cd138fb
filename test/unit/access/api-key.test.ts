import { expect } from 'chai';
import { KEY_PREFIX, generateApiKey, hashApiKey, newAccountId, parseApiKey } from '../../../src/access/api-key.js';

describe('API key format', () => {
  it('when a key is generated, then it has the prefix, the account id and parses back', () => {
    const account = newAccountId();
    const key = generateApiKey(account);
    expect(key.startsWith(`${KEY_PREFIX}${account}_`)).to.equal(true);
    expect(key).to.have.length(63);
    expect(parseApiKey(key)).to.deep.equal({ accountId: account, hash: hashApiKey(key) });
  });

  it('when many keys are generated, then they are distinct and use the full alphabet', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey('AAAAAAAAAAAA')));
    expect(keys.size).to.equal(2000);
    const chars = new Set([...keys].join('').slice(0, 100_000));
    expect(chars.size).to.be.greaterThan(60);
  });

  it('when any character of a key changes, then the checksum rejects it', () => {
    const key = generateApiKey(newAccountId());
    for (let i = KEY_PREFIX.length; i < key.length; i++) {
      const swapped = key.slice(0, i) + (key[i] === '0' ? '1' : '0') + key.slice(i + 1);
      if (key[i] === '_') continue;
      expect(parseApiKey(swapped), `position ${i}`).to.equal(null);
    }
  });

  it('when the input is not key-shaped, then it is rejected', () => {
    for (const bad of ['', 'wpc_', 'sk_live_123', `wpc_${'A'.repeat(12)}_${'a'.repeat(45)}`, 'x'.repeat(5000)]) {
      expect(parseApiKey(bad)).to.equal(null);
    }
  });

  it('when hashing, then the SHA-256 hex digest is stored instead of the key', () => {
    expect(hashApiKey('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
