import { expect } from 'chai';
import { watchWithdrawals } from '../../../../src/access/domain/withdrawal-watch.js';
import type { Withdrawal } from '../../../../src/access/store/withdrawal-log.js';
import { captureLogs } from '../../../support/log-capture.js';
import { until } from '../../../support/until.js';

/** A log of `entries` read two at a time, failing while `failure` is set. */
function fakeLog(entries: Withdrawal[]) {
  const log = {
    failure: null as Error | null,
    reads: 0,
    async readAfter(after: string) {
      log.reads += 1;
      if (log.failure) throw log.failure;
      // Entry i's id is `${i + 1}-0`: the log's ids start above '0-0'.
      const from = Number(after.split('-')[0]);
      const page = entries.slice(from, from + 2);
      return { last: page.length ? `${from + page.length}-0` : after, withdrawals: page };
    },
  };
  return log;
}

const key = (n: number): Withdrawal => ({ kind: 'key', hash: `h${n}`, fromMs: 0 });

describe('the watch on withdrawn keys', () => {
  it('when it starts, then it reads the whole log page by page, then only what is added, each withdrawal once', async () => {
    const entries = [key(1), key(2), key(3)];
    const log = fakeLog(entries);
    const seen: Withdrawal[] = [];
    const watch = watchWithdrawals({
      log,
      ready: () => true,
      onWithdrawal: (w) => seen.push(w),
      onTick: () => undefined,
      logger: captureLogs('info').logger,
      everyMs: 5,
    });
    try {
      expect(await until(async () => seen.length === 3, 2_000)).to.equal(true);
      entries.push(key(4));
      expect(await until(async () => seen.length === 4, 2_000)).to.equal(true);
      const reads = log.reads;
      expect(await until(async () => log.reads > reads + 3, 2_000)).to.equal(true);
      expect(seen.map((w) => (w.kind === 'key' ? w.hash : w.accountId))).to.deep.equal(['h1', 'h2', 'h3', 'h4']);
    } finally {
      watch.stop();
    }
  });

  it('when the log cannot be read, then it says so once, still ticks, and reads what it missed once the log answers', async () => {
    const log = fakeLog([key(1)]);
    log.failure = new Error('connect ECONNREFUSED');
    const logs = captureLogs('info');
    const seen: Withdrawal[] = [];
    let ticks = 0;
    const watch = watchWithdrawals({
      log,
      ready: () => true,
      onWithdrawal: (w) => seen.push(w),
      onTick: () => ticks++,
      logger: logs.logger,
      everyMs: 5,
    });
    try {
      expect(await until(async () => ticks > 5, 2_000)).to.equal(true);
      expect(seen).to.have.length(0);
      expect(logs.text().match(/cannot read withdrawn keys/g)).to.have.length(1);
      log.failure = null;
      expect(await until(async () => seen.length === 1, 2_000)).to.equal(true);
      expect(await until(async () => logs.text().includes('withdrawn keys readable again'), 2_000)).to.equal(true);
    } finally {
      watch.stop();
    }
  });

  it('when its connection is not up, then it skips the read without a word, and when stopped it reads no more', async () => {
    const log = fakeLog([key(1)]);
    let up = false;
    let ticks = 0;
    const logs = captureLogs('info');
    const watch = watchWithdrawals({ log, ready: () => up, onWithdrawal: () => undefined, onTick: () => ticks++, logger: logs.logger, everyMs: 5 });
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
