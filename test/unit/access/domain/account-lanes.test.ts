import { expect } from 'chai';
import { type LeaveLane, createAccountLanes } from '../../../../src/access/domain/account-lanes.js';

describe('account lanes', () => {
  it('when an account has all its lanes taken, then its next request waits and is let in as soon as one leaves', async () => {
    const lanes = createAccountLanes(2, 8);
    const first = lanes.tryEnter('a')!;
    lanes.tryEnter('a')!;
    expect(lanes.tryEnter('a')).to.equal(null);
    let entered = false;
    const third = lanes.waitFor('a')!.then((leave) => {
      entered = true;
      return leave;
    });
    await Promise.resolve();
    expect(entered).to.equal(false);
    expect(lanes.waiting).to.equal(1);
    first();
    (await third)!();
    expect(entered).to.equal(true);
    expect(lanes.waiting).to.equal(0);
  });

  it('when several wait, then they are let in in the order they came', async () => {
    const lanes = createAccountLanes(1, 8);
    const holder = lanes.tryEnter('a')!;
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) =>
      lanes.waitFor('a')!.then((leave) => {
        order.push(n);
        leave!();
      }),
    );
    holder();
    await Promise.all(waits);
    expect(order).to.deep.equal([1, 2, 3]);
  });

  it('when one account has its lanes full, then another account enters at once', () => {
    const lanes = createAccountLanes(1, 8);
    lanes.tryEnter('a');
    expect(lanes.tryEnter('a')).to.equal(null);
    expect(lanes.tryEnter('b')).to.be.a('function');
  });

  it('when a lane is left twice, then only one lane is freed', async () => {
    const lanes = createAccountLanes(1, 8);
    const leave = lanes.tryEnter('a')!;
    const waiter = lanes.waitFor('a')!;
    leave();
    leave();
    const second = await waiter;
    expect(lanes.tryEnter('a'), 'the lane went to the waiter, and leaving twice gave no second one').to.equal(null);
    second!();
    expect(lanes.tryEnter('a')).to.be.a('function');
  });

  it('when every request of an account has left, then nothing of the account is kept', async () => {
    const lanes = createAccountLanes(2, 8);
    const leaves: LeaveLane[] = [];
    for (let i = 0; i < 50; i++) {
      const leave = lanes.tryEnter(`account-${i}`);
      if (leave) leaves.push(leave);
    }
    leaves.push(lanes.tryEnter('account-0')!);
    const waited = lanes.waitFor('account-0')!;
    expect(lanes.accounts).to.equal(50);
    for (const leave of leaves) leave();
    (await waited)!();
    expect(lanes.accounts).to.equal(0);
    expect(lanes.waiting).to.equal(0);
  });

  it('when every lane is opened (shutdown), then those waiting are let in at once and later ones enter straight away', async () => {
    const lanes = createAccountLanes(1, 8);
    const holder = lanes.tryEnter('a')!;
    const waited = [lanes.waitFor('a')!, lanes.waitFor('a')!, lanes.waitFor('b')!];
    lanes.openAll();
    const leaves = await Promise.all(waited);
    expect(lanes.waiting).to.equal(0);
    expect(lanes.tryEnter('a'), 'no account is held any more').to.be.a('function');
    for (const leave of leaves) leave!();
    holder();
    expect(lanes.accounts, 'nothing kept once the last lane of before is left').to.equal(0);
  });

  it("when an account's line is full, then its next request is refused at once, while another account still waits", async () => {
    const lanes = createAccountLanes(1, 2);
    const holders = [lanes.tryEnter('a')!, lanes.tryEnter('b')!];
    const inLine = [lanes.waitFor('a'), lanes.waitFor('a')];
    expect(inLine.every((place) => place instanceof Promise)).to.equal(true);
    expect(lanes.waitFor('a'), 'a third in line').to.equal(null);
    expect(lanes.waiting).to.equal(2);
    expect(lanes.waitFor('b'), 'the other account has its own line').to.be.instanceOf(Promise);
    holders[0]!();
    (await inLine[0]!)!();
    expect(lanes.waitFor('a'), 'a place freed once one left the line').to.be.instanceOf(Promise);
  });

  it('when the line is full and some in it are gone, then their places go to newcomers, and the gone are let go without a lane', async () => {
    const lanes = createAccountLanes(1, 2);
    const holder = lanes.tryEnter('a')!;
    let hungUp = false;
    const gone = lanes.waitFor('a', () => hungUp)!;
    const staying = lanes.waitFor('a')!;
    expect(lanes.waitFor('a'), 'full while every one in line is there').to.equal(null);
    hungUp = true;
    const newcomer = lanes.waitFor('a');
    expect(newcomer, 'the place of the one gone').to.be.instanceOf(Promise);
    expect(lanes.waiting).to.equal(2);
    (await gone)!();
    expect(lanes.tryEnter('a'), 'the one gone took no lane: the holder still has it').to.equal(null);
    holder();
    (await staying)!();
    (await newcomer!)!();
    expect(lanes.accounts).to.equal(0);
    expect(lanes.waiting).to.equal(0);
  });

  it('when places are kept for requests on their way, then they count against the lanes and the line, and one given back frees its place', () => {
    const lanes = createAccountLanes(1, 2);
    const holds = [lanes.hold('a'), lanes.hold('a'), lanes.hold('a')];
    expect(holds.every((hold) => hold !== null)).to.equal(true);
    expect(lanes.hold('a'), 'one lane and two places in line, all kept').to.equal(null);
    expect(lanes.hold('b'), 'another account has its own').to.not.equal(null);
    holds[2]!.release();
    holds[2]!.release();
    const again = lanes.hold('a');
    expect(again, 'given back once').to.not.equal(null);
    expect(lanes.hold('a')).to.equal(null);
  });

  it('when a request with a kept place asks for its lane, then the place becomes its own, not counted twice', async () => {
    const lanes = createAccountLanes(1, 1);
    const [first, second] = [lanes.hold('a')!, lanes.hold('a')!];
    const leave = lanes.tryEnter('a', first)!;
    expect(lanes.tryEnter('a', second)).to.equal(null);
    const waiting = lanes.waitFor('a')!;
    expect(lanes.hold('a'), 'one at work, one in line').to.equal(null);
    first.release();
    expect(lanes.hold('a'), 'releasing a redeemed place frees nothing').to.equal(null);
    leave();
    (await waiting)!();
    expect(lanes.accounts).to.equal(0);
  });

  it('when places are kept, then a request that kept none cannot take one of them in the line', () => {
    // A key new to the process asks for a lane after its quota; one of a served key kept its place before.
    const lanes = createAccountLanes(1, 2);
    lanes.tryEnter('a');
    const kept = [lanes.hold('a')!, lanes.hold('a')!];
    expect(lanes.waitFor('a'), 'the line is kept for two').to.equal(null);
    expect(lanes.waitFor('a', () => false, kept[0])).to.not.equal(null);
    expect(lanes.waitFor('a', () => false, kept[1])).to.not.equal(null);
  });

  it('when every kept place is given back and nothing of the account runs, then nothing of it is kept', () => {
    const lanes = createAccountLanes(2, 2);
    const holds = [lanes.hold('a')!, lanes.hold('a')!];
    expect(lanes.accounts).to.equal(1);
    for (const hold of holds) hold.release();
    expect(lanes.accounts).to.equal(0);
    lanes.tryEnter('b', lanes.hold('b')!)!();
    expect(lanes.accounts).to.equal(0);
  });

  it('when a request has waited its longest for a lane, then it is let go without one, and those behind it keep their places', async () => {
    const lanes = createAccountLanes(1, 4, 30);
    const holder = lanes.tryEnter('a')!;
    const first = lanes.waitFor('a')!;
    await new Promise((resolve) => setTimeout(resolve, 15));
    const second = lanes.waitFor('a')!;
    expect(await first, 'the first waited 30 ms').to.equal(null);
    expect(lanes.waiting).to.equal(1);
    holder();
    const leave = await second;
    expect(leave, 'the second is let in when the lane frees').to.be.a('function');
    leave!();
    expect(lanes.waiting).to.equal(0);
    expect(lanes.accounts).to.equal(0);
  });

  it('when the lanes keep serving, then a request waits past the longest wait without being let go', async () => {
    const lanes = createAccountLanes(1, 4, 30);
    const holder = lanes.tryEnter('a')!;
    const first = lanes.waitFor('a')!;
    const second = lanes.waitFor('a')!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    holder();
    const firstIn = await first;
    await new Promise((resolve) => setTimeout(resolve, 25));
    firstIn!();
    expect(await second, '45 ms in line, served all along').to.be.a('function');
  });

  it('when the lanes are left unserved (their requests failed), then the waiting are let go all the same', async () => {
    const lanes = createAccountLanes(1, 4, 30);
    const holder = lanes.tryEnter('a')!;
    const first = lanes.waitFor('a')!;
    const second = lanes.waitFor('a')!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    holder(false);
    const firstIn = await first;
    expect(await second, 'nothing served for 30 ms').to.equal(null);
    firstIn!(false);
  });

  it('when the number of lanes or places in line is not a positive integer, then it refuses', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createAccountLanes(bad, 8), String(bad)).to.throw(/lanes per account must be a positive integer/);
      expect(() => createAccountLanes(4, bad), String(bad)).to.throw(/places in line per account must be a positive integer/);
    }
  });
});
