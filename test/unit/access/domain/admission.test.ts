import { expect } from 'chai';
import { admissionKit, admitTimes, outcomes } from '../../../support/admission-kit.js';
import { TierNotServed } from '../../../../src/errors.js';

describe('admission while Redis answers', () => {
  it('when the key is malformed, then it is invalid and Redis is not asked', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    for (const bad of ['', 'wpc_', key.slice(0, -1), `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`]) {
      expect((await admit(bad)).outcome, bad).to.equal('invalid');
    }
    expect(store.admitted).to.have.length(0);
  });

  it('when a well-formed key is unknown or revoked, then it is invalid', async () => {
    const { admit, store } = admissionKit();
    const kept = store.addKey({ tier: 'free', limit: 3 });
    const revoked = store.addKey({ tier: 'free', limit: 3 });
    store.revoke(revoked);
    expect((await admit(revoked)).outcome).to.equal('invalid');
    expect((await admit(kept)).outcome).to.equal('allowed');
  });

  it('when a key`s account is asked for before its quota, then it is known only once Redis verified the key, and not while Redis reports it spent', async () => {
    // Only such an account has a place kept in its line before its quota is checked (accessGuard).
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 2, resetInMs: 60_000 });
    expect(admit.accountWithRoom(key), 'not verified yet').to.equal(null);
    await admit(key);
    const accountId = admit.accountWithRoom(key);
    expect(accountId).to.be.a('string');
    await admit(key);
    expect(admit.accountWithRoom(key), 'spent: its requests will not run').to.equal(null);
    store.revoke(key);
    await admit(key);
    expect(admit.accountWithRoom(key), 'revoked').to.equal(null);
  });

  it('when a key new to the process is at Redis, then its other requests can wait for that answer, which names its account; a verified key has none to wait for', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 5, resetInMs: 60_000 });
    expect(admit.firstAnswer(key), 'nothing asked yet').to.equal(null);
    let answer!: () => void;
    store.stall = new Promise<void>((resolve) => (answer = resolve));
    const first = admit(key);
    const waiting = admit.firstAnswer(key);
    expect(waiting, 'the first at Redis').to.not.equal(null);
    expect(admit.accountWithRoom(key)).to.equal(null);
    store.stall = null;
    answer();
    await waiting;
    expect(admit.accountWithRoom(key), 'known once answered').to.be.a('string');
    expect((await first).outcome).to.equal('allowed');
    expect(admit.firstAnswer(key), 'verified').to.equal(null);
    expect(store.admitted).to.have.length(1);
  });

  it('when the first admission of a key fails (Redis down, no copy knows it), then those waiting for it are let go', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    store.down = new Error('connection refused');
    store.copiesDown = new Error('connection refused');
    const first = admit(key).catch((error: unknown) => error);
    const waiting = admit.firstAnswer(key);
    expect(waiting).to.not.equal(null);
    await waiting;
    expect(await first).to.be.instanceOf(Error);
    expect(admit.firstAnswer(key)).to.equal(null);
  });

  it('when quota remains, then the request is allowed with the principal and the quota Redis reported', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'premium', limit: 5, resetInMs: 90_000 });
    const admission = await admit(key);
    if (admission.outcome === 'invalid') throw new Error('admitted as invalid');
    expect(admission).to.include({ outcome: 'allowed', source: 'redis' });
    expect(admission.principal.tier).to.equal('premium');
    expect(admission.quota).to.include({ tier: 'premium', limit: 5, remaining: 4, windowSeconds: 3600 });
    expect(admission.quota.resetMs - admission.quota.nowMs).to.equal(90_000);
  });

  it('when the account has used its limit, then further requests are limited: the first by Redis, the next given its answer again', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    const answers = await admitTimes(admit, key, 5);
    expect(outcomes(answers)).to.deep.equal(['allowed', 'allowed', 'allowed', 'limited', 'limited']);
    expect(answers.map((a) => 'source' in a && a.source)).to.deep.equal(['redis', 'redis', 'redis', 'redis', 'repeated']);
    expect(store.admitted).to.have.length(4);
  });

  it('when Redis reports a tier without a configured limit, then admission is refused as not served here and the tier is logged once, naming the variable', async () => {
    const { admit, store, logs } = admissionKit();
    const key = store.addKey({ tier: 'gold', limit: 3 });
    store.unknownTier(key);
    for (let i = 0; i < 3; i++) {
      let failure: unknown;
      await admit(key).catch((err: unknown) => (failure = err));
      expect(failure).to.be.instanceOf(TierNotServed);
      expect((failure as Error).message).to.equal("This key's tier is not served by this instance of the API; please retry shortly");
    }
    expect(logs.text().match(/account tier has no configured limit: its keys get 503 until RATE_LIMIT_TIERS names it/g)).to.have.length(1);
    expect(logs.text()).to.contain('"tier":"gold"');
  });
});
