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

const key = (n: number): Withdrawal => ({ kind: 'key', hash: `h${n}`, fromMs: 0, writtenMs: n });

describe('the watch on withdrawn keys', () => {
  it('when it starts, then it reads the whole log page by page, then only what is added, each withdrawal once', async () => {
    const entries = [key(1), key(2), key(3)];
    const log = fakeLog(entries);
    const seen: Withdrawal[] = [];
    const watch = watchWithdrawals({
      log,
      ready: () => true,
      onWithdrawal: (w) => seen.push(w),
      onGap: () => undefined,
      logger: captureLogs('info').logger,
      everyMs: 5,
    });
    try {
      expect(await until(async () => seen.length === 3, 2_000)).to.equal(true);
      entries.push(key(4));
      expect(await until(async () => seen.length === 4, 2_000)).to.equal(true);
      const reads = log.reads;
      expect(await until(async () => log.reads > reads + 3, 2_000)).to.equal(true);
      expect(hashes(seen)).to.deep.equal(['h1', 'h2', 'h3', 'h4']);
    } finally {
      watch.stop();
    }
  });

  it('when the log cannot be read, then it says so once, keeps trying, and reads what it missed once the log answers, with no gap', async () => {
    const entries = [key(1)];
    const log = fakeLog(entries);
    const logs = captureLogs('info');
    const seen: Withdrawal[] = [];
    let gaps = 0;
    const watch = watchWithdrawals({
      log,
      ready: () => true,
      onWithdrawal: (w) => seen.push(w),
      onGap: () => gaps++,
      logger: logs.logger,
      everyMs: 5,
    });
    try {
      expect(await until(async () => seen.length === 1, 2_000)).to.equal(true);
      log.failure = new Error('connect ECONNREFUSED');
      entries.push(key(2));
      const reads = log.reads;
      expect(await until(async () => log.reads > reads + 5, 2_000)).to.equal(true);
      expect(seen).to.have.length(1);
      expect(logs.text().match(/cannot read withdrawn keys/g)).to.have.length(1);
      log.failure = null;
      expect(await until(async () => seen.length === 2, 2_000)).to.equal(true);
      expect(await until(async () => logs.text().includes('withdrawn keys readable again'), 2_000)).to.equal(true);
      expect(gaps).to.equal(0);
    } finally {
      watch.stop();
    }
  });

  it('when the log was trimmed past what it had read while it could not read, then it says there is a gap, once, and reads on from the oldest kept', async () => {
    const entries = [key(1)];
    const log = fakeLog(entries);
    const seen: Withdrawal[] = [];
    let gaps = 0;
    const watch = watchWithdrawals({
      log,
      ready: () => true,
      onWithdrawal: (w) => seen.push(w),
      onGap: () => gaps++,
      logger: captureLogs('info').logger,
      everyMs: 5,
    });
    try {
      expect(await until(async () => seen.length === 1, 2_000)).to.equal(true);
      log.failure = new Error('connect ECONNREFUSED');
      entries.push(key(2), key(3), key(4));
      log.trimmed = 2;
      await new Promise((resolve) => setTimeout(resolve, 30));
      log.failure = null;
      expect(await until(async () => seen.length === 3, 2_000)).to.equal(true);
      expect(hashes(seen)).to.deep.equal(['h1', 'h3', 'h4']);
      expect(gaps).to.equal(1);
    } finally {
      watch.stop();
    }
  });

  it('when its connection is not up, then it skips the read without a word, and when stopped it reads no more', async () => {
    const log = fakeLog([key(1)]);
    let up = false;
    let ticks = 0;
    const logs = captureLogs('info');
    const watch = watchWithdrawals({
      log,
      ready: () => (ticks++, up),
      onWithdrawal: () => undefined,
      onGap: () => undefined,
      logger: logs.logger,
      everyMs: 5,
    });
    expect(await until(async () => ticks > 3, 2_000)).to.equal(true);
    expect(log.reads).to.equal(0);
    expect(logs.text()).to.equal('');
    up = true;
    expect(await until(async () => log.reads > 0, 2_000)).to.equal(true);
    watch.stop();
    const reads = log.reads;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.reads).to.be.at.most(reads + 1);
  });
});
