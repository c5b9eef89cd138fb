import { expect } from 'chai';
import { BackendUnavailable } from '../../../../src/errors.js';
import { admissionKit, redisDown, refusal } from '../../../support/admission-kit.js';
import { locateKey } from '../../../../src/access/store/authenticate-lua.js';

/** A kit whose keys Redis verified; `down` then stops Redis and every copy of it. */
async function verified(keys: number) {
  const kit = admissionKit({ free: 100 });
  const made = Array.from({ length: keys }, () => kit.store.addKey({ tier: 'free', limit: 10 }));
  for (const key of made) expect(await kit.admit(key)).to.include({ outcome: 'allowed', source: 'redis' });
  return {
    ...kit,
    keys: made,
    down: () => {
      kit.store.down = redisDown();
      kit.store.copiesDown = redisDown();
    },
    up: () => {
      kit.store.down = null;
      kit.store.copiesDown = null;
    },
  };
}

const hashOf = (key: string) => locateKey(key)!.hash;
const accountOf = (key: string) => locateKey(key)!.accountId;

describe('admission of withdrawn keys while Redis does not answer', () => {
  it('when a verified key is withdrawn, then the fallback does not admit it on its own word, and the key beside it still is', async () => {
    const { admit, withdrawn, keys, down } = await verified(2);
    withdrawn.note({ kind: 'key', hash: hashOf(keys[0]!), fromMs: 0, writtenMs: Date.now() });
    down();
    expect(await refusal(admit(keys[0]!))).to.be.instanceOf(BackendUnavailable);
    expect(await admit(keys[1]!)).to.include({ outcome: 'allowed', source: 'fallback' });
  });

  it('when Redis verifies a withdrawn key again (an answer in flight when it was withdrawn), then the fallback still does not admit it', async () => {
    const { admit, withdrawn, keys, down } = await verified(1);
    withdrawn.note({ kind: 'key', hash: hashOf(keys[0]!), fromMs: 0, writtenMs: Date.now() });
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'redis' });
    down();
    expect(await refusal(admit(keys[0]!))).to.be.instanceOf(BackendUnavailable);
  });

  it('when an account is disabled, then none of its keys is admitted by the fallback, other accounts keys are, and once enabled and verified again its keys are too', async () => {
    const { admit, store, withdrawn, keys, down, up } = await verified(1);
    const beside = store.addKeyBeside(keys[0]!);
    const other = store.addKey({ tier: 'free', limit: 10 });
    for (const key of [beside, other]) expect(await admit(key)).to.include({ outcome: 'allowed', source: 'redis' });
    withdrawn.note({ kind: 'account', accountId: accountOf(keys[0]!), writtenMs: Date.now() });
    down();
    for (const key of [keys[0]!, beside]) expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
    expect(await admit(other)).to.include({ outcome: 'allowed', source: 'fallback' });
    up();
    withdrawn.note({ kind: 'account-restored', accountId: accountOf(keys[0]!), writtenMs: Date.now() });
    // Only a verification after the enable is heard is relied on.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await admit(keys[0]!)).to.include({ source: 'redis' });
    down();
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'fallback' });
  });

  it('when a key is rotated out with a grace, then the fallback admits it until the grace ends, counted from when the notice was written, and not after', async () => {
    const { admit, withdrawn, keys, down } = await verified(1);
    // Redis's clock an hour ahead of this one: the grace left (60 s) is what counts.
    const redisNow = Date.now() + 3_600_000;
    const readAt = Date.now();
    withdrawn.note({ kind: 'key', hash: hashOf(keys[0]!), fromMs: redisNow + 60_000, writtenMs: redisNow }, readAt);
    expect(withdrawn.isWithdrawn(hashOf(keys[0]!), accountOf(keys[0]!), readAt, readAt + 59_999)).to.equal(false);
    expect(withdrawn.isWithdrawn(hashOf(keys[0]!), accountOf(keys[0]!), readAt, readAt + 60_000)).to.equal(true);
    down();
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'fallback' });
  });

  it('when the log lost entries this process had not read, then no verification older than that is admitted by the fallback, and later ones are', async () => {
    const { admit, withdrawn, keys, down, up } = await verified(2);
    withdrawn.lostSome(Date.now() + 1);
    down();
    for (const key of keys) expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
    up();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await admit(keys[0]!)).to.include({ source: 'redis' });
    down();
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'fallback' });
  });
});
