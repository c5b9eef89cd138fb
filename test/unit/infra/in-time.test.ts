import { expect } from 'chai';
import { inTime } from '../../../src/infra/in-time.js';

const after = <T>(ms: number, settle: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(settle()), ms));
const LATE = Symbol('late');

describe('a call waited for only so long', () => {
  it('when the call answers in time, then its answer is given', async () => {
    expect(
      await inTime(
        after(5, () => 'answer'),
        200,
        () => LATE,
      ),
    ).to.equal('answer');
  });

  it('when the call fails in time, then its failure is given', async () => {
    const failed = await inTime(Promise.reject(new Error('refused')), 200, () => LATE).catch((error: Error) => error.message);
    expect(failed).to.equal('refused');
  });

  it('when the time is up first, then what `late` gives is the answer, or what it throws the failure', async () => {
    expect(
      await inTime(
        after(200, () => 'answer'),
        10,
        () => LATE,
      ),
    ).to.equal(LATE);
    const expired = await inTime(
      after(200, () => 'answer'),
      10,
      () => {
        throw new Error('expired');
      },
    ).catch((error: Error) => error.message);
    expect(expired).to.equal('expired');
  });

  it('when a call that was late fails afterwards, then its failure is heard by no one', async () => {
    const unheard: unknown[] = [];
    const hear = (reason: unknown) => unheard.push(reason);
    process.on('unhandledRejection', hear);
    try {
      const call = new Promise((_, reject) => setTimeout(() => reject(new Error('too late')), 30));
      expect(await inTime(call, 5, () => LATE)).to.equal(LATE);
      await after(60, () => undefined);
      expect(unheard).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', hear);
    }
  });

  it('when the time given is negative, then it is up at once', async () => {
    expect(
      await inTime(
        after(100, () => 'answer'),
        -5,
        () => LATE,
      ),
    ).to.equal(LATE);
  });
});
