import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { acquireCatalogueLock, LockHeldError, LockLostError, lockKey, readLockHolder } from '../../src/catalogue/admin/catalogue-lock.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { aliasTargets, runScript, toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { connectEs, dropIndicesOf, readyRedis, uniqueName } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
let redis: Redis;

/** A pid that surely belongs to no running process: one that has just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the catalogue lock', function () {
  this.timeout(60_000);

  before(async () => {
    redis = await readyRedis();
  });

  after(async () => {
    redis.disconnect();
    await es.close();
  });

  describe('acquireCatalogueLock', () => {
    it('when the lock is held, then a second acquisition fails naming the holder, and succeeds after release', async () => {
      const alias = uniqueName('test-lock');
      const first = await acquireCatalogueLock(redis, alias, 'reindex');
      const error = await acquireCatalogueLock(redis, alias, 'import').catch((e: unknown) => e);
      expect(error).to.be.instanceOf(LockHeldError);
      expect((error as LockHeldError).message).to.include(`reindex (pid ${process.pid} on ${hostname()}`);
      await first.release();
      const second = await acquireCatalogueLock(redis, alias, 'import');
      expect(await readLockHolder(redis, alias)).to.include({ command: 'import', token: second.holder.token });
      await second.release();
      expect(await readLockHolder(redis, alias)).to.equal(null);
    });

    it('when the lock is renewed, then it outlives its TTL while held', async () => {
      const alias = uniqueName('test-lock');
      // Renewed every 100 ms with 2 s to spare, so only a stall of 1.9 s could let it lapse. It must
      // be seen renewed twice (its TTL rising) and still held after more than twice its TTL.
      const ttlMs = 2000;
      const lock = await acquireCatalogueLock(redis, alias, 'reindex', { ttlMs, renewEveryMs: 100 });
      const acquiredAt = Date.now();
      let rises = 0;
      let last = await redis.pttl(lockKey(alias));
      while (Date.now() - acquiredAt <= 2 * ttlMs || rises < 2) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        const pttl = await redis.pttl(lockKey(alias));
        expect(pttl, 'the lock never lapses while held').to.be.greaterThan(0);
        if (pttl > last) rises++;
        last = pttl;
      }
      expect(await readLockHolder(redis, alias)).to.include({ token: lock.holder.token });
      await lock.confirm();
      await lock.release();
    });

    it('when the lock expired and another run took it, then the first run learns it lost the lock and cannot release the new one', async () => {
      const alias = uniqueName('test-lock');
      const lock = await acquireCatalogueLock(redis, alias, 'reindex', { ttlMs: 60_000 });
      await redis.set(lockKey(alias), 'someone else');
      const error = await lock.confirm().catch((e: unknown) => e);
      expect(error).to.be.instanceOf(LockLostError);
      expect(lock.lost.aborted).to.equal(true);
      await lock.release();
      expect(await redis.get(lockKey(alias))).to.equal('someone else');
      await redis.del(lockKey(alias));
    });

    it('when the holder was a process of this host that no longer exists, then the lock is taken over and the holder named', async () => {
      const alias = uniqueName('test-lock');
      const gone = {
        command: 'reindex',
        host: hostname(),
        pid: deadPid(),
        since: '2026-01-01T00:00:00.000Z',
        token: 'killed',
        pidns: readlinkSync('/proc/self/ns/pid'),
      };
      await redis.set(lockKey(alias), JSON.stringify(gone), 'PX', 60_000);
      const lock = await acquireCatalogueLock(redis, alias, 'import');
      expect(lock.tookOver).to.deep.equal(gone);
      expect(lock.holder.pidns, 'a holder names its namespace').to.equal(gone.pidns);
      await lock.release();
    });

    it('when the holder is of another PID namespace on a host of the same name (a container on the host`s network), or names none, then it is not taken for gone', async () => {
      for (const pidns of ['pid:[4026530000]', undefined]) {
        const alias = uniqueName('test-lock');
        const elsewhere = { command: 'import', host: hostname(), pid: deadPid(), since: '2026-01-01T00:00:00.000Z', token: 'live', pidns };
        await redis.set(lockKey(alias), JSON.stringify(elsewhere), 'PX', 60_000);
        const refused = await acquireCatalogueLock(redis, alias, 'import').then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused, String(pidns)).to.be.instanceOf(LockHeldError);
        await redis.del(lockKey(alias));
      }
    });
  });

  describe('the CLIs', () => {
    const alias = uniqueName('test-lock-cli');
    const dir = mkdtempSync(join(tmpdir(), 'wpc-lock-'));
    const path = join(dir, 'records.ndjson');
    let live = '';

    before(async () => {
      writeFileSync(path, toNdjson(wallpapers(10)));
      live = (await seedCatalogue(es, { alias, count: 100, seed: 1, imageBaseUrl: 'https://images.wallpapers.example', keep: 2 })).index;
    });

    after(async () => {
      await dropIndicesOf(es, alias);
      rmSync(dir, { recursive: true, force: true });
    });

    for (const [label, script, args] of [
      ['reindex', 'reindex', []],
      ['reindex --rollback', 'reindex', ['--rollback']],
      ['import <file>', 'import', [path]],
      ['import <file> --incremental', 'import', [path, '--incremental']],
      ['seed', 'seed', ['--count', '10']],
    ] as const) {
      it(`when another run holds the lock, then ${label} refuses with exit 3 naming the holder and changes nothing`, async () => {
        const lock = await acquireCatalogueLock(redis, alias, 'reindex');
        try {
          const run = await runScript(script, [...args], { env: { INDEX_ALIAS: alias } });
          expect(run.status, run.stderr).to.equal(3);
          expect(run.stderr).to.include(`another catalogue run holds ${lockKey(alias)}: reindex (pid ${process.pid} on ${hostname()}`);
          expect(run.stderr).to.include('refusing to run alongside it');
          expect(await aliasTargets(es, alias)).to.deep.equal([live]);
          expect((await es.count({ index: alias })).count).to.equal(100);
        } finally {
          await lock.release();
        }
      });
    }

    it('when a run finishes, then it has released the lock', async () => {
      const run = await runScript('import', [path, '--allow-deletes', 'all'], { env: { INDEX_ALIAS: alias } });
      expect(run.status, run.stderr).to.equal(0);
      expect(await readLockHolder(redis, alias)).to.equal(null);
    });

    it('when a dry run meets a held lock, then it still answers and mentions the holder', async () => {
      const lock = await acquireCatalogueLock(redis, alias, 'import');
      try {
        const run = await runScript('reindex', ['--dry-run'], { env: { INDEX_ALIAS: alias } });
        expect(run.status, run.stderr).to.equal(0);
        expect(run.stderr).to.match(/the catalogue lock is held by import .*; a real run would be refused now/);
        // The holder's index being built is no orphan of a killed run.
        expect(run.stderr).to.not.include('would remove orphaned indices');
      } finally {
        await lock.release();
      }
    });
  });
});
