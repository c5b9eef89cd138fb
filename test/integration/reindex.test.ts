import { expect } from 'chai';
import { bulkLoad } from '../../src/catalogue/ingest/bulk-load.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { createVersionedIndex, finishLoading } from '../../src/catalogue/admin/index-admin.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { verifyCopy } from '../../src/catalogue/ingest/verify-copy.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { aliasTargets, indicesOf, runScript, stateOf } from '../support/catalogue-cli.js';
import { connectEs, dropIndicesOf, uniqueName } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const IMAGES = 'https://images.wallpapers.example';

const reindex = (alias: string, args: string[] = []) => runScript('reindex', args, { env: { INDEX_ALIAS: alias } });

async function allDocs(index: string): Promise<WallpaperDocument[]> {
  const response = await es.search<WallpaperDocument>({ index, size: 5000, sort: [{ id: 'asc' }] });
  return response.hits.hits.map((hit) => hit._source as WallpaperDocument);
}

describe('scripts/reindex', function () {
  this.timeout(60_000);
  const alias = uniqueName('test-reindex');
  let seeded = '';

  before(async () => {
    seeded = (await seedCatalogue(es, { alias, count: 3000, seed: 11, imageBaseUrl: IMAGES, keep: 5 })).index;
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('when run with --dry-run, then it names the source, the count, the new index and what it would prune, and changes nothing', async () => {
    const before = await indicesOf(es, alias);
    const run = await reindex(alias, ['--dry-run']);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include('dry run: nothing will be changed');
    expect(run.stderr).to.match(
      new RegExp(`would copy 3000 documents from ${seeded} \\(live behind ${alias}\\) into a new index named like ${alias}-\\d{17}`),
    );
    expect(run.stderr).to.include('would remove orphaned indices: none');
    expect(run.stderr).to.include('keep 2 versioned indices and prune: none');
    expect(await indicesOf(es, alias)).to.deep.equal(before);
    expect(await aliasTargets(es, alias)).to.deep.equal([seeded]);
  });

  it('when run with --rollback but no earlier index exists, then it refuses clearly and exits 1', async () => {
    const run = await reindex(alias, ['--rollback']);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.include(`nothing to roll back to: ${seeded} is live and no older complete index of ${alias} is left; nothing changed`);
    expect(await aliasTargets(es, alias)).to.deep.equal([seeded]);
  });

  let second = '';
  it('when run, then a new index with identical documents replaces the live one, verified, and the previous one is kept', async () => {
    const run = await reindex(alias);
    expect(run.status, run.stderr).to.equal(0);
    second = (await aliasTargets(es, alias))[0] as string;
    expect(second).to.not.equal(seeded);
    expect(run.stderr).to.include(`copying 3000 documents from ${seeded} into new index ${second}`);
    expect(run.stderr).to.match(/verified count: source 3000, copy 3000/);
    expect(run.stderr).to.match(/verified sampled documents: 200 random documents identical/);
    expect(run.stderr).to.match(/verified list page 1, newest first: 3000 hits/);
    expect(run.stderr).to.match(/verified category \w+: \d+ hits/);
    // The word is the first of a random title: it may hold a hyphen or an apostrophe.
    expect(run.stderr).to.match(/verified title match "[^"]+": \d+ hits/);
    expect(run.stderr).to.match(/^copied 3000\/3000 docs in/m);
    expect(await allDocs(second)).to.deep.equal(await allDocs(seeded));
    expect(await stateOf(es, second)).to.equal('complete');
    expect(await es.indices.exists({ index: seeded })).to.equal(true);
  });

  let third = '';
  it('when run again with the default --keep 2, then the oldest index is pruned and the previous one kept', async () => {
    const run = await reindex(alias);
    expect(run.status, run.stderr).to.equal(0);
    third = (await aliasTargets(es, alias))[0] as string;
    expect(run.stderr).to.include(`alias ${alias} -> ${third} (was: ${second})`);
    expect(run.stderr).to.include(`pruned: ${seeded}`);
    expect(await indicesOf(es, alias)).to.deep.equal([second, third].sort());
  });

  it('when run with --rollback --dry-run, then it names both indices and changes nothing', async () => {
    const run = await reindex(alias, ['--rollback', '--dry-run']);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include(`would point alias ${alias} back from ${third} to ${second}`);
    expect(await aliasTargets(es, alias)).to.deep.equal([third]);
  });

  it('when run with --rollback, then the alias points at the previous index and the one it left is marked rolled back', async () => {
    const run = await reindex(alias, ['--rollback']);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include(`alias ${alias} -> ${second} (was: ${third}, now marked rolled back)`);
    expect(await aliasTargets(es, alias)).to.deep.equal([second]);
    expect(await stateOf(es, third)).to.equal('rolled-back');
    expect((await es.count({ index: alias })).count).to.equal(3000);
  });

  it('when reindexing after a rollback with --keep 3, then the rolled-back index is not a rollback target', async () => {
    const run = await reindex(alias, ['--keep', '3']);
    expect(run.status, run.stderr).to.equal(0);
    const [fourth] = await aliasTargets(es, alias);
    expect(await indicesOf(es, alias)).to.deep.equal([second, third, fourth].sort());
    const dry = await reindex(alias, ['--rollback', '--dry-run']);
    expect(dry.stderr).to.include(`would point alias ${alias} back from ${fourth} to ${second}`);
  });

  it('when the alias does not exist, then it exits 1 and says so', async () => {
    const run = await reindex(uniqueName('test-reindex-missing'));
    expect(run.status).to.equal(1);
    expect(run.stderr).to.match(/alias test-reindex-missing-\w+ does not exist; nothing changed/);
  });

  it('when a copy differs from its source, then verification names the failing checks', async () => {
    const other = await createVersionedIndex(es, `${alias}-verify`);
    const docs = [...generateWallpapers({ count: 3000, seed: 11, imageBaseUrl: IMAGES })];
    docs[0] = { ...docs[0], title: 'Changed in the copy' } as WallpaperDocument;
    await bulkLoad(es, other, docs.slice(0, 2990));
    await finishLoading(es, other);
    const checks = await verifyCopy(es, second, other, { sampleSize: 3000 });
    const failed = checks.filter((check) => !check.ok).map((check) => check.name);
    expect(failed).to.include.members(['count', 'sampled documents']);
    expect(checks.find((check) => check.name === 'sampled documents')?.detail).to.match(/^11 of 3000 differ or are missing/);
    await es.indices.delete({ index: other });
  });
});
