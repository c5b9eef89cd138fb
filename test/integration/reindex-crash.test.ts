import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { readLockHolder } from '../../src/catalogue/admin/catalogue-lock.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { aliasTargets, finished, runScript, spawnScript, stateOf, waitForOutput } from '../support/catalogue-cli.js';
import { connectEs, dropIndicesOf, readyRedis, uniqueName } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const DOCS = 60_000;
// Tiny batches one at a time: the copy lasts long past the first progress line (2 s), so it is caught half-way.
const SLOW = ['--batch-size', '50', '--concurrency', '1'];

/** Starts a slow reindex and resolves once its progress shows documents copied, with the new index's name. */
async function reindexUnderway(alias: string) {
  const child = spawnScript('reindex', SLOW, { env: { INDEX_ALIAS: alias } });
  const done = finished(child);
  const output = await waitForOutput(child, new RegExp(`^copied [1-9]\\d*/${DOCS} `, 'm'));
  const index = /into new index (\S+)/.exec(output)?.[1] as string;
  return { child, done, index };
}

describe('reindex crash safety', function () {
  this.timeout(120_000);
  const alias = uniqueName('test-reindex-crash');
  let redis: Redis;
  let live = '';

  before(async () => {
    redis = await readyRedis();
    live = (await seedCatalogue(es, { alias, count: DOCS, seed: 3, imageBaseUrl: 'https://images.wallpapers.example', keep: 5 })).index;
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
    redis.disconnect();
  });

  describe('while a reindex is copying', () => {
    let underway: Awaited<ReturnType<typeof reindexUnderway>>;

    before(async () => {
      underway = await reindexUnderway(alias);
    });

    after(() => {
      if (underway?.child.exitCode === null && underway.child.signalCode === null) underway.child.kill('SIGKILL');
    });

    it('when a second reindex starts, then it is refused with exit 3 naming the running one', async () => {
      const second = await runScript('reindex', [], { env: { INDEX_ALIAS: alias } });
      expect(second.status, second.stderr).to.equal(3);
      expect(second.stderr).to.include(`holds wpc:catalogue-lock:${alias}: reindex (pid ${underway.child.pid} on`);
      expect(await aliasTargets(es, alias)).to.deep.equal([live]);
    });

    it('when it is stopped with SIGTERM, then it deletes the new index, releases the lock and leaves the alias', async () => {
      underway.child.kill('SIGTERM');
      const run = await underway.done;
      expect(run.status, run.stderr).to.equal(143);
      expect(run.stderr).to.include(`interrupted by SIGTERM; alias ${alias} left unchanged, ${underway.index} deleted`);
      expect(await es.indices.exists({ index: underway.index })).to.equal(false);
      expect(await aliasTargets(es, alias)).to.deep.equal([live]);
      expect(await readLockHolder(redis, alias)).to.equal(null);
    });
  });

  describe('killed with SIGKILL mid-copy', () => {
    let orphan = '';
    let pid = 0;

    before(async () => {
      const { child, done, index } = await reindexUnderway(alias);
      orphan = index;
      pid = child.pid as number;
      child.kill('SIGKILL');
      expect((await done).signal).to.equal('SIGKILL');
    });

    it('when killed, then the alias still points at the old index and the half-built one is marked building', async () => {
      expect(await aliasTargets(es, alias)).to.deep.equal([live]);
      expect((await es.count({ index: alias })).count).to.equal(DOCS);
      expect(await stateOf(es, orphan)).to.equal('building');
      expect((await es.count({ index: orphan })).count).to.be.below(DOCS);
      expect(await readLockHolder(redis, alias)).to.include({ command: 'reindex', pid });
    });

    it('when the next reindex runs, then it takes over the dead run`s lock, removes the orphan, reports both and completes', async () => {
      const run = await runScript('reindex', [], { env: { INDEX_ALIAS: alias } });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stderr).to.include(`from reindex (pid ${pid} on`);
      expect(run.stderr).to.include('which no longer runs');
      expect(run.stderr).to.include(`removed ${orphan}, left unfinished by an earlier run that was killed`);
      expect(await es.indices.exists({ index: orphan })).to.equal(false);
      const [now] = await aliasTargets(es, alias);
      expect(now).to.not.equal(live);
      expect((await es.count({ index: alias })).count).to.equal(DOCS);
      expect(await readLockHolder(redis, alias)).to.equal(null);
    });
  });
});
