import { expect } from 'chai';
import { createWithdrawnKeys } from '../../../../src/access/domain/withdrawn-keys.js';

const revoked = (hash: string) => ({ kind: 'key' as const, hash, fromMs: 0, writtenMs: 0 });

describe('what a process has heard of withdrawn keys', () => {
  it('when more withdrawals are heard than are kept, then verifications made before the first was forgotten are not relied on, and later ones are', () => {
    const withdrawn = createWithdrawnKeys();
    withdrawn.note(revoked('first'), 1_000);
    for (let i = 0; i < 10_000; i++) withdrawn.note(revoked(`other-${i}`), 2_000);
    expect(withdrawn.isWithdrawn('first', 'acct', 500, 3_000), 'the forgotten key').to.equal(true);
    expect(withdrawn.isWithdrawn('untouched', 'acct', 1_999, 3_000), 'any key verified before').to.equal(true);
    expect(withdrawn.isWithdrawn('untouched', 'acct', 2_001, 3_000), 'a key verified after').to.equal(false);
  });

  it('when an account is enabled again, then only a verification made after that was heard is relied on', () => {
    const withdrawn = createWithdrawnKeys();
    withdrawn.note({ kind: 'account', accountId: 'acct', writtenMs: 0 }, 1_000);
    expect(withdrawn.isWithdrawn('k', 'acct', 1_500, 1_600)).to.equal(true);
    withdrawn.note({ kind: 'account-restored', accountId: 'acct', writtenMs: 0 }, 2_000);
    expect(withdrawn.isWithdrawn('k', 'acct', 900, 2_100), 'verified before the disable').to.equal(true);
    expect(withdrawn.isWithdrawn('k', 'acct', 2_050, 2_100), 'verified after the enable').to.equal(false);
    expect(withdrawn.isWithdrawn('k', 'other', 900, 2_100), 'another account').to.equal(false);
  });
});
