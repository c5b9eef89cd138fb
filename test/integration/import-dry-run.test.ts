import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { acquireCatalogueLock } from '../../src/catalogue/admin/catalogue-lock.js';
import type { Reject } from '../../src/catalogue/ingest/ndjson-records.js';
import { changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { aliasTargets, catalogueScratch, indicesOf, runScript, wallpapers } from '../support/catalogue-cli.js';
import { connectEs, readyRedis } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const { dir, freshAlias, file, cleanUp } = catalogueScratch('dry-run');

const importFile = (alias: string, args: string[]) => runScript('import', args, { env: { INDEX_ALIAS: alias }, cwd: dir });

/** Everything an import could change: the indices, where the alias points, every document, the change feed's record. */
async function catalogueState(alias: string): Promise<unknown> {
  await es.indices.refresh({ index: `${alias}*` });
  const documents = await es.search({ index: alias, size: 1000, sort: [{ id: 'asc' }], _source: { excludes: ['embedding'] } });
  const record = changesIndexOf(alias);
  const changes = (await es.indices.exists({ index: record })) ? await es.search({ index: record, size: 1000, sort: ['_doc'] }) : null;
  return {
    indices: await indicesOf(es, alias),
    live: await aliasTargets(es, alias),
    documents: documents.hits.hits.map((hit) => hit._source),
    changes: changes?.hits.hits.map((hit) => [hit._id, hit._source]) ?? null,
  };
}

describe('npm run import -- --dry-run', function () {
  this.timeout(60_000);
  const original = wallpapers(50);
  const alias = freshAlias();

  before(async () => {
    const first = await importFile(alias, [file('original.ndjson', original)]);
    expect(first.status, first.stderr).to.equal(0);
  });

  after(async () => {
    await cleanUp(es);
    await es.close();
  });

  it('when a full import is tried, then it says what would be new, changed, unchanged and deleted, and writes nothing', async () => {
    const changed = original.slice(0, 3).map((record) => ({ ...record, title: `${record.title} (remastered)` }));
    // Ids 4 and 5 are left out: a full import deletes them. Two are new.
    const edited = [...changed, ...original.slice(5), ...wallpapers(2, { startId: 101 })];
    const path = file('edited.ndjson', edited);
    const before = await catalogueState(alias);
    const run = await importFile(alias, [path, '--dry-run']);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include('dry run: nothing will be written to the catalogue');
    expect(run.stderr).to.include(`${edited.length} lines read, none rejected`);
    expect(run.stderr).to.match(/2 new, 3 changed, 45 unchanged, 2 deleted \(not in the input\)/);
    expect(run.stderr).to.include(`the import would succeed and replace ${(await aliasTargets(es, alias))[0]} behind ${alias}`);
    expect(await catalogueState(alias)).to.deep.equal(before);
    // The real run does what the dry run said.
    const real = await importFile(alias, [path]);
    expect(real.status, real.stderr).to.equal(0);
    expect(real.stderr).to.match(/change feed: 5 new or changed, 2 deleted, 45 unchanged/);
  });

  it('when lines would be rejected past the allowance, then it lists them in the rejects file, says the import would fail and exits 1; within it, 0', async () => {
    const path = file('bad.ndjson', [...original.slice(0, 5), '{"id": 99}', 'not json']);
    const run = await importFile(alias, [path, '--dry-run']);
    expect(run.status, run.stderr).to.equal(1);
    expect(run.stderr).to.match(/line 6 \(id 99\) would be rejected: missing field "title"/);
    expect(run.stderr).to.include('the import would fail: 2 lines rejected, more than --allow-rejects 0');
    const rejects = readFileSync(`${path}.rejects.ndjson`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Reject);
    expect(rejects.map(({ line, code }) => [line, code])).to.deep.equal([
      [6, 'invalid_record'],
      [7, 'invalid_json'],
    ]);
    const allowed = await importFile(alias, [path, '--dry-run', '--allow-rejects', '2', '--allow-deletes', 'all']);
    expect(allowed.status, allowed.stderr).to.equal(0);
  });

  it('when an incremental import is tried, then deletions of held and absent ids are told apart, writes nothing, and the real run does what it said', async () => {
    // Ids 6 to 50 are in the catalogue as the first import wrote them (the first test changed 1 to 5).
    const held = original.slice(5, 8);
    const twice = file('incremental-twice.ndjson', [
      { id: held[0]!.id, deleted: true },
      { ...held[0]!, downloads: held[0]!.downloads + 1 },
    ]);
    const before = await catalogueState(alias);
    const duplicate = await importFile(alias, [twice, '--dry-run', '--incremental']);
    expect(duplicate.stderr).to.match(/line 2 \(id \d+\) would be rejected: .*duplicate/i);
    expect(duplicate.status, duplicate.stderr).to.equal(1);
    // Two held deleted, three absent, one changed, one new: no two counts alike.
    const lines = [
      { id: held[0]!.id, deleted: true },
      { id: held[1]!.id, deleted: true },
      ...[4_000, 4_001, 4_002].map((id) => ({ id, deleted: true })),
      { ...held[2]!, downloads: held[2]!.downloads + 1 },
      ...wallpapers(1, { startId: 5_000 }),
    ];
    const path = file('incremental.ndjson', lines);
    const dry = await importFile(alias, [path, '--dry-run', '--incremental']);
    expect(dry.status, dry.stderr).to.equal(0);
    expect(dry.stderr).to.include('1 new, 1 changed, 0 unchanged, 2 deleted, 3 deletions of ids it does not hold');
    expect(dry.stderr).to.include('the import would succeed');
    expect(await catalogueState(alias)).to.deep.equal(before);
    const real = await importFile(alias, [path, '--incremental']);
    expect(real.status, real.stderr).to.equal(0);
    // The change feed counts a deletion of an absent id as unchanged.
    expect(real.stderr).to.match(/change feed: 2 new or changed, 2 deleted, 3 unchanged/);
  });

  it('when an incremental import would go past its allowance, then it says what it would write before it stops, and the real run writes that', async () => {
    const changed = original.slice(10, 16).map((record) => ({ ...record, title: `${record.title} (again)` }));
    const path = file('incremental-stops.ndjson', [...changed.slice(0, 4), '{"id": 77}', ...changed.slice(4)]);
    const dry = await importFile(alias, [path, '--dry-run', '--incremental']);
    expect(dry.status, dry.stderr).to.equal(1);
    expect(dry.stderr).to.include('writing would stop at line 5, after 4 changes (0 new, 4 changed, 0 deleted), which would stay');
    const real = await importFile(alias, [path, '--incremental']);
    expect(real.status, real.stderr).to.equal(1);
    expect(real.stderr).to.include('4 changes were written');
  });

  it('when another run holds the catalogue lock, then the dry run still runs and says a real one would be refused', async () => {
    const redis = await readyRedis();
    const lock = await acquireCatalogueLock(redis, alias, 'reindex');
    try {
      const run = await importFile(alias, [file('again.ndjson', original.slice(0, 3)), '--dry-run', '--allow-deletes', 'all']);
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stderr).to.match(/the catalogue lock is held by reindex .*; a real run would be refused now/);
    } finally {
      await lock.release();
      redis.disconnect();
    }
  });

  it('when the alias points at no index, then a full import would load everything and an incremental one would fail before reading, as the real one does', async () => {
    const empty = freshAlias();
    const path = file('fresh.ndjson', [...original.slice(0, 4), 'not json']);
    const full = await importFile(empty, [path, '--dry-run', '--allow-rejects', '1']);
    expect(full.status, full.stderr).to.equal(0);
    expect(full.stderr).to.include(`against ${empty} points at no index:`);
    expect(full.stderr).to.match(/4 new, 0 changed, 0 unchanged, 0 deleted/);
    const fullRejects = readFileSync(`${path}.rejects.ndjson`, 'utf8');
    const incremental = await importFile(empty, [path, '--dry-run', '--incremental']);
    expect(incremental.status, incremental.stderr).to.equal(1);
    expect(incremental.stderr).to.include('an incremental import needs exactly one live index');
    expect(incremental.stderr).not.to.include('would be rejected');
    expect(readFileSync(`${path}.rejects.ndjson`, 'utf8'), "a run that reads no line leaves the last run's rejects as they were").to.equal(
      fullRejects,
    );
    expect(await indicesOf(es, empty)).to.deep.equal([]);
  });
});
