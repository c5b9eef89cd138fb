import { expect } from 'chai';
import { type LeaveLane, createAccountLanes } from '../../../../src/access/domain/account-lanes.js';

describe('account lanes', () => {
  it('when an account has all its lanes taken, then its next request waits and is let in as soon as one leaves', async () => {
    const lanes = createAccountLanes(2);
    const first = lanes.tryEnter('a')!;
    lanes.tryEnter('a')!;
    expect(lanes.tryEnter('a')).to.equal(null);
    let entered = false;
    const third = lanes.waitFor('a').then((leave) => {
      entered = true;
      return leave;
    });
    await Promise.resolve();
    expect(entered).to.equal(false);
    expect(lanes.waiting).to.equal(1);
    first();
    (await third)();
    expect(entered).to.equal(true);
    expect(lanes.waiting).to.equal(0);
  });

  it('when several wait, then they are let in in the order they came', async () => {
    const lanes = createAccountLanes(1);
    const holder = lanes.tryEnter('a')!;
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) =>
      lanes.waitFor('a').then((leave) => {
        order.push(n);
        leave();
      }),
    );
    holder();
    await Promise.all(waits);
    expect(order).to.deep.equal([1, 2, 3]);
  });

  it('when one account has its lanes full, then another account enters at once', () => {
    const lanes = createAccountLanes(1);
    lanes.tryEnter('a');
    expect(lanes.tryEnter('a')).to.equal(null);
    expect(lanes.tryEnter('b')).to.be.a('function');
  });

  it('when a lane is left twice, then only one lane is freed', async () => {
    const lanes = createAccountLanes(1);
    const leave = lanes.tryEnter('a')!;
    const waiter = lanes.waitFor('a');
    leave();
    leave();
    const second = await waiter;
    expect(lanes.tryEnter('a'), 'the lane went to the waiter, and leaving twice gave no second one').to.equal(null);
    second();
    expect(lanes.tryEnter('a')).to.be.a('function');
  });

  it('when every request of an account has left, then nothing of the account is kept', async () => {
    const lanes = createAccountLanes(2);
    const leaves: LeaveLane[] = [];
    for (let i = 0; i < 50; i++) {
      const leave = lanes.tryEnter(`account-${i}`);
      if (leave) leaves.push(leave);
    }
    leaves.push(lanes.tryEnter('account-0')!);
    const waited = lanes.waitFor('account-0');
    expect(lanes.accounts).to.equal(50);
    for (const leave of leaves) leave();
    (await waited)();
    expect(lanes.accounts).to.equal(0);
    expect(lanes.waiting).to.equal(0);
  });

  it('when every lane is opened (shutdown), then those waiting are let in at once and later ones enter straight away', async () => {
    const lanes = createAccountLanes(1);
    const holder = lanes.tryEnter('a')!;
    const waited = [lanes.waitFor('a'), lanes.waitFor('a'), lanes.waitFor('b')];
    lanes.openAll();
    const leaves = await Promise.all(waited);
    expect(lanes.waiting).to.equal(0);
    expect(lanes.tryEnter('a'), 'no account is held any more').to.be.a('function');
    for (const leave of leaves) leave();
    holder();
    expect(lanes.accounts, 'nothing kept once the last lane of before is left').to.equal(0);
  });

  it('when the number of lanes is not a positive integer, then it refuses', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => createAccountLanes(bad), String(bad)).to.throw(/positive integer/);
  });
});
