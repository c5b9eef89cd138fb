import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { readLockHolder } from '../../src/catalogue/admin/catalogue-lock.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { aliasTargets, finished, runScript, spawnScript, stateOf, waitForOutput } from '../support/catalogue-cli.js';
import { type EsGate, startEsGate } from '../support/es-gate.js';
import { connectEs, dropIndicesOf, readyRedis, testConfig, uniqueName } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const DOCS = 60_000;
const SMALL_BATCHES = ['--batch-size', '50', '--concurrency', '1'];

/**
 * Starts a reindex through a gate in front of Elasticsearch that lets its count and first two pages
 * through, then holds the next page: the copy is caught half-way by construction, however fast the
 * machine. Resolves once the gate holds that page, with the new index's name.
 */
async function reindexUnderway(gate: EsGate, alias: string) {
  gate.hold({ after: 3 });
  const child = spawnScript('reindex', SMALL_BATCHES, { env: { INDEX_ALIAS: alias, ELASTICSEARCH_URL: gate.url } });
  const done = finished(child);
  const output = await waitForOutput(child, /into new index \S+/);
  await gate.holding(1);
  const index = /into new index (\S+)/.exec(output)?.[1] as string;
  return { child, done, index };
}

describe('reindex crash safety', function () {
  this.timeout(120_000);
  const alias = uniqueName('test-reindex-crash');
  let redis: Redis;
  let gate: EsGate;
  let live = '';

  before(async () => {
    redis = await readyRedis();
    gate = await startEsGate(testConfig().elasticsearchUrl);
    live = (await seedCatalogue(es, { alias, count: DOCS, seed: 3, imageBaseUrl: 'https://images.wallpapers.example', keep: 5 })).index;
  });

  after(async () => {
    await gate.close();
    await dropIndicesOf(es, alias);
    await es.close();
    redis.disconnect();
  });

  describe('while a reindex is copying', () => {
    let underway: Awaited<ReturnType<typeof reindexUnderway>>;

    before(async () => {
      underway = await reindexUnderway(gate, alias);
    });

    after(() => {
      gate.open();
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
      gate.open();
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
      const { child, done, index } = await reindexUnderway(gate, alias);
      orphan = index;
      pid = child.pid as number;
      child.kill('SIGKILL');
      expect((await done).signal).to.equal('SIGKILL');
      gate.open();
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
      expect(run.stderr).to.include(`removed ${orphan}, left unfinished by an earlier run that stopped`);
      expect(await es.indices.exists({ index: orphan })).to.equal(false);
      const [now] = await aliasTargets(es, alias);
      expect(now).to.not.equal(live);
      expect((await es.count({ index: alias })).count).to.equal(DOCS);
      expect(await readLockHolder(redis, alias)).to.equal(null);
    });
  });
});
