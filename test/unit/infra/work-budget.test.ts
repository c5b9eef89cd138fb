import { expect } from 'chai';
import { BudgetFull, createWorkBudget } from '../../../src/infra/work-budget.js';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('work budget', () => {
  it('when more work arrives than concurrency, then at most `concurrency` run at once and the rest wait their turn', async () => {
    const budget = createWorkBudget({ concurrency: 2, queue: 10 });
    let running = 0;
    let peak = 0;
    const gates = Array.from({ length: 6 }, gate);
    const done = gates.map((g) =>
      budget.reserve().run(async () => {
        running++;
        peak = Math.max(peak, running);
        await g.opened;
        running--;
      }),
    );
    await turn();
    expect(budget.running).to.equal(2);
    expect(budget.waiting).to.equal(4);
    for (const g of gates) {
      g.open();
      await turn();
    }
    await Promise.all(done);
    expect(peak).to.equal(2);
    expect(budget.running).to.equal(0);
  });

  it('when concurrency and queue are taken, then the next reserve is refused at once with BudgetFull', () => {
    const budget = createWorkBudget({ concurrency: 1, queue: 2, retryAfterSeconds: 3 });
    const slots = [budget.reserve(), budget.reserve(), budget.reserve()];
    expect(() => budget.reserve())
      .to.throw(BudgetFull)
      .with.property('retryAfterSeconds', 3);
    slots[0]!.cancel();
    expect(() => budget.reserve()).not.to.throw();
  });

  it('when a slot is cancelled after it ran, then nothing changes; a slot runs one piece of work', async () => {
    const budget = createWorkBudget({ concurrency: 1, queue: 0 });
    const slot = budget.reserve();
    await slot.run(async () => undefined);
    slot.cancel();
    expect(() => budget.reserve().cancel()).not.to.throw();
    const again = await slot.run(async () => 'ran twice').catch((err: unknown) => (err instanceof Error ? err.message : 'not an error'));
    expect(again).to.equal('a slot runs one piece of work');
  });

  it('when work throws, then its place is given back', async () => {
    const budget = createWorkBudget({ concurrency: 1, queue: 0 });
    await budget
      .reserve()
      .run(() => Promise.reject(new Error('boom')))
      .catch(() => undefined);
    expect(budget.running).to.equal(0);
    expect(() => budget.reserve()).not.to.throw();
  });

  it('when an owner holds perOwner places, then its next reserve is refused while others still get places; each place it gives back is its again', async () => {
    const budget = createWorkBudget({ concurrency: 1, queue: 8, perOwner: 2 });
    const first = budget.reserve('198.51.100.1');
    const second = budget.reserve('198.51.100.1');
    expect(() => budget.reserve('198.51.100.1')).to.throw(BudgetFull);
    expect(() => budget.reserve('198.51.100.2').cancel(), 'another owner').not.to.throw();
    expect(() => budget.reserve().cancel(), 'no owner').not.to.throw();
    first.cancel();
    const third = budget.reserve('198.51.100.1');
    await second.run(async () => undefined);
    expect(() => budget.reserve('198.51.100.1').cancel(), 'after a run').not.to.throw();
    third.cancel();
  });
});
