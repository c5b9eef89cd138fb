import { expect } from 'chai';
import { Redis } from 'ioredis';
import { lockKey } from '../../src/catalogue/admin/catalogue-lock.js';
import { finished, runScript, spawnScript, wallpapers } from '../support/catalogue-cli.js';
import { feedSuite } from '../support/feed-reader.js';
import { RedisServer } from '../support/redis-server.js';
import { sleep } from '../support/until.js';

/**
 * A run confirms its lock before every write. Redis frozen for longer than a command's timeout
 * (a failover, a fork for a snapshot on a large instance, a stalled VM) is not a lost lock: the
 * run waits for an answer, without writing, for as long as its lease may still hold, and only
 * then stops, saying why.
 */
describe('the catalogue lock when Redis stalls during a run', function () {
  this.timeout(180_000);
  const { es, dir, freshAlias, file, watermarkOf } = feedSuite('lock-stall');
  let server: RedisServer;
  let redis: Redis;
  before(async () => {
    server = await RedisServer.start();
    redis = new Redis(server.url);
  });
  after(async () => {
    redis.disconnect();
    await server.destroy();
  });

  async function storedIn(alias: string): Promise<number> {
    await es.indices.refresh({ index: alias });
    return (await es.count({ index: alias })).count;
  }

  /** An incremental import in small batches, and Redis paused on its side once the run is writing. */
  async function freezeRedisMidRun(alias: string) {
    expect((await runScript('import', [file(wallpapers(20))], { env: { INDEX_ALIAS: alias, REDIS_URL: server.url }, cwd: dir })).status).to.equal(0);
    // Long enough (about 7 s on an idle machine) that Redis freezes mid-run: the watermark first
    // moves at the run's first commit, a second in, and 600 records had all been written by then.
    const slow = wallpapers(4000, { startId: 10_001 });
    const run = spawnScript('import', [file(slow), '--incremental', '--batch-size', '2', '--concurrency', '1'], {
      env: { INDEX_ALIAS: alias, REDIS_URL: server.url },
      cwd: dir,
    });
    const ended = finished(run);
    let over = false;
    void ended.then(() => (over = true));
    const opened = await watermarkOf(alias);
    for (let i = 0; i < 300 && (await watermarkOf(alias)) === opened; i++) await sleep(50);
    expect(await watermarkOf(alias), 'the run was writing').to.be.above(opened);
    server.pause();
    expect(over, 'the run was still writing when Redis froze').to.equal(false);
    const frozenAt = await storedIn(alias);
    return { run, ended, frozenAt, total: 20 + slow.length };
  }

  // The tools' Redis commands time out after 2 s (REDIS_TIMEOUT_MS, at least 2 s for them): a
  // freeze of 4 s is two of them.
  it('when Redis is frozen for two command timeouts mid-run, then the run says it waits, writes nothing meanwhile, and finishes every record', async () => {
    const alias = freshAlias();
    const { ended, total, frozenAt } = await freezeRedisMidRun(alias);
    await sleep(4000);
    const duringStall = await storedIn(alias);
    server.resume();
    const { status, stderr } = await ended;
    // A batch whose lock was confirmed as Redis froze still lands: 2 records here.
    expect(duringStall - frozenAt, 'written while Redis was frozen').to.be.at.most(2);
    expect(status, stderr).to.equal(0);
    expect(stderr, stderr).to.match(
      /import: Redis is not answering the catalogue lock's renewal \(Command timed out\); the run writes nothing more until it does, for up to \d+ s\n/,
    );
    const silence = /import: Redis answered the catalogue lock again after (\d+\.\d) s of silence\n/.exec(stderr);
    expect(silence, stderr).to.not.equal(null);
    // Counted from the sending of the first renewal left unanswered, so the freeze, not the freeze
    // less the command timeout it took to notice.
    expect(Number(silence![1]), 'the silence told').to.be.within(3.0, 6.0);
    await es.indices.refresh({ index: alias });
    expect((await es.count({ index: alias })).count).to.equal(total);
    expect(await redis.exists(lockKey(alias)), 'the lock released at the end').to.equal(0);
  });

  it('when the operator presses Ctrl-C while the run waits for a frozen Redis, then it stops within seconds as interrupted (130), writing nothing more', async () => {
    const alias = freshAlias();
    const { run, ended, frozenAt } = await freezeRedisMidRun(alias);
    try {
      // Past one command timeout: the run is waiting on the lock.
      await sleep(3000);
      const interruptedAt = performance.now();
      run.kill('SIGINT');
      const { status, stderr } = await ended;
      const tookMs = performance.now() - interruptedAt;
      expect(status, stderr).to.equal(130);
      // Its lock's release is given up after Redis's 2 s command timeout; the lease is 30 s.
      expect(tookMs, 'not at the end of the lease').to.be.below(10_000);
      expect(stderr).to.include('interrupted by SIGINT');
      expect((await storedIn(alias)) - frozenAt, 'written after Redis froze').to.be.at.most(2);
    } finally {
      server.resume();
    }
  });
});
