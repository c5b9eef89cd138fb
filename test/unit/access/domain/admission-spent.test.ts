import { expect } from 'chai';
import { generateApiKey } from '../../../../src/access/api-key.js';
import type { Admission } from '../../../../src/access/domain/admission.js';
import { locateKey } from '../../../../src/access/store/authenticate-lua.js';
import { admissionKit, admitTimes } from '../../../support/admission-kit.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function limited(admission: Admission) {
  if (admission.outcome !== 'limited') throw new Error(`expected limited, got ${admission.outcome}`);
  return admission;
}

describe('a spent key`s refusal given again without asking Redis', () => {
  it('when Redis refused a key, then its requests in the next moments are refused with that quota, Redis not asked', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 2, resetInMs: 90_000 });
    await admitTimes(admit, key, 2);
    const first = limited(await admit(key));
    expect(first.source).to.equal('redis');
    const asked = store.admitted.length;
    await sleep(20);
    const repeats = await admitTimes(admit, key, 50);
    expect(store.admitted, 'no call reached Redis').to.have.length(asked);
    for (const repeat of repeats.map(limited)) {
      expect(repeat.source).to.equal('repeated');
      expect(repeat.principal).to.deep.equal(first.principal);
      expect(repeat.quota).to.include({ tier: 'free', limit: 2, remaining: 0, resetMs: first.quota.resetMs, windowSeconds: 3600 });
    }
    // Its clock moves on, so Retry-After counts down to the same reset.
    expect(limited(repeats.at(-1)!).quota.nowMs - first.quota.nowMs).to.be.within(15, 1000);
  });

  it('when a second has passed, then Redis is asked again, and a key revoked meanwhile is invalid', async function () {
    this.timeout(5_000);
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 1, resetInMs: 90_000 });
    await admitTimes(admit, key, 2);
    store.revoke(key);
    expect((await admit(key)).outcome, 'within the second: the refusal again').to.equal('limited');
    await sleep(1_050);
    expect((await admit(key)).outcome).to.equal('invalid');
    expect((await admit(key)).outcome, 'no refusal kept for a key Redis no longer knows').to.equal('invalid');
  });

  it('when the reset Redis reported comes first, then Redis is asked again at the reset', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 1, resetInMs: 150 });
    await admitTimes(admit, key, 2);
    const asked = store.admitted.length;
    expect(limited(await admit(key)).source).to.equal('repeated');
    await sleep(200);
    await admit(key);
    expect(store.admitted).to.have.length(asked + 1);
  });

  it('when a made-up key names the spent account, then Redis is asked and it is invalid, not refused as the account', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 1 });
    await admitTimes(admit, key, 2);
    const madeUp = generateApiKey(locateKey(key)!.accountId);
    const asked = store.admitted.length;
    expect((await admit(madeUp)).outcome).to.equal('invalid');
    expect(limited(await admit(key)).source, 'the account`s own key still gets the refusal again').to.equal('repeated');
    expect(store.admitted).to.have.length(asked);
  });

  it('when one key of a spent account keeps asking, then another key of it is asked of Redis itself, and its revocation shows within the second', async function () {
    // A refusal kept per account had kept a revoked key on 429 for as long as another key flooded (review).
    this.timeout(5_000);
    const { admit, store } = admissionKit();
    const flooding = store.addKey({ tier: 'free', limit: 1, resetInMs: 90_000 });
    const other = store.addKeyBeside(flooding);
    await admitTimes(admit, flooding, 2);
    expect(limited(await admit(other)).source, 'asked of Redis').to.equal('redis');
    store.revoke(other);
    const until = Date.now() + 1_050;
    while (Date.now() < until) {
      await admitTimes(admit, flooding, 20);
      await sleep(10);
    }
    expect((await admit(other)).outcome).to.equal('invalid');
  });

  it('when the wall clock is stepped back an hour, then the refusal still lapses a second after Redis gave it', async function () {
    this.timeout(5_000);
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 1, resetInMs: 90_000 });
    await admitTimes(admit, key, 2);
    const asked = store.admitted.length;
    const realNow = Date.now;
    Date.now = () => realNow() - 3_600_000;
    try {
      await sleep(1_050);
      await admit(key);
    } finally {
      Date.now = realNow;
    }
    expect(store.admitted).to.have.length(asked + 1);
  });

  it('when Redis answers late, then the reset is counted from when it was asked, never later than Redis meant', async function () {
    this.timeout(5_000);
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 1, resetInMs: 500 });
    await admit(key);
    // Redis takes 300 ms to say the key is spent until 500 ms after it ran the script.
    let resume!: () => void;
    store.stall = new Promise((resolve) => (resume = resolve));
    const sent = Date.now();
    setTimeout(() => {
      store.stall = null;
      resume();
    }, 300);
    expect((await admit(key)).outcome).to.equal('limited');
    await sleep(Math.max(0, sent + 550 - Date.now()));
    const asked = store.admitted.length;
    await admit(key);
    expect(store.admitted, 'asked again past the reset Redis meant').to.have.length(asked + 1);
  });
});
