import { expect } from 'chai';
import { BackendUnavailable } from '../../../../src/errors.js';
import { admissionKit } from '../../../support/admission-kit.js';

describe('reading usage', () => {
  it('when a key reads its usage, then it gets its quota and nothing is admitted', async () => {
    const { admit, usage, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    await admit(key);
    const reading = await usage(key);
    if (reading.outcome !== 'read') throw new Error(`read as ${reading.outcome}`);
    expect(reading.quota).to.include({ limit: 3, remaining: 2 });
    expect(store.admitted).to.have.length(1);
  });

  it('when the key is malformed or unknown, then the reading is invalid', async () => {
    const { usage, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    store.revoke(key);
    expect((await usage(key)).outcome).to.equal('invalid');
    expect((await usage('wpc_nonsense')).outcome).to.equal('invalid');
  });

  it('when the key`s own reads are capped, then the reading says how long to wait, rounded up', async () => {
    const { usage, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3, resetInMs: 1_500, usageCapped: true });
    expect(await usage(key)).to.deep.include({ outcome: 'capped', retryAfterSeconds: 2 });
  });

  it('when Redis does not answer, then there is nothing true to report: Redis unavailable, even for a key seen before', async () => {
    const { admit, usage, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    await admit(key);
    store.down = new Error('Command timed out');
    let failure: unknown;
    await usage(key).catch((err: unknown) => (failure = err));
    expect(failure).to.be.instanceOf(BackendUnavailable);
  });
});
