import { expect } from 'chai';
import { QuotaExhausted } from '../../../clients/typescript/src/errors.js';
import { QuotaPacer, type Turn } from '../../../clients/typescript/src/quota-pacer.js';

const quotaAnswer = (remaining: number, resetInMs: number, now: number, limit = 100) =>
  new Response('{}', {
    headers: {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String((now + resetInMs) / 1000),
    },
  });

/** A pacer on a clock of its own: waits are recorded and end when told (or at once). */
function pacerAt(clock: { now: number }, options: Partial<{ maxWaitMs: number; probeWaitMs: number }> = {}) {
  const waits: number[] = [];
  const pacer = new QuotaPacer(
    {
      paceBelow: 0.1,
      maxWaitMs: 60_000,
      probeWaitMs: 200,
      ...options,
      wait: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          waits.push(ms);
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
    },
    () => clock.now,
  );
  return { pacer, waits };
}

describe('the TypeScript client`s pacing of calls made at once', () => {
  it('when the first call`s time runs out with no answer, then the others it held go at once, and none waits in line behind the next', async () => {
    const clock = { now: 1_000_000 };
    const { pacer } = pacerAt(clock);
    const signal = new AbortController().signal;
    const probe = await pacer.turn(signal);
    expect(probe.probe).to.equal(true);
    const held = [pacer.turn(signal), pacer.turn(signal), pacer.turn(signal)];
    pacer.answered(probe, null, { hung: true });
    const letGo = await Promise.all(held);
    expect(letGo.map((turn) => turn.probe)).to.deep.equal([false, false, false]);
    expect((await pacer.turn(signal)).probe, 'and the next call does not ask for the others either').to.equal(false);
  });

  it('when the first call is stopped or refused a connection, then the next one asks for the others in its place', async () => {
    const clock = { now: 1_000_000 };
    const { pacer } = pacerAt(clock);
    const signal = new AbortController().signal;
    const probe = await pacer.turn(signal);
    const held = [pacer.turn(signal), pacer.turn(signal), pacer.turn(signal)];
    pacer.answered(probe, null);
    const next = await Promise.race(held);
    expect(next.probe).to.equal(true);
    pacer.answered(next, quotaAnswer(50, 60_000, clock.now));
    expect((await Promise.all(held)).filter((turn) => turn.probe)).to.have.length(1);
  });

  it('when the first call`s answer never comes at all, then the others wait for it at most probeWaitMs, and later calls not at all', async () => {
    const clock = { now: 1_000_000 };
    const { pacer } = pacerAt(clock, { probeWaitMs: 50 });
    const signal = new AbortController().signal;
    await pacer.turn(signal);
    let started = performance.now();
    const held: Turn = await pacer.turn(signal);
    expect(held.probe).to.equal(false);
    expect(performance.now() - started).to.be.within(40, 1000);
    started = performance.now();
    expect((await pacer.turn(signal)).probe).to.equal(false);
    expect(performance.now() - started, 'the deaf first call holds no later one').to.be.below(40);
  });

  it('when one caller`s waits end at once (a sleep that does not wait), then it is never told the quota is spent while some is left', async () => {
    const clock = { now: 1_000_000 };
    const pacer = new QuotaPacer({ paceBelow: 0.1, maxWaitMs: 60_000, probeWaitMs: 200, wait: () => Promise.resolve() }, () => clock.now);
    const signal = new AbortController().signal;
    let remaining = 10;
    pacer.answered(await pacer.turn(signal), quotaAnswer(remaining, 360_000, clock.now));
    while (remaining > 0) pacer.answered(await pacer.turn(signal), quotaAnswer(--remaining, 360_000, clock.now));
    expect(await pacer.turn(signal).catch((err: unknown) => err), 'and at none left, it is').to.be.instanceOf(QuotaExhausted);
  });

  it('when callers queue for turns further off than maxWaitMs, then those past it throw QuotaExhausted instead of all going at once', async () => {
    const clock = { now: 1_000_000 };
    const { pacer, waits } = pacerAt(clock, { maxWaitMs: 5000 });
    const signal = new AbortController().signal;
    const first = await pacer.turn(signal);
    // 10 left of 100 for 30 s: the first waits 3 s, the next would wait until 6 s.
    pacer.answered(first, quotaAnswer(10, 30_000, clock.now));
    const turns = Array.from({ length: 4 }, () =>
      pacer.turn(signal).then(
        () => 'sent',
        (err: unknown) => err,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(waits).to.deep.equal([3000]);
    const refused = await Promise.all(turns.slice(1));
    for (const err of refused) expect(err).to.be.instanceOf(QuotaExhausted).and.have.property('retryAfter', 6);
  });

  it('when calls queue for the turns left, then they are spread evenly until the reset, the last at it', async () => {
    // Each had been spread from now and added after the turns before it: with 9 left for 31 s,
    // the waits grew to 56 s and the ninth was refused though the window reset at 31 s (helper-110).
    const clock = { now: 1_000_000 };
    const { pacer, waits } = pacerAt(clock);
    const stop = new AbortController();
    pacer.answered(await pacer.turn(stop.signal), quotaAnswer(9, 31_000, clock.now));
    const turns = Array.from({ length: 9 }, () => pacer.turn(stop.signal).catch((err: unknown) => err));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(waits.map((ms) => Math.round(ms))).to.deep.equal(Array.from({ length: 9 }, (_, i) => Math.round(((i + 1) * 31_000) / 9)));
    stop.abort(new Error('done'));
    expect((await Promise.all(turns)).every((turn) => turn instanceof Error && !(turn instanceof QuotaExhausted))).to.equal(true);
  });

  it('when the answer says in how many seconds the window resets (RateLimit t=), then that is the reset, whatever the server`s clock says', async () => {
    // X-RateLimit-Reset is Unix time on the server's clock: 30 s off, 61 of 100 calls had been
    // refused or 80 had met 429s (helper-110).
    const clock = { now: 1_000_000 };
    const { pacer, waits } = pacerAt(clock);
    const signal = new AbortController().signal;
    const skewed = quotaAnswer(5, 100_000 + 30_000, clock.now);
    skewed.headers.set('RateLimit', '"free";r=5;t=100');
    pacer.answered(await pacer.turn(signal), skewed);
    void pacer.turn(signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(waits).to.deep.equal([20_000]);
  });

  it('when every caller waiting for a turn is stopped, then the turns they held are given back to the next', async () => {
    const clock = { now: 1_000_000 };
    const { pacer, waits } = pacerAt(clock);
    const first = await pacer.turn(new AbortController().signal);
    // 10 left of 100 for 360 s: a turn every 36 s.
    pacer.answered(first, quotaAnswer(10, 360_000, clock.now));
    const stop = new AbortController();
    const held = [pacer.turn(stop.signal), pacer.turn(stop.signal)].map((turn) => turn.catch(() => 'stopped'));
    stop.abort(new Error('stopped'));
    expect(await Promise.all(held)).to.deep.equal(['stopped', 'stopped']);
    void pacer.turn(new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(waits.at(-1)).to.equal(36_000);
  });
});
