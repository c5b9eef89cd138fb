import { expect } from 'chai';
import { LockLostError, LockUnconfirmedError, acquireCatalogueLock } from '../../../../src/catalogue/admin/catalogue-lock.js';
import type { RedisClient } from '../../../../src/infra/redis.js';

type Answer = 'yes' | 'no' | 'silent';

/** A Redis that grants the lock, then answers each renewal as scripted (the last answer repeats). */
function scriptedRedis(answers: Answer[]) {
  const asked: Answer[] = [];
  const client = {
    set: async () => 'OK',
    eval: async () => {
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      asked.push(answer);
      if (answer === 'silent') throw new Error('Command timed out');
      return answer === 'yes' ? 1 : 0;
    },
  };
  return { redis: client as unknown as RedisClient, asked };
}

const fast = { renewEveryMs: 60_000, retryEveryMs: 5 };

describe('the catalogue lock when Redis does not answer', () => {
  it('when a renewal times out and the next is answered yes, then the confirmation succeeds and the lock is not lost', async () => {
    const { redis, asked } = scriptedRedis(['silent', 'silent', 'yes']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 1000, ...fast });
    await lock.confirm();
    expect(asked).to.deep.equal(['silent', 'silent', 'yes']);
    expect(lock.lost.aborted).to.equal(false);
    await lock.release();
  });

  it('when Redis answers no after timing out, then the confirmation fails as a lost lock', async () => {
    const { redis } = scriptedRedis(['silent', 'no']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 1000, ...fast });
    const error = await lock.confirm().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(LockLostError).and.not.instanceOf(LockUnconfirmedError);
    expect(lock.lost.reason).to.equal(error);
    await lock.release();
  });

  it('when Redis stays silent for the whole lease, then the confirmation fails naming the lock and the silence, and the run is aborted with it', async () => {
    const { redis } = scriptedRedis(['silent']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 80, ...fast });
    const started = performance.now();
    const error = await lock.confirm().catch((e: unknown) => e);
    expect(performance.now() - started).to.be.at.least(75);
    expect(error).to.be.instanceOf(LockUnconfirmedError).and.instanceOf(LockLostError);
    expect((error as Error).message).to.match(
      /^could not confirm the catalogue lock wpc:catalogue-lock:wallpapers: Redis has not answered for 0\.\d s, the lock's whole lease \(last: Command timed out\)/,
    );
    expect(lock.lost.reason).to.equal(error);
    await lock.release().catch(() => undefined);
  });

  it('when the lease is measured, then it runs from the last renewal answered yes, not from the lock being taken', async () => {
    const { redis } = scriptedRedis(['yes', 'silent']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 120, ...fast });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await lock.confirm();
    const silentFrom = performance.now();
    const error = await lock.confirm().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(LockUnconfirmedError);
    expect(performance.now() - silentFrom, 'a full lease after the yes').to.be.at.least(110);
    await lock.release().catch(() => undefined);
  });

  it('when the background renewals go unanswered for a whole lease, then the lock is lost as unconfirmed without any write asking', async () => {
    const { redis } = scriptedRedis(['silent']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 60, renewEveryMs: 10, retryEveryMs: 5 });
    const aborted = new Promise((resolve) => lock.lost.addEventListener('abort', resolve, { once: true }));
    await aborted;
    expect(lock.lost.reason).to.be.instanceOf(LockUnconfirmedError);
    await lock.release().catch(() => undefined);
  });
});
