import { expect } from 'chai';
import { createLatencyDeadline } from '../../../src/infra/latency-deadline.js';

/** A clock the test moves. */
function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createLatencyDeadline', () => {
  it('when nothing has been recorded, then the deadline is the floor', () => {
    expect(createLatencyDeadline({ floorMs: 100, ceilingMs: 500 }).current()).to.equal(100);
  });

  it('when calls have answered, then the deadline is their 99th percentile, recomputed a second later', () => {
    const { now, advance } = clock();
    const deadline = createLatencyDeadline({ floorMs: 10, ceilingMs: 500, now });
    expect(deadline.current()).to.equal(10);
    for (let i = 1; i <= 100; i++) deadline.record(i * 2);
    expect(deadline.current(), 'not before a second has passed').to.equal(10);
    advance(1000);
    expect(deadline.current()).to.equal(200);
  });

  it('when calls were slower than the ceiling or faster than the floor, then the deadline stays within both', () => {
    const { now, advance } = clock();
    const slow = createLatencyDeadline({ floorMs: 10, ceilingMs: 500, now });
    const fast = createLatencyDeadline({ floorMs: 10, ceilingMs: 500, now });
    for (let i = 0; i < 50; i++) {
      slow.record(5000);
      fast.record(1);
    }
    advance(1000);
    expect(slow.current()).to.equal(500);
    expect(fast.current()).to.equal(10);
  });

  it('when the slow calls are more than a minute old, then they no longer count', () => {
    const { now, advance } = clock();
    const deadline = createLatencyDeadline({ floorMs: 10, ceilingMs: 500, now });
    for (let i = 0; i < 50; i++) deadline.record(400);
    advance(61_000);
    for (let i = 0; i < 50; i++) deadline.record(20);
    advance(1000);
    expect(deadline.current()).to.equal(20);
  });
});
