import { expect } from 'chai';
import { createNaturalBatcher } from '../../src/infra/natural-batcher.js';

interface Deferred {
  inputs: string[];
  remainingMs: number;
  answer(results: (string | Error)[]): void;
  fail(err: Error): void;
}

const BUDGET = { budgetMs: 60_000, expired: () => new Error('expired') };

/** A batcher whose backend answers only when the test says so, recording every batch it was sent. */
function controlled(maxInFlight: number, maxBatchSize: number, clock = { now: 0 }, budgetMs = BUDGET.budgetMs) {
  const calls: Deferred[] = [];
  const submit = createNaturalBatcher<string, string>({
    ...BUDGET,
    budgetMs,
    now: () => clock.now,
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
    const answers = ['a', 'b', 'c'].map(submit);
    await turn();
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a', 'b', 'c']]);
    echo(calls[0]!);
    expect(await Promise.all(answers)).to.deep.equal(['answer:a', 'answer:b', 'answer:c']);
  });

  it('when every slot is busy, then later inputs wait and leave together as soon as a slot frees, at most maxBatchSize at a time', async () => {
    const { calls, submit } = controlled(1, 3);
    const first = submit('a');
    await turn();
    const waiting = ['b', 'c', 'd', 'e'].map(submit);
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
    const answers = ['x', 'y', 'x', 'x'].map(submit);
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
    const answers = ['a', 'b', 'c'].map((input) => submit(input).then((v) => v, (err: Error) => `failed:${err.message}`));
    await turn();
    calls[0]!.answer(['A', new Error('boom'), 'C']);
    expect(await Promise.all(answers)).to.deep.equal(['A', 'failed:boom', 'C']);
  });

  it('when the whole call fails, then every caller in the batch fails with that error and the next batch still goes', async () => {
    const { calls, submit } = controlled(1, 10);
    const answers = ['a', 'b'].map((input) => submit(input).then((v) => v, (err: Error) => `failed:${err.message}`));
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
    const answers = ['a', 'b'].map((input) => submit(input).then((v) => v, () => 'failed'));
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
    await Promise.all(['a', 'a', 'b'].map(submit));
    await submit('c');
    expect(sizes).to.deep.equal([2, 1]);
  });

  it('when an input waits for a free slot past its time budget, then it fails as expired and is never sent', async () => {
    const clock = { now: 0 };
    const { calls, submit } = controlled(1, 10, clock, 1000);
    const first = submit('a');
    await turn();
    const late = submit('b').then((v) => v, (err: Error) => `failed:${err.message}`);
    clock.now = 1000;
    echo(calls[0]!);
    await first;
    await turn();
    expect(await late).to.equal('failed:expired');
    expect(calls.map((c) => c.inputs)).to.deep.equal([['a']]);
  });

  it('when a batch is sent, then it gets what is left of its oldest input\'s budget', async () => {
    const clock = { now: 0 };
    const { calls, submit } = controlled(1, 10, clock, 1000);
    const first = submit('a');
    await turn();
    expect(calls[0]!.remainingMs).to.equal(1000);
    clock.now = 100;
    const waiting = [submit('b')];
    clock.now = 300;
    waiting.push(submit('c'));
    clock.now = 700;
    echo(calls[0]!);
    await first;
    await turn();
    expect(calls[1]!.inputs).to.deep.equal(['b', 'c']);
    expect(calls[1]!.remainingMs, 'b has waited 600 of its 1000 ms').to.equal(400);
    echo(calls[1]!);
    expect(await Promise.all(waiting)).to.deep.equal(['answer:b', 'answer:c']);
  });
});
