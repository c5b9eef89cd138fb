import { expect } from 'chai';
import { BackendUnavailable } from '../../../../src/errors.js';
import { admissionKit } from '../../../support/admission-kit.js';
import { locateKey } from '../../../../src/access/store/authenticate-lua.js';

const redisDown = () => new Error('connect ECONNREFUSED 127.0.0.1:6379');

async function refusal(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

/** A kit whose keys Redis verified, then Redis and every copy of it down. */
async function verifiedThenDown(keys: number) {
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
  };
}

const hashOf = (key: string) => locateKey(key)!.hash;

describe('admission of withdrawn keys while Redis does not answer', () => {
  it('when a verified key is withdrawn, then the fallback does not admit it on its own word, and the key beside it still is', async () => {
    const { admit, keys, down } = await verifiedThenDown(2);
    admit.withdraw({ kind: 'key', hash: hashOf(keys[0]!), fromMs: 0 });
    down();
    expect(await refusal(admit(keys[0]!))).to.be.instanceOf(BackendUnavailable);
    expect(await admit(keys[1]!)).to.include({ outcome: 'allowed', source: 'fallback' });
  });

  it('when an account is withdrawn (disabled), then none of its keys is admitted by the fallback, and other accounts keys are', async () => {
    const { admit, store, keys, down } = await verifiedThenDown(1);
    const beside = store.addKeyBeside(keys[0]!);
    expect(await admit(beside)).to.include({ outcome: 'allowed', source: 'redis' });
    const other = store.addKey({ tier: 'free', limit: 10 });
    expect(await admit(other)).to.include({ outcome: 'allowed', source: 'redis' });
    admit.withdraw({ kind: 'account', accountId: locateKey(keys[0]!)!.accountId, fromMs: 0 });
    down();
    for (const key of [keys[0]!, beside]) expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
    expect(await admit(other)).to.include({ outcome: 'allowed', source: 'fallback' });
  });

  it('when a key is rotated out with a grace, then the fallback admits it until the grace ends and not after', async () => {
    const { admit, keys, down } = await verifiedThenDown(1);
    const endsMs = Date.now() + 60_000;
    admit.withdraw({ kind: 'key', hash: hashOf(keys[0]!), fromMs: endsMs });
    down();
    admit.retireDue(endsMs - 1);
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'fallback' });
    admit.retireDue(endsMs);
    expect(await refusal(admit(keys[0]!))).to.be.instanceOf(BackendUnavailable);
  });

  it('when a withdrawn key is verified by Redis again (an account enabled again), then the fallback trusts that verification', async () => {
    const { admit, store, keys } = await verifiedThenDown(1);
    admit.withdraw({ kind: 'account', accountId: locateKey(keys[0]!)!.accountId, fromMs: 0 });
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'redis' });
    store.down = redisDown();
    store.copiesDown = redisDown();
    expect(await admit(keys[0]!)).to.include({ outcome: 'allowed', source: 'fallback' });
  });
});
