import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { lockKey } from '../../src/catalogue/admin/catalogue-lock.js';
import { WATERMARK_ID, type Watermark, changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { finished, runScript, spawnScript, toNdjson, wallpapers } from '../support/catalogue-cli.js';
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
  const { es, dir, freshAlias } = feedSuite('lock-stall');
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

  let files = 0;
  function file(records: readonly unknown[]): string {
    const path = join(dir, `${++files}.ndjson`);
    writeFileSync(path, toNdjson(records));
    return path;
  }

  async function watermarkOf(alias: string): Promise<number> {
    return (await es.get<Watermark>({ index: changesIndexOf(alias), id: WATERMARK_ID }))._source!.change_seq;
  }

  async function storedIn(alias: string): Promise<number> {
    await es.indices.refresh({ index: alias });
    return (await es.count({ index: alias })).count;
  }

  /** An incremental import in small batches, paused on Redis's side once it is writing. */
  async function importAcrossStall(alias: string, stallMs: number) {
    expect((await runScript('import', [file(wallpapers(20))], { env: { INDEX_ALIAS: alias, REDIS_URL: server.url }, cwd: dir })).status).to.equal(0);
    const slow = wallpapers(600, { startId: 10_001 });
    const run = spawnScript('import', [file(slow), '--incremental', '--batch-size', '2', '--concurrency', '1'], {
      env: { INDEX_ALIAS: alias, REDIS_URL: server.url, REDIS_TIMEOUT_MS: '300' },
      cwd: dir,
    });
    const ended = finished(run);
    const opened = await watermarkOf(alias);
    for (let i = 0; i < 300 && (await watermarkOf(alias)) === opened; i++) await sleep(50);
    expect(await watermarkOf(alias), 'the run was writing').to.be.above(opened);
    server.pause();
    const frozenAt = await storedIn(alias);
    await sleep(stallMs);
    const duringStall = await storedIn(alias);
    server.resume();
    return { ended: await ended, frozenAt, duringStall, total: 20 + slow.length };
  }

  it('when Redis is frozen for several command timeouts mid-run, then the run waits, writes nothing meanwhile, and finishes every record', async () => {
    const alias = freshAlias();
    const { ended, total, frozenAt, duringStall } = await importAcrossStall(alias, 2500);
    // A batch whose lock was confirmed as Redis froze still lands: 2 records here.
    expect(duringStall - frozenAt, 'written while Redis was frozen').to.be.at.most(2);
    expect(ended.status, ended.stderr).to.equal(0);
    await es.indices.refresh({ index: alias });
    expect((await es.count({ index: alias })).count).to.equal(total);
    expect(await redis.exists(lockKey(alias)), 'the lock released at the end').to.equal(0);
  });
});
