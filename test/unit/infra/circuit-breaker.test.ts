import { expect } from 'chai';
import { CircuitOpenError, createCircuitBreaker } from '../../../src/infra/circuit-breaker.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fail = () => Promise.reject(new Error('timed out'));

describe('createCircuitBreaker', () => {
  it('when calls fail fewer times in a row than the threshold, then every call still reaches the backend', async () => {
    let calls = 0;
    const breaker = createCircuitBreaker({ backend: 'redis', failureThreshold: 3, openMs: 50, probe: async () => undefined });
    const call = () => {
      calls++;
      return calls % 3 === 0 ? Promise.resolve('ok') : fail();
    };
    for (let i = 0; i < 9; i++) await breaker.run(call).catch(() => undefined);
    expect(calls).to.equal(9);
    expect(breaker.open).to.equal(false);
  });

  it('when the threshold is reached, then later calls fail at once without reaching the backend', async () => {
    let calls = 0;
    let opened = 0;
    const breaker = createCircuitBreaker({
      backend: 'redis',
      failureThreshold: 3,
      openMs: 10_000,
      probe: fail,
      onOpen: () => opened++,
    });
    for (let i = 0; i < 3; i++) await breaker.run(() => (calls++, fail())).catch(() => undefined);
    const err = await breaker.run(() => (calls++, Promise.resolve('ok'))).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(CircuitOpenError);
    expect(calls).to.equal(3);
    expect(opened).to.equal(1);
  });

  it('when a probe succeeds after the open period, then the breaker closes and calls reach the backend again', async () => {
    let healthy = false;
    let closed = 0;
    const breaker = createCircuitBreaker({
      backend: 'redis',
      failureThreshold: 1,
      openMs: 30,
      probe: () => (healthy ? Promise.resolve('PONG') : fail()),
      onClose: () => closed++,
    });
    await breaker.run(fail).catch(() => undefined);
    expect(breaker.open).to.equal(true);
    await sleep(80);
    expect(breaker.open, 'failed probes keep it open').to.equal(true);
    healthy = true;
    await sleep(80);
    expect(breaker.open).to.equal(false);
    expect(closed).to.equal(1);
    expect(await breaker.run(() => Promise.resolve('ok'))).to.equal('ok');
  });

  it('when a call succeeds, then lastSuccessAt moves to that moment and stays there through failures', async () => {
    let clock = 1000;
    const breaker = createCircuitBreaker({ backend: 'redis', failureThreshold: 2, openMs: 10_000, probe: fail, now: () => clock });
    expect(breaker.lastSuccessAt).to.equal(-Infinity);
    await breaker.run(() => Promise.resolve(1));
    clock = 5000;
    await breaker.run(fail).catch(() => undefined);
    expect(breaker.lastSuccessAt).to.equal(1000);
  });
});
