import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import { ReplyError } from 'ioredis';
import {
  type LockOptions,
  LockLostError,
  LockUnconfirmedError,
  acquireCatalogueLock,
  isSilence,
} from '../../../../src/catalogue/admin/catalogue-lock.js';
import { Interrupted } from '../../../../src/catalogue/cli/interrupt.js';
import type { RedisClient } from '../../../../src/infra/redis.js';

type Answer = 'yes' | 'no' | 'silent' | 'late yes' | 'late silence' | 'refused' | 'loading';

const LATE_MS = 200;

/**
 * A Redis that grants the lock, then answers each renewal as scripted (the last answer repeats):
 * a late yes, or a late timeout (a real one takes the command timeout), comes LATE_MS after it was asked.
 */
function scriptedRedis(answers: Answer[], { release = 'yes' }: { release?: 'yes' | 'silent' } = {}) {
  const asked: Answer[] = [];
  const client = {
    set: async () => 'OK',
    // The release (one argument after the key: the holder) is answered at once, as told, not scripted.
    eval: async (_script: string, _keys: number, _key: string, ...args: unknown[]) => {
      if (args.length === 1) {
        if (release === 'silent') throw new Error('Command timed out');
        return 1;
      }
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      asked.push(answer);
      if (answer.startsWith('late ')) await new Promise((resolve) => setTimeout(resolve, LATE_MS));
      if (answer === 'silent' || answer === 'late silence') throw new Error('Command timed out');
      if (answer === 'refused') throw new ReplyError('NOPERM this user has no permissions to run the eval command');
      if (answer === 'loading') throw new ReplyError('LOADING Redis is loading the dataset in memory');
      return answer === 'no' ? 0 : 1;
    },
  };
  return { redis: client as unknown as RedisClient, asked };
}

const fast = { renewEveryMs: 60_000, retryEveryMs: 5 };

/** The lock on `redis`, and what it tells the operator, line by line. */
async function telling(redis: RedisClient, options: LockOptions) {
  const told: string[] = [];
  const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ...options, onSilence: (line) => told.push(line) });
  return { lock, told };
}

async function until(done: () => boolean, withinMs = 1000): Promise<void> {
  for (const started = performance.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 2))) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
  }
}

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

  it('when a yes comes late, then the lease runs from when the renewal was sent, not from when the yes came', async () => {
    const { redis } = scriptedRedis(['late yes', 'silent']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 400, ...fast });
    const sent = performance.now();
    await lock.confirm();
    const answered = performance.now();
    const error = await lock.confirm().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(LockUnconfirmedError);
    // From the answer, the lease had 400 ms more; from the sending, 400 - LATE_MS.
    expect(performance.now() - answered, 'ended a lease after the sending').to.be.below(400 - LATE_MS / 2);
    expect(performance.now() - sent).to.be.at.least(395);
    await lock.release().catch(() => undefined);
  });

  it('when Redis fails each renewal at once, then the lock asks again only after a pause, not in a loop', async () => {
    const { redis, asked } = scriptedRedis(['silent']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 500, renewEveryMs: 60_000, retryEveryMs: 50 });
    await lock.confirm().catch(() => undefined);
    expect(asked.length, 'about one ask every 50 ms of a 500 ms lease').to.be.within(2, 12);
    await lock.release().catch(() => undefined);
  });

  it('when Redis refuses the renewal (NOPERM), then the confirmation fails at once with its answer, without waiting out the lease', async () => {
    const { redis, asked } = scriptedRedis(['refused']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 60_000, ...fast });
    const error = await lock.confirm().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(LockUnconfirmedError);
    expect((error as Error).message).to.equal(
      'could not confirm the catalogue lock wpc:catalogue-lock:wallpapers: Redis refused its renewal: NOPERM this user has no permissions to run the eval command',
    );
    expect(asked).to.deep.equal(['refused']);
    expect(lock.lost.reason).to.equal(error);
    await lock.release().catch(() => undefined);
  });

  it('when Redis answers that it is loading, then that is waited out like silence', async () => {
    const { redis, asked } = scriptedRedis(['loading', 'loading', 'yes']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 1000, ...fast });
    await lock.confirm();
    expect(asked).to.deep.equal(['loading', 'loading', 'yes']);
    expect(lock.lost.aborted).to.equal(false);
    await lock.release();
  });

  it('when the run is interrupted while the lock waits for Redis, then the confirmation ends at once with the interruption, and the lock is not called lost', async () => {
    const { redis } = scriptedRedis(['silent']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 60_000, renewEveryMs: 60_000, retryEveryMs: 1000 });
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort(new Interrupted('SIGINT')), 20);
    const started = performance.now();
    const error = await lock.confirm(interrupt.signal).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Interrupted);
    expect(performance.now() - started, 'not at the next ask, a second later').to.be.below(900);
    expect(lock.lost.aborted).to.equal(false);
    await lock.release().catch(() => undefined);
  });

  it('when Redis goes silent and then answers, then the operator is told once of each, not at every ask', async () => {
    const { redis } = scriptedRedis(['silent', 'silent', 'silent', 'yes', 'yes']);
    const { lock, told } = await telling(redis, { ttlMs: 30_000, ...fast });
    await lock.confirm();
    await lock.confirm();
    expect(told).to.have.length(2);
    expect(told[0]).to.match(
      /^Redis is not answering the catalogue lock's renewal \(Command timed out\); the run writes nothing more until it does, for up to 30 s$/,
    );
    expect(told[1]).to.match(/^Redis answered the catalogue lock again after 0\.\d s of silence$/);
    await lock.release();
  });

  it('when Redis answers again, then the silence told is counted from when the first unanswered renewal was sent, its timeout included', async () => {
    const { redis } = scriptedRedis(['late silence', 'yes']);
    const { lock, told } = await telling(redis, { ttlMs: 30_000, ...fast });
    await lock.confirm();
    const seconds = Number(/after (\d+\.\d) s of silence$/.exec(told[1] ?? '')?.[1]);
    expect(seconds, told.join(' | ')).to.be.at.least((LATE_MS - 50) / 1000);
    await lock.release();
  });

  it('when the lock is released while Redis was silent, and the release is answered, then the operator hears that the silence ended', async () => {
    const { redis } = scriptedRedis(['silent', 'late yes']);
    const { lock, told } = await telling(redis, { ttlMs: 30_000, renewEveryMs: 10, retryEveryMs: 5 });
    await until(() => told.length === 1);
    await lock.release();
    expect(told[1]).to.match(/^Redis answered the catalogue lock again after 0\.\d s of silence$/);
    await new Promise((resolve) => setTimeout(resolve, LATE_MS * 2));
    expect(told, 'said after the release').to.have.length(2);
  });

  it('when a background renewal is answered after a release Redis did not answer, then nothing is said after the release and nothing more is asked', async () => {
    // The background renewal times out (the operator is told), the next is in flight at the
    // release and answered yes after it.
    const { redis, asked } = scriptedRedis(['silent', 'late yes'], { release: 'silent' });
    const { lock, told } = await telling(redis, { ttlMs: 30_000, renewEveryMs: 10, retryEveryMs: 5 });
    await until(() => asked.length === 2);
    expect(await lock.release().catch((e: unknown) => e)).to.be.instanceOf(Error);
    const atRelease = { told: [...told], asked: asked.length };
    expect(atRelease.told).to.have.length(1);
    await new Promise((resolve) => setTimeout(resolve, LATE_MS * 2));
    expect(told, 'said after the release').to.deep.equal(atRelease.told);
    expect(asked.length, 'renewals asked after the release').to.equal(atRelease.asked);
    expect(lock.lost.aborted).to.equal(false);
  });

  it('when a background renewal is answered after the lock was lost (its lease gone unconfirmed), then nothing more is said', async () => {
    // The background renewal times out (the operator is told), the next is in flight while the
    // run's own asks go unanswered past the lease, and it is answered yes after that.
    const { redis, asked } = scriptedRedis(['silent', 'late yes', 'silent']);
    const { lock, told } = await telling(redis, { ttlMs: 80, renewEveryMs: 10, retryEveryMs: 5 });
    await until(() => asked.length === 2);
    expect(await lock.confirm().catch((e: unknown) => e)).to.be.instanceOf(LockUnconfirmedError);
    const atLoss = [...told];
    await new Promise((resolve) => setTimeout(resolve, LATE_MS * 2));
    expect(told, 'said after the loss').to.deep.equal(atLoss);
    await lock.release().catch(() => undefined);
  });

  it('when the background renewal finds Redis silent, then it asks again at the retry pause, and the silence told runs from the last answer at most and from the renewal that timed out at least', async () => {
    const { redis } = scriptedRedis(['silent', 'silent', 'silent', 'yes']);
    const { lock, told } = await telling(redis, { ttlMs: 30_000, renewEveryMs: 800, retryEveryMs: 5 });
    await until(() => told.length === 2, 3000);
    // Silent since the last answer (the lock taken) at most, since the renewal that timed out at least.
    expect(told[1]).to.match(/^Redis answered the catalogue lock again after between 0\.0 and 0\.[89] s of silence$/);
    expect(lock.lost.aborted).to.equal(false);
    await lock.release();
  });

  it('when many loaders confirm the lock at once under one interrupt, then the interrupt holds one listener, and its abort ends every wait', async () => {
    const { redis } = scriptedRedis(['late yes']);
    const lock = await acquireCatalogueLock(redis, 'wallpapers', 'import', { ttlMs: 30_000, ...fast });
    const interrupt = new AbortController();
    const confirms = Array.from({ length: 40 }, () => lock.confirm(interrupt.signal));
    expect(getEventListeners(interrupt.signal, 'abort').length).to.be.at.most(1);
    await Promise.all(confirms);
    const stopped = Array.from({ length: 40 }, () => lock.confirm(interrupt.signal).catch((e: unknown) => e));
    interrupt.abort(new Interrupted('SIGINT'));
    for (const error of await Promise.all(stopped)) expect(error).to.be.instanceOf(Interrupted);
    await lock.release();
  });
});

describe('which failed renewals say nothing of the lock', () => {
  it('when a renewal times out, its connection closes or Redis says it is loading, busy, read-only or moving slots, then it is silence; when Redis refuses it otherwise, then it is not', () => {
    for (const silent of [
      new Error('Command timed out'),
      new Error('Connection is closed.'),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      new ReplyError("READONLY You can't write against a read only replica."),
      new ReplyError('LOADING Redis is loading the dataset in memory'),
      new ReplyError('BUSY Redis is busy running a script.'),
      new ReplyError('TRYAGAIN Multiple keys request during rehashing of slot'),
      new ReplyError('CLUSTERDOWN The cluster is down'),
      new ReplyError('MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no.'),
      new ReplyError('MOVED 3999 127.0.0.1:6381'),
      new ReplyError('ASK 3999 127.0.0.1:6381'),
    ])
      expect(isSilence(silent), (silent as Error).message).to.equal(true);
    for (const refused of [new ReplyError('NOPERM this user has no permissions to run the eval command'), new ReplyError('ERR Error running script')])
      expect(isSilence(refused), (refused as Error).message).to.equal(false);
  });
});
