import { expect } from 'chai';
import { watchWithdrawals } from '../../../../src/access/domain/withdrawal-watch.js';
import type { Withdrawal } from '../../../../src/access/store/withdrawal-log.js';
import { captureLogs } from '../../../support/log-capture.js';
import { until } from '../../../support/until.js';

/** A log of `entries` read two at a time, failing while `failure` is set, its first `trimmed` entries gone; `reads` counts every ask. */
function fakeLog(entries: Withdrawal[]) {
  const log = {
    failure: null as Error | null,
    trimmed: 0,
    reads: 0,
    async readAfter(after: string) {
      log.reads += 1;
      if (log.failure) throw log.failure;
      // Entry i's id is `${i + 1}-0`: the log's ids start above '0-0'.
      const from = Math.max(Number(after.split('-')[0]), log.trimmed);
      const page = entries.slice(from, from + 2);
      return { last: page.length ? `${from + page.length}-0` : after, withdrawals: page };
    },
    async oldest() {
      log.reads += 1;
      if (log.failure) throw log.failure;
      return entries.length > log.trimmed ? `${log.trimmed + 1}-0` : null;
    },
  };
  return log;
}

const hashes = (seen: Withdrawal[]) => seen.map((w) => (w.kind === 'key' ? w.hash : w.accountId));

/** A watch every 5 ms on a fake log of `entries`, with what it heard and said. */
function watchOn(entries: Withdrawal[], ready: () => boolean = () => true) {
  const log = fakeLog(entries);
  const logs = captureLogs('info');
  const heard = { log, logs, seen: [] as Withdrawal[], gaps: 0 };
  const watch = watchWithdrawals({
    log,
    ready,
    onWithdrawal: (w) => heard.seen.push(w),
    onGap: () => heard.gaps++,
    logger: logs.logger,
    everyMs: 5,
  });
  return { heard, stop: () => watch.stop() };
}

const key = (n: number): Withdrawal => ({ kind: 'key', hash: `h${n}`, fromMs: 0, writtenMs: n });

describe('the watch on withdrawn keys', () => {
  it('when it starts, then it reads the whole log page by page, then only what is added, each withdrawal once', async () => {
    const entries = [key(1), key(2), key(3)];
    const { heard, stop } = watchOn(entries);
    try {
      expect(await until(async () => heard.seen.length === 3, 2_000)).to.equal(true);
      entries.push(key(4));
      expect(await until(async () => heard.seen.length === 4, 2_000)).to.equal(true);
      const reads = heard.log.reads;
      expect(await until(async () => heard.log.reads > reads + 3, 2_000)).to.equal(true);
      expect(hashes(heard.seen)).to.deep.equal(['h1', 'h2', 'h3', 'h4']);
    } finally {
      stop();
    }
  });

  it('when the log cannot be read, then it says so once, keeps trying, and reads what it missed once the log answers, with no gap', async () => {
    const entries = [key(1)];
    const { heard, stop } = watchOn(entries);
    try {
      expect(await until(async () => heard.seen.length === 1, 2_000)).to.equal(true);
      heard.log.failure = new Error('connect ECONNREFUSED');
      entries.push(key(2));
      const reads = heard.log.reads;
      expect(await until(async () => heard.log.reads > reads + 5, 2_000)).to.equal(true);
      expect(heard.seen).to.have.length(1);
      expect(heard.logs.text().match(/cannot read withdrawn keys/g)).to.have.length(1);
      heard.log.failure = null;
      expect(await until(async () => heard.seen.length === 2, 2_000)).to.equal(true);
      expect(await until(async () => heard.logs.text().includes('withdrawn keys readable again'), 2_000)).to.equal(true);
      expect(heard.gaps).to.equal(0);
    } finally {
      stop();
    }
  });

  it('when the log was trimmed past what it had read while it could not read, then it says there is a gap, once, and reads on from the oldest kept', async () => {
    const entries = [key(1)];
    const { heard, stop } = watchOn(entries);
    try {
      expect(await until(async () => heard.seen.length === 1, 2_000)).to.equal(true);
      heard.log.failure = new Error('connect ECONNREFUSED');
      entries.push(key(2), key(3), key(4));
      heard.log.trimmed = 2;
      await new Promise((resolve) => setTimeout(resolve, 30));
      heard.log.failure = null;
      expect(await until(async () => heard.seen.length === 3, 2_000)).to.equal(true);
      expect(hashes(heard.seen)).to.deep.equal(['h1', 'h3', 'h4']);
      expect(heard.gaps).to.equal(1);
    } finally {
      stop();
    }
  });

  it('when more entries than the log keeps are written between two reads, then it says there is a gap', async () => {
    const entries = [key(1)];
    const { heard, stop } = watchOn(entries);
    try {
      expect(await until(async () => heard.seen.length === 1, 2_000)).to.equal(true);
      entries.push(key(2), key(3), key(4));
      heard.log.trimmed = 2;
      expect(await until(async () => heard.seen.length === 3, 2_000)).to.equal(true);
      expect(heard.gaps).to.equal(1);
      expect(heard.logs.text()).to.equal('');
    } finally {
      stop();
    }
  });

  it('when its connection is not up, then it skips the read without a word, and when stopped it reads no more', async () => {
    let up = false;
    let ticks = 0;
    const { heard, stop } = watchOn([key(1)], () => (ticks++, up));
    expect(await until(async () => ticks > 3, 2_000)).to.equal(true);
    expect(heard.log.reads).to.equal(0);
    expect(heard.logs.text()).to.equal('');
    up = true;
    expect(await until(async () => heard.log.reads > 0, 2_000)).to.equal(true);
    stop();
    const reads = heard.log.reads;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.log.reads).to.be.at.most(reads + 1);
  });
});
