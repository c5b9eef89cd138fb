import { expect } from 'chai';
import { errors } from '@elastic/elasticsearch';
import { type NodeWatch, steeredNodeFilter } from '../../../src/infra/es-nodes.js';
import { type Attempt, HEDGE_DEFAULTS, type HedgeOptions, attemptTrailOf, createHedgedReads } from '../../../src/infra/hedged-reads.js';

const NODES = ['a', 'b', 'c'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Three nodes; `suspects` is what the probes would say; `becomeSuspect` is a probe going
 * unanswered, `leaveOut` a node left out for lost hedges (it still answers its probes).
 */
function fakeWatch() {
  const suspects = new Set<string>();
  const unanswering = new Set<string>();
  const blamed: string[] = [];
  const listeners: ((id: string) => void)[] = [];
  const watch: NodeWatch = {
    suspects: () => new Set(suspects),
    unanswering: () => new Set(unanswering),
    connections: () => NODES,
    preferenceAvoiding: (avoid) => (avoid.size === 0 ? undefined : `_prefer_nodes:${NODES.filter((n) => !avoid.has(n)).join(',')}`),
    blame: (id) => void blamed.push(id),
    onSuspect: (listener) => void listeners.push(listener),
    close: () => undefined,
  };
  return {
    watch,
    blamed,
    becomeSuspect: (id: string) => {
      suspects.add(id);
      unanswering.add(id);
      for (const listener of listeners) listener(id);
    },
    leaveOut: (id: string) => {
      suspects.add(id);
      for (const listener of listeners) listener(id);
    },
  };
}

interface Sent {
  coordinator: string;
  preference: string | undefined;
  aborted: () => boolean;
}

/**
 * A read the way the client runs it: the pool offers its nodes in order and the steered filter
 * picks the coordinator. `slow` decides how long an attempt takes from where it went (null: never answers).
 */
function fakeRead(slow: (sent: Sent) => number | null, sent: Sent[] = []) {
  return {
    sent,
    read: (attempt: Attempt) => {
      const coordinator = NODES.find((id) => steeredNodeFilter({ id }))!;
      const one = { coordinator, preference: attempt.preference, aborted: () => attempt.signal?.aborted ?? false };
      sent.push(one);
      const ms = slow(one);
      return new Promise<string>((resolve, reject) => {
        attempt.signal?.addEventListener('abort', () => reject(new errors.RequestAbortedError('aborted')));
        if (ms !== null) setTimeout(() => resolve(`answered by ${coordinator}`), ms);
      });
    },
  };
}

const FAST: HedgeOptions = { ...HEDGE_DEFAULTS, floorMs: 20, ceilingMs: 20 };

describe('createHedgedReads', () => {
  it('when there is one node, then a read runs once, as it is, with nothing to cancel it', async () => {
    const hedged = createHedgedReads(null, FAST);
    const { read, sent } = fakeRead(() => 40);
    expect(await hedged.run(read, 1000)).to.equal('answered by a');
    expect(sent).to.have.length(1);
    expect(hedged.stats().hedges).to.equal(0);
  });

  it('when the first attempt answers before the deadline, then no hedge is sent', async () => {
    const hedged = createHedgedReads(fakeWatch().watch, FAST);
    const { read, sent } = fakeRead(() => 1);
    for (let i = 0; i < 5; i++) await hedged.run(read, 1000);
    expect(sent).to.have.length(5);
    expect(sent.every((s) => s.preference === undefined)).to.equal(true);
    expect(hedged.stats()).to.include({ reads: 5, hedges: 0, won: 0 });
  });

  it('when the first attempt has not answered by the deadline, then a hedge goes elsewhere, wins, and the first is aborted', async () => {
    const { watch, blamed } = fakeWatch();
    const hedged = createHedgedReads(watch, FAST);
    const { read, sent } = fakeRead(({ coordinator }) => (coordinator === 'a' ? null : 1));
    const started = Date.now();
    expect(await hedged.run(read, 5000)).to.equal('answered by b');
    expect(Date.now() - started).to.be.below(1000);
    expect(sent.map((s) => s.coordinator)).to.deep.equal(['a', 'b']);
    expect(sent[1]!.preference).to.equal('_prefer_nodes:b,c');
    expect(sent[0]!.aborted()).to.equal(true);
    expect(blamed).to.deep.equal(['a']);
    expect(hedged.stats()).to.include({ hedges: 1, won: 1 });
  });

  it('when the hedge budget is spent, then a slow read waits for its first attempt and the skip is counted', async () => {
    const hedged = createHedgedReads(fakeWatch().watch, { ...FAST, burst: 1, share: 0 });
    const { read, sent } = fakeRead(({ coordinator }) => (coordinator === 'a' ? 80 : 1));
    await hedged.run(read, 5000);
    sent.length = 0;
    expect(await hedged.run(read, 5000)).to.equal('answered by a');
    expect(sent).to.have.length(1);
    expect(hedged.stats()).to.include({ hedges: 1, skipped: 1 });
  });

  it('when a node becomes a suspect, then reads that could wait on it are sent again steered clear of it, without budget', async () => {
    const { watch, becomeSuspect } = fakeWatch();
    const hedged = createHedgedReads(watch, { ...FAST, floorMs: 10_000, ceilingMs: 10_000, burst: 0 });
    // The shard copy on c hangs whoever coordinates: only an attempt steered off c answers.
    const { read, sent } = fakeRead(({ preference }) => (preference?.includes('c') === false ? 1 : null));
    const answer = hedged.run(read, 5000);
    await sleep(20);
    becomeSuspect('c');
    expect(await answer).to.equal('answered by a');
    expect(sent.map((s) => s.preference)).to.deep.equal([undefined, '_prefer_nodes:a,b']);
    expect(hedged.stats()).to.include({ rerouted: 1, hedges: 0 });
  });

  it('when a reroute answers a read that waited on a stopped node’s shard copy, then its healthy first coordinator is not blamed', async () => {
    const { watch, becomeSuspect, blamed } = fakeWatch();
    const hedged = createHedgedReads(watch, { ...FAST, floorMs: 10_000, ceilingMs: 10_000 });
    const { read } = fakeRead(({ preference }) => (preference?.includes('c') === false ? 1 : null));
    const answer = hedged.run(read, 5000);
    await sleep(20);
    becomeSuspect('c');
    await answer;
    expect(blamed).to.deep.equal([]);
  });

  it('when a node stops answering while another is left out for lost hedges, then reads avoid the stopped node’s copies only', async () => {
    const { watch, becomeSuspect, leaveOut } = fakeWatch();
    leaveOut('c');
    const hedged = createHedgedReads(watch, { ...FAST, floorMs: 10_000, ceilingMs: 10_000, burst: 0 });
    // A shard with copies on a and c: a preference naming b alone leaves Elasticsearch to pick
    // either, so only an attempt that still prefers c answers.
    const { read, sent } = fakeRead(({ preference }) => (preference?.includes('c') && !preference.includes('a') ? 1 : null));
    const answer = hedged.run(read, 5000);
    await sleep(20);
    becomeSuspect('a');
    expect(await answer).to.equal('answered by b');
    expect(sent.map((s) => [s.coordinator, s.preference])).to.deep.equal([
      ['a', '_prefer_nodes:a,b'],
      ['b', '_prefer_nodes:b,c'],
    ]);
  });

  it('when every node is a suspect but only one does not answer, then reads still keep clear of that one', async () => {
    const { watch, becomeSuspect, leaveOut } = fakeWatch();
    leaveOut('a');
    leaveOut('b');
    becomeSuspect('c');
    const hedged = createHedgedReads(watch, FAST);
    const { read, sent } = fakeRead(() => 1);
    expect(await hedged.run(read, 1000)).to.equal('answered by a');
    expect(sent[0]!.preference).to.equal('_prefer_nodes:a,b');
  });

  it('when a node is a suspect already, then first attempts are steered clear of it', async () => {
    const { watch, becomeSuspect } = fakeWatch();
    becomeSuspect('a');
    const hedged = createHedgedReads(watch, FAST);
    const { read, sent } = fakeRead(() => 1);
    expect(await hedged.run(read, 1000)).to.equal('answered by b');
    expect(sent[0]!.preference).to.equal('_prefer_nodes:b,c');
  });

  it('when every node is a suspect, then the read goes wherever the client sends it', async () => {
    const { watch, becomeSuspect } = fakeWatch();
    for (const node of NODES) becomeSuspect(node);
    const { read, sent } = fakeRead(() => 1);
    expect(await createHedgedReads(watch, FAST).run(read, 1000)).to.equal('answered by a');
    expect(sent[0]!.preference).to.equal(undefined);
  });

  it('when an attempt steered clear of the suspects finds no node left and no attempt may follow, then the read fails rather than waits', async () => {
    const { watch, becomeSuspect } = fakeWatch();
    becomeSuspect('a');
    const hedged = createHedgedReads(watch, { ...FAST, maxAttempts: 1 });
    const err = await hedged
      .run(() => Promise.reject(new errors.NoLivingConnectionsError('There are no living connections', {} as never)), 1000)
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(errors.NoLivingConnectionsError);
  });

  it('when an attempt steered clear of the suspects finds no node left, then the read goes again wherever the client sends it', async () => {
    const { watch, becomeSuspect } = fakeWatch();
    becomeSuspect('a');
    const seen: (string | undefined)[] = [];
    const read = (attempt: Attempt) => {
      seen.push(attempt.preference);
      return seen.length === 1
        ? Promise.reject(new errors.NoLivingConnectionsError('There are no living connections', {} as never))
        : Promise.resolve('answered');
    };
    expect(await createHedgedReads(watch, FAST).run(read, 1000)).to.equal('answered');
    expect(seen).to.deep.equal(['_prefer_nodes:b,c', undefined]);
  });

  it('when the first attempt is refused as a bad request, then the read fails at once with that refusal', async () => {
    const hedged = createHedgedReads(fakeWatch().watch, FAST);
    const refusal = new errors.ResponseError({ statusCode: 400, body: {}, headers: {}, warnings: null, meta: {} as never });
    const err = await hedged.run(() => Promise.reject(refusal), 1000).catch((e: unknown) => e);
    expect(err).to.equal(refusal);
  });

  it('when every attempt fails with a node’s own trouble, then it is tried once more elsewhere and then fails with the first attempt’s error', async () => {
    const hedged = createHedgedReads(fakeWatch().watch, FAST);
    const { read: where, sent } = fakeRead(() => null);
    let n = 0;
    const read = (attempt: Attempt) => {
      void where(attempt).catch(() => undefined);
      const mine = ++n;
      return sleep(mine === 1 ? 60 : 5).then(() => Promise.reject(new errors.ConnectionError(`attempt ${mine}`)));
    };
    const err = await hedged.run(read, 1000).catch((e: unknown) => e);
    expect((err as Error).message).to.equal('attempt 1');
    // The first, its hedge past the deadline, and one retry once both had failed: each away from the ones before.
    expect(sent.map((s) => s.coordinator)).to.deep.equal(['a', 'b', 'c']);
    expect(hedged.stats()).to.include({ hedges: 1, retried: 1 });
    // What the log says of it: each attempt, where it went, when it ended and how.
    expect(attemptTrailOf(err)).to.match(
      /^first@a \d+-\d+ ConnectionError; hedge@b avoiding a \d+-\d+ ConnectionError; retry@c avoiding a,b \d+-\d+ ConnectionError; suspects: none$/,
    );
  });

  it('when a node refuses an attempt with 429 while another attempt is in flight, then the read waits for that one', async () => {
    const hedged = createHedgedReads(fakeWatch().watch, FAST);
    const busy = new errors.ResponseError({ statusCode: 429, body: {}, headers: {}, warnings: null, meta: {} as never });
    const { read: where } = fakeRead(() => null);
    let n = 0;
    const read = (attempt: Attempt) => {
      void where(attempt).catch(() => undefined);
      return ++n === 1 ? sleep(40).then(() => Promise.reject(busy)) : sleep(80).then(() => 'answered by the hedge');
    };
    expect(await hedged.run(read, 1000)).to.equal('answered by the hedge');
  });

  it('when reads have been slow for a while, then the deadline follows their 99th percentile within its floor and ceiling', async () => {
    const hedged = createHedgedReads(fakeWatch().watch, { ...HEDGE_DEFAULTS, floorMs: 5, ceilingMs: 30, burst: 0 });
    expect(hedged.stats().deadlineMs).to.equal(5);
    // 13 ms asked: a timer may fire up to a millisecond early by the monotonic clock the deadline reads.
    const { read } = fakeRead(() => 13);
    await Promise.all(Array.from({ length: 20 }, () => hedged.run(read, 1000)));
    await sleep(1000);
    expect(hedged.stats().deadlineMs).to.be.within(12, 30);
  });
});
