import { expect } from 'chai';
import { createNaturalBatcher } from '../../../src/infra/natural-batcher.js';

interface Deferred {
  inputs: string[];
  remainingMs: number;
  answer(results: (string | Error)[]): void;
  fail(err: Error): void;
}

const BUDGET = { budgetMs: 60_000, maxQueued: 1000, expired: () => new Error('expired'), overloaded: () => new Error('overloaded') };

/** Time that moves only when a test advances it, running the timers that fall due. */
class FakeClock {
  now = 0;
  private timers: { at: number; fn: () => void; cancelled: boolean }[] = [];

  schedule = (fn: () => void, ms: number): (() => void) => {
    const timer = { at: this.now + ms, fn, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };

  advanceTo(at: number): void {
    this.now = at;
    const due = this.timers.filter((t) => t.at <= at && !t.cancelled).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((t) => !due.includes(t));
    for (const timer of due) timer.fn();
  }
}

/** A batcher whose backend answers only when the test says so, recording every batch it was sent. */
function controlled(maxInFlight: number, maxBatchSize: number, clock = new FakeClock(), budgetMs = BUDGET.budgetMs, maxQueued = BUDGET.maxQueued) {
  const calls: Deferred[] = [];
  const submit = createNaturalBatcher<string, string>({
    ...BUDGET,
    budgetMs,
    maxQueued,
    now: () => clock.now,
    schedule: clock.schedule,
    maxInFlight,
    maxBatchSize,
    keyOf: (input) => input,
    run: (inputs, remainingMs) =>
      new Promise((resolve, reject) => {
        calls.push({ inputs, remainingMs, answer: resolve, fail: reject });
      }),
  });
  return { calls, submit };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const echo = (call: Deferred) => call.answer(call.inputs.map((input) => `answer:${input}`));

describe('natural batching', () => {
  it('when one input arrives and a slot is free, then it is sent alone without waiting for company', async () => {
    const { calls, submit } = controlled(2, 10);
    const answer = submit('a');
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a']]);
    echo(calls[0]!);
    expect(await answer).to.equal('answer:a');
  });

  it('when inputs arrive in the same turn, then they leave in one batch in arrival order', async () => {
    const { calls, submit } = controlled(1, 10);
    const answers = ['a', 'b', 'c'].map((input) => submit(input));
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a', 'b', 'c']]);
    echo(calls[0]!);
    expect(await Promise.all(answers)).to.deep.equal(['answer:a', 'answer:b', 'answer:c']);
  });

  it('when every slot is busy, then later inputs wait and leave together as soon as a slot frees, at most maxBatchSize at a time', async () => {
    const { calls, submit } = controlled(1, 3);
    const first = submit('a');
    await turn();
    const waiting = ['b', 'c', 'd', 'e'].map((input) => submit(input));
    await turn();
    expect(calls).to.have.length(1);
    echo(calls[0]!);
    await first;
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a'], ['b', 'c', 'd']]);
    echo(calls[1]!);
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a'], ['b', 'c', 'd'], ['e']]);
    echo(calls[2]!);
    expect(await Promise.all(waiting)).to.deep.equal(['answer:b', 'answer:c', 'answer:d', 'answer:e']);
  });

  it('when equal inputs wait together, then the backend is asked once and every caller gets the answer', async () => {
    const { calls, submit } = controlled(1, 10);
    const answers = ['x', 'y', 'x', 'x'].map((input) => submit(input));
    await turn();
    expect(calls[0]!.inputs).to.deep.equal(['x', 'y']);
    echo(calls[0]!);
    expect(await Promise.all(answers)).to.deep.equal(['answer:x', 'answer:y', 'answer:x', 'answer:x']);
  });

  it('when an equal input arrives after the first was sent, then it gets a call of its own (answers are never older than the question)', async () => {
    const { calls, submit } = controlled(2, 10);
    const early = submit('x');
    await turn();
    const late = submit('x');
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['x'], ['x']]);
    calls[0]!.answer(['old']);
    calls[1]!.answer(['new']);
    expect([await early, await late]).to.deep.equal(['old', 'new']);
  });

  it('when the backend fails one position, then only that caller fails', async () => {
    const { calls, submit } = controlled(1, 10);
    const answers = ['a', 'b', 'c'].map((input) =>
      submit(input).then(
        (v) => v,
        (err: Error) => `failed:${err.message}`,
      ),
    );
    await turn();
    calls[0]!.answer(['A', new Error('boom'), 'C']);
    expect(await Promise.all(answers)).to.deep.equal(['A', 'failed:boom', 'C']);
  });

  it('when the whole call fails, then every caller in the batch fails with that error and the next batch still goes', async () => {
    const { calls, submit } = controlled(1, 10);
    const answers = ['a', 'b'].map((input) =>
      submit(input).then(
        (v) => v,
        (err: Error) => `failed:${err.message}`,
      ),
    );
    await turn();
    const later = submit('c');
    calls[0]!.fail(new Error('down'));
    expect(await Promise.all(answers)).to.deep.equal(['failed:down', 'failed:down']);
    await turn();
    echo(calls[1]!);
    expect(await later).to.equal('answer:c');
  });

  it('when the backend answers fewer positions than it was asked, then the unanswered callers fail instead of hanging', async () => {
    const { calls, submit } = controlled(1, 10);
    const answers = ['a', 'b'].map((input) =>
      submit(input).then(
        (v) => v,
        () => 'failed',
      ),
    );
    await turn();
    calls[0]!.answer(['A']);
    expect(await Promise.all(answers)).to.deep.equal(['A', 'failed']);
  });

  it('when the backend throws before returning a promise, then the callers fail and the slot is released', async () => {
    let attempts = 0;
    const submit = createNaturalBatcher<string, string>({
      ...BUDGET,
      maxInFlight: 1,
      maxBatchSize: 10,
      keyOf: (input) => input,
      run: (inputs) => {
        attempts++;
        if (attempts === 1) throw new Error('sync');
        return Promise.resolve(inputs);
      },
    });
    expect(await submit('a').catch((err: Error) => err.message)).to.equal('sync');
    expect(await submit('b')).to.equal('b');
  });

  it('when batches are reported, then each report is the number of distinct inputs sent', async () => {
    const sizes: number[] = [];
    const submit = createNaturalBatcher<string, string>({
      ...BUDGET,
      maxInFlight: 1,
      maxBatchSize: 10,
      keyOf: (input) => input,
      run: async (inputs) => inputs,
      onBatch: (size) => sizes.push(size),
    });
    await Promise.all(['a', 'a', 'b'].map((input) => submit(input)));
    await submit('c');
    expect(sizes).to.deep.equal([2, 1]);
  });

  it('when an input waits for a free slot past its time budget, then it fails as expired at its deadline and is never sent', async () => {
    const clock = new FakeClock();
    const { calls, submit } = controlled(1, 10, clock, 1000);
    const first = submit('a').then(
      (v) => v,
      (err: Error) => `failed:${err.message}`,
    );
    await turn();
    clock.advanceTo(100);
    const late = submit('b').then(
      (v) => v,
      (err: Error) => `failed:${err.message}`,
    );
    clock.advanceTo(1099);
    expect(await Promise.race([late, turn().then(() => 'pending')])).to.equal('pending');
    clock.advanceTo(1100);
    expect(await late).to.equal('failed:expired');
    echo(calls[0]!);
    expect(await first, 'a failed at its own deadline, 1000').to.equal('failed:expired');
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a']]);
  });

  it('when a batch holds old and fresh callers, then it runs for the freshest budget and each caller fails at its own deadline', async () => {
    const clock = new FakeClock();
    const { calls, submit } = controlled(1, 10, clock, 1000);
    const blocker = submit('x').catch((err: Error) => `failed:${err.message}`);
    await turn();
    const old = submit('a').then(
      (v) => v,
      (err: Error) => `failed:${err.message}`,
    );
    clock.advanceTo(600);
    const fresh = submit('b');
    const joined = submit('a');
    echo(calls[0]!);
    await blocker;
    await turn();
    expect(calls[1]!.inputs).to.deep.equal(['a', 'b']);
    expect(calls[1]!.remainingMs, 'the fresh callers asked at 600 and may wait until 1600').to.equal(1000);
    clock.advanceTo(1000);
    expect(await old).to.equal('failed:expired');
    echo(calls[1]!);
    expect(await fresh).to.equal('answer:b');
    expect(await joined, 'an equal input that joined later keeps its own budget').to.equal('answer:a');
  });

  it('when maxQueued distinct inputs already wait, then a new one is refused at once, while equal inputs still join', async () => {
    const { calls, submit } = controlled(1, 10, new FakeClock(), 1000, 2);
    const busy = submit('x');
    await turn();
    const waiting = [submit('a'), submit('b')];
    const refused = await submit('c').catch((err: Error) => err.message);
    expect(refused).to.equal('overloaded');
    const joined = submit('a');
    echo(calls[0]!);
    await busy;
    await turn();
    expect(calls[1]!.inputs).to.deep.equal(['a', 'b']);
    echo(calls[1]!);
    expect(await Promise.all([...waiting, joined])).to.deep.equal(['answer:a', 'answer:b', 'answer:a']);
    const again = submit('c').then(
      () => 'answered',
      () => 'refused',
    );
    expect(await Promise.race([again, turn().then(() => 'queued')]), 'room again once the queue drained').to.equal('queued');
  });
});

describe('natural batching within a budget begun before', () => {
  it('when a caller gives what is left of its budget, then it expires at that, not at the whole budget', async () => {
    const clock = new FakeClock();
    const { calls, submit } = controlled(1, 10, clock, 1000);
    const answer = submit('a', { leftMs: 300 }).then(String, (err: Error) => err.message);
    await turn();
    expect(calls[0]!.remainingMs).to.equal(300);
    clock.advanceTo(300);
    expect(await answer).to.equal('expired');
  });

  it('when nothing is left, then the input fails at once and is never sent', async () => {
    const { calls, submit } = controlled(1, 10);
    const answer = submit('a', { leftMs: 0 }).then(String, (err: Error) => err.message);
    await turn();
    expect(await answer).to.equal('expired');
    expect(calls).to.have.length(0);
  });

  it('when more is left than the whole budget, then the whole budget is the limit', async () => {
    const clock = new FakeClock();
    const { calls, submit } = controlled(1, 10, clock, 1000);
    void submit('a', { leftMs: 5000 }).catch(() => undefined);
    await turn();
    expect(calls[0]!.remainingMs).to.equal(1000);
  });
});
