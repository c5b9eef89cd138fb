import { expect } from 'chai';
import { BackendUnavailable } from '../../../../src/errors.js';
import { GRACE_MS, admissionKit, admitTimes, outcomes, redisDown, refusal } from '../../../support/admission-kit.js';
import { until } from '../../../support/until.js';
import { generateApiKey } from '../../../../src/access/api-key.js';
import { locateKey } from '../../../../src/access/store/authenticate-lua.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('admission while Redis does not answer', () => {
  it('when a key was never verified and no replica answers either, then it fails closed with Redis unavailable', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    store.down = redisDown();
    store.copiesDown = redisDown();
    const err = await refusal(admit(key));
    expect(err).to.be.instanceOf(BackendUnavailable);
    expect((err as BackendUnavailable).backend).to.equal('redis');
  });

  it('when a key this process never saw meets a failover, then a replica verifies it and the fallback admits it, owed', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 10 });
    store.down = redisDown();
    expect(await admit(key)).to.include({ outcome: 'allowed', source: 'fallback' });
    store.down = null;
    await admit(key);
    // The one admitted during the failover is replayed: 2 charged.
    await until(async () => store.admitted.length === 2);
  });

  it('when the replica does not know a key either (revoked, or made up), then it fails closed, not 403', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    store.revoke(key);
    store.down = redisDown();
    expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
  });

  it('when a key no copy knows is asked again during the outage, then it is refused without asking the copies again', async () => {
    const { admit, store } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    store.revoke(key);
    store.down = redisDown();
    let asked = 0;
    const verify = store.verifyOnAnyCopy.bind(store);
    store.verifyOnAnyCopy = async (at) => {
      asked += 1;
      return verify(at);
    };
    for (let i = 0; i < 3; i++) expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
    expect(asked).to.equal(1);
  });

  it('when many requests of one unknown key meet a failover at once, then the replica is asked once for them all', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 50 });
    store.down = redisDown();
    let asked = 0;
    const verify = store.verifyOnAnyCopy.bind(store);
    store.verifyOnAnyCopy = async (at) => {
      asked += 1;
      await sleep(20);
      return verify(at);
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => admit(key)));
    expect(outcomes(answers).every((o) => o === 'allowed')).to.equal(true);
    expect(asked).to.equal(1);
  });

  it('when made-up keys flood in during a failover, then at most 32 replica verifications run at once', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    store.down = redisDown();
    let inFlight = 0;
    let most = 0;
    store.verifyOnAnyCopy = async () => {
      most = Math.max(most, ++inFlight);
      await sleep(20);
      inFlight -= 1;
      return [0];
    };
    const keys = Array.from({ length: 100 }, () => {
      const key = store.addKey({ tier: 'free', limit: 1 });
      store.revoke(key);
      return key;
    });
    const refused = await Promise.all(keys.map((key) => refusal(admit(key))));
    expect(refused.every((err) => err instanceof BackendUnavailable)).to.equal(true);
    expect(most).to.equal(32);
  });

  it('when a key was verified just before Redis stopped, then it is admitted by the fallback and counted in the metrics', async () => {
    const { admit, store, counter, logs } = admissionKit();
    const key = store.addKey({ tier: 'premium', limit: 5 });
    await admit(key);
    store.down = redisDown();
    const admission = await admit(key);
    expect(admission).to.include({ outcome: 'allowed', source: 'fallback' });
    expect(await counter('wallpapers_rate_limit_fallback_total')).to.equal(1);
    expect(await counter('wallpapers_redis_failures_total')).to.equal(1);
    expect(logs.text()).to.contain('admission falls back to the in-process limiter');
  });

  it('when a key was last verified longer than the grace before Redis last answered, then it fails closed', async () => {
    const { admit, store, breaker } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    await admit(key);
    // Redis went on answering other keys for longer than the grace after this one was last seen
    // (e.g. it was revoked then), so this key's verification is too old to trust.
    breaker.lastSuccessAt = Date.now() + GRACE_MS + 1;
    store.down = redisDown();
    store.copiesDown = redisDown();
    expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
  });

  it('when a key past the grace was revoked since, then the replica`s verification refuses it', async () => {
    const { admit, store, breaker } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    await admit(key);
    breaker.lastSuccessAt = Date.now() + GRACE_MS + 1;
    store.revoke(key);
    store.down = redisDown();
    expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
  });

  it('when the grace is counted, then it runs back from Redis`s last answer, so a long outage does not shrink it', async () => {
    const { admit, store, breaker } = admissionKit();
    const key = store.addKey({ tier: 'free', limit: 3 });
    await admit(key);
    breaker.lastSuccessAt = Date.now() + GRACE_MS - 1_000;
    store.down = redisDown();
    expect((await admit(key)).outcome).to.equal('allowed');
  });

  it('when the account had quota left, then the fallback spends only what Redis last said remained', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 3 });
    await admit(key);
    store.down = redisDown();
    const answers = await admitTimes(admit, key, 4);
    expect(outcomes(answers)).to.deep.equal(['allowed', 'allowed', 'limited', 'limited']);
    expect(answers.map((a) => (a.outcome === 'invalid' ? -1 : a.quota.remaining))).to.deep.equal([1, 0, 0, 0]);
  });

  it('when the account was at its limit as Redis stopped, then the outage hands it no fresh quota', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 1 });
    await admitTimes(admit, key, 2);
    store.down = redisDown();
    expect((await admit(key)).outcome).to.equal('limited');
  });

  it('when the last reported window has reset, then the in-process limiter takes over at the tier`s limit', async () => {
    const { admit, store } = admissionKit({ free: 3 });
    const key = store.addKey({ tier: 'free', limit: 3, resetInMs: -1 });
    await admit(key);
    store.down = redisDown();
    expect(outcomes(await admitTimes(admit, key, 4))).to.deep.equal(['allowed', 'allowed', 'allowed', 'limited']);
  });

  it('when the breaker is open, then Redis is not asked, the fallback admits and no new Redis failure is counted', async () => {
    const { admit, store, breaker, counter } = admissionKit();
    const key = store.addKey({ tier: 'premium', limit: 5 });
    await admit(key);
    breaker.open = true;
    const before = store.admitted.length;
    expect((await admit(key)).outcome).to.equal('allowed');
    expect(store.admitted).to.have.length(before);
    expect(await counter('wallpapers_redis_failures_total')).to.equal(0);
  });

  it('when Redis answers again, then what the fallback admitted is charged to the account and the log says so', async () => {
    const { admit, store, logs } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 10 });
    await admit(key);
    store.down = redisDown();
    await admitTimes(admit, key, 3);
    store.down = null;
    await admit(key);
    // 1 before the outage, 1 after it, and the 3 replayed in the background.
    await until(async () => store.admitted.length === 5);
    expect(store.admitted).to.have.length(5);
    expect(logs.text()).to.contain('redis answering again');
  });

  it('when a key owes admissions from an outage, then they reach Redis before its next admission is decided there', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 4 });
    await admit(key);
    store.down = redisDown();
    expect(outcomes(await admitTimes(admit, key, 3))).to.deep.equal(['allowed', 'allowed', 'allowed']);
    store.down = null;
    // 1 + 3 owed: the limit is spent, so Redis refuses the next one rather than admit it and count the debt after.
    expect((await admit(key)).outcome).to.equal('limited');
  });

  it('when a replay was charged but its answer was lost, then it is sent again under the same id and charged once', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 10 });
    await admit(key);
    store.down = redisDown();
    await admit(key);
    store.down = null;
    store.loseNextReplayAnswer = true;
    await admit(key);
    await until(async () => store.replayed.length === 2);
    expect(store.replayed[0]).to.equal(store.replayed[1]);
    // Before, after, and the outage's one, charged once although sent twice.
    expect(store.admitted).to.have.length(3);
  });

  it('when the fallback refused a request, then nothing is owed for it', async () => {
    const { admit, store } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 2 });
    await admit(key);
    store.down = redisDown();
    expect(outcomes(await admitTimes(admit, key, 3))).to.deep.equal(['allowed', 'limited', 'limited']);
    store.down = null;
    await admit(key);
    await until(async () => store.admitted.length >= 3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.admitted).to.have.length(3);
  });

  it('when an outage outlasts a spent account`s reset and Redis, told afterwards, finds the fallback`s admissions over the quota, then they are counted as over-admitted', async () => {
    const { admit, store, counter } = admissionKit({ free: 100 });
    const key = store.addKey({ tier: 'free', limit: 2, resetInMs: 30 });
    await admitTimes(admit, key, 2);
    await sleep(60);
    store.down = redisDown();
    expect(await admit(key)).to.include({ outcome: 'allowed', source: 'fallback' });
    store.down = null;
    await admit(key);
    await until(async () => (await counter('wallpapers_rate_limit_over_admitted_total')) === 1);
  });

  describe('when Redis hangs rather than refuses', () => {
    /** A stall the test ends: Redis answering again (`resume`) or the command timing out (`fail`). */
    function stall(store: { stall: Promise<void> | null; down: Error | null }) {
      let end!: () => void;
      store.stall = new Promise<void>((resolve) => (end = resolve));
      return {
        resume: () => {
          store.stall = null;
          end();
        },
        fail: () => {
          store.down = new Error('Command timed out');
          store.stall = null;
          end();
        },
      };
    }

    it('when a recently verified key gets no answer by the deadline, then the fallback admits it then, not at the command timeout', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 10 });
      await admit(key);
      const hung = stall(store);
      const started = Date.now();
      const admission = await admit(key);
      expect(admission).to.include({ outcome: 'allowed', source: 'fallback' });
      expect(Date.now() - started).to.be.within(90, 400);
      hung.resume();
    });

    it('when Redis answers after the deadline and admits, then it has charged the request and nothing more is owed', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 10 });
      await admit(key);
      const hung = stall(store);
      await admit(key);
      hung.resume();
      await until(async () => store.admitted.length === 2);
      await admit(key);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Before, during (charged by Redis's late answer) and after: no replay on top.
      expect(store.admitted).to.have.length(3);
    });

    it('when the late call fails, then the fallback`s admission is owed and charged once Redis answers again', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 10 });
      await admit(key);
      const hung = stall(store);
      await admit(key);
      hung.fail();
      await new Promise((resolve) => setImmediate(resolve));
      store.down = null;
      await admit(key);
      // Before, after, and the one replayed for the stall.
      await until(async () => store.admitted.length === 3);
      expect(store.admitted).to.have.length(3);
    });

    it('when the fallback would refuse a late key, then Redis decides, so no request is refused that Redis then charges', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 1 });
      await admit(key);
      const hung = stall(store);
      setTimeout(hung.resume, 300);
      const admission = await admit(key);
      expect(admission).to.include({ outcome: 'limited', source: 'redis' });
    });

    it('when Redis is late for an account it last reported spent, past that report`s reset, then Redis decides: no fresh quota is handed out', async () => {
      // A review's case: the spent account's first request leaves the window, Redis answers late
      // (event-loop lag under a flood), and the in-process limiter had admitted a whole new quota.
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 3, resetInMs: 30 });
      await admitTimes(admit, key, 3);
      await sleep(60);
      const hung = stall(store);
      setTimeout(hung.resume, 300);
      const answers = await Promise.all(Array.from({ length: 10 }, () => admit(key)));
      expect(answers.map((a) => ('source' in a ? `${a.outcome} ${a.source}` : a.outcome))).to.deep.equal(Array(10).fill('limited redis'));
    });

    it('when Redis is late for an account with room, then the fallback admits no more than Redis last left, less the requests Redis has not answered', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 5, resetInMs: 30 });
      await admit(key);
      // Reported 4 left; past the report's reset, which a late Redis does not expire.
      await sleep(60);
      const hung = stall(store);
      setTimeout(hung.resume, 300);
      const answers = await Promise.all(Array.from({ length: 10 }, () => admit(key)));
      const served = answers.filter((a) => a.outcome === 'allowed');
      const byFallback = served.filter((a) => 'source' in a && a.source === 'fallback');
      // The ten were asked of Redis at once: nine others unanswered leave no room for the fallback.
      expect(byFallback).to.have.length(0);
      expect(served).to.have.length(4);
      expect(store.admitted.length - 1).to.equal(10);
    });

    it('when made-up keys naming an account wait on a late Redis, then they do not hold that account`s own late admissions back', async () => {
      // An account's id is the visible prefix of its keys, and a checksum costs nothing to make.
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 3 });
      await admit(key);
      const accountId = locateKey(key)!.accountId;
      const hung = stall(store);
      const forged = Array.from({ length: 5 }, () => admit(generateApiKey(accountId)).catch(() => null));
      await sleep(20);
      expect(await admit(key)).to.include({ outcome: 'allowed', source: 'fallback' });
      hung.resume();
      await Promise.all(forged);
    });

    it('when Redis is slower than the floor for a while, then the deadline learns it from the late answers and Redis decides again', async function () {
      this.timeout(10_000);
      const { admit, store } = admissionKit({ free: 100_000 });
      const key = store.addKey({ tier: 'free', limit: 100_000 });
      const answer = store.admit.bind(store);
      let delayMs = 50;
      store.admit = async (at) => {
        await sleep(delayMs);
        return answer(at);
      };
      await admit(key);
      // 160 ms, late at the 100 ms floor: the fallback admits, and Redis's late answers are recorded.
      delayMs = 160;
      const early = await Promise.all(Array.from({ length: 10 }, () => admit(key)));
      expect(early.every((a) => a.outcome === 'allowed' && a.source === 'fallback')).to.equal(true);
      await sleep(1100);
      // 130 ms: late at the floor, in time at what the deadline has learned.
      delayMs = 130;
      const later = [];
      for (let i = 0; i < 5; i++) later.push(await admit(key));
      expect(later.map((a) => ('source' in a ? a.source : a.outcome))).to.deep.equal(['redis', 'redis', 'redis', 'redis', 'redis']);
    });

    it('when a key Redis has not verified gets no answer by the deadline, then a replica verifies it and the fallback admits it', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 10 });
      const hung = stall(store);
      const started = Date.now();
      expect(await admit(key)).to.include({ outcome: 'allowed', source: 'fallback' });
      expect(Date.now() - started).to.be.within(90, 400);
      hung.resume();
    });

    it('when the master`s late answer says the key is unknown, then the fallback stops trusting it', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 10 });
      await admit(key);
      const hung = stall(store);
      // Admitted by the fallback while the master is late; meanwhile the key is revoked.
      expect(await admit(key)).to.include({ source: 'fallback' });
      store.revoke(key);
      hung.resume();
      await sleep(20);
      store.down = redisDown();
      store.copiesDown = redisDown();
      expect(await refusal(admit(key))).to.be.instanceOf(BackendUnavailable);
    });

    it('when a key Redis has not verified gets no answer by the deadline and no replica answers, then it waits for Redis', async () => {
      const { admit, store } = admissionKit({ free: 100 });
      const key = store.addKey({ tier: 'free', limit: 10 });
      store.copiesDown = redisDown();
      const hung = stall(store);
      const admission = admit(key);
      setTimeout(hung.resume, 400);
      expect(await admission).to.include({ outcome: 'allowed', source: 'redis' });
    });
  });
});
