import { expect } from 'chai';
import { changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { aliasTargets, catalogueScratch, indicesOf, runScript, wallpapers } from '../support/catalogue-cli.js';
import { connectEs } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const { dir, freshAlias, file, cleanUp } = catalogueScratch('deletes-guard');

const importFile = (alias: string, args: string[]) => runScript('import', args, { env: { INDEX_ALIAS: alias }, cwd: dir });

/** Deletions the change feed has recorded for the alias. */
async function recordedDeletes(alias: string): Promise<number> {
  await es.indices.refresh({ index: changesIndexOf(alias) });
  return (await es.count({ index: changesIndexOf(alias), query: { term: { kind: 'delete' } } })).count;
}

describe('npm run import: the bound on what a full import deletes', function () {
  this.timeout(60_000);
  const original = wallpapers(20);

  /** An alias holding the 20 originals, with the indices behind it. */
  async function catalogue(): Promise<{ alias: string; live: string[]; indices: string[] }> {
    const alias = freshAlias();
    const first = await importFile(alias, [file(`${alias}.ndjson`, original)]);
    expect(first.status, first.stderr).to.equal(0);
    return { alias, live: await aliasTargets(es, alias), indices: await indicesOf(es, alias) };
  }

  after(async () => {
    await cleanUp(es);
    await es.close();
  });

  it('when a full import leaves out more than half the live catalogue, then it fails with exit 1, the alias stays and no deletion is recorded', async () => {
    const { alias, live, indices } = await catalogue();
    // The first 9 lines of a 20-line export, as a transfer cut short leaves it: 11 would go.
    const run = await importFile(alias, [file('truncated.ndjson', original.slice(0, 9))]);
    expect(run.status, run.stderr).to.equal(1);
    expect(run.stderr).to.include('11 of the 20 live wallpapers are not in the input and would be deleted, more than half of them');
    expect(run.stderr).to.include('pass --allow-deletes 11 (or all)');
    expect(run.stderr).to.match(/alias \S+ left unchanged, \S+ deleted/);
    expect(await aliasTargets(es, alias)).to.deep.equal(live);
    expect(await indicesOf(es, alias)).to.deep.equal(indices);
    expect((await es.count({ index: alias })).count).to.equal(20);
    expect(await recordedDeletes(alias)).to.equal(0);
  });

  it('when a full import leaves out exactly half, then the default lets it through and records the deletions', async () => {
    const { alias } = await catalogue();
    const run = await importFile(alias, [file('half.ndjson', original.slice(0, 10))]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.match(/change feed: 0 new or changed, 10 deleted, 10 unchanged/);
    expect(await recordedDeletes(alias)).to.equal(10);
  });

  it('when --allow-deletes names at least what would go, then the cut goes live; one fewer, and it fails', async () => {
    const { alias, live } = await catalogue();
    const path = file('cut.ndjson', original.slice(0, 4));
    const short = await importFile(alias, [path, '--allow-deletes', '15']);
    expect(short.status, short.stderr).to.equal(1);
    expect(short.stderr).to.include('16 of the 20 live wallpapers are not in the input and would be deleted, more than --allow-deletes 15');
    expect(await aliasTargets(es, alias)).to.deep.equal(live);
    const enough = await importFile(alias, [path, '--allow-deletes', '16']);
    expect(enough.status, enough.stderr).to.equal(0);
    expect((await es.count({ index: alias })).count).to.equal(4);
    expect(await recordedDeletes(alias)).to.equal(16);
  });

  it('when --allow-deletes is all, then a full import may replace the whole catalogue with other wallpapers', async () => {
    const { alias } = await catalogue();
    const run = await importFile(alias, [file('other.ndjson', wallpapers(3, { startId: 500 })), '--allow-deletes', 'all']);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.match(/change feed: 3 new or changed, 20 deleted, 0 unchanged/);
  });

  it('when --allow-deletes 0 is given, then a full import that would delete even one wallpaper fails', async () => {
    const { alias } = await catalogue();
    const run = await importFile(alias, [file('one-less.ndjson', original.slice(1)), '--allow-deletes', '0']);
    expect(run.status, run.stderr).to.equal(1);
    expect(run.stderr).to.include('1 of the 20 live wallpapers are not in the input and would be deleted, more than --allow-deletes 0');
  });

  it('when a dry run would pass the bound, then it says the import would fail and why, exit 1; with the allowance named, that it would succeed', async () => {
    const { alias } = await catalogue();
    const path = file('dry.ndjson', original.slice(0, 5));
    const dry = await importFile(alias, [path, '--dry-run']);
    expect(dry.status, dry.stderr).to.equal(1);
    expect(dry.stderr).to.match(/0 new, 0 changed, 5 unchanged, 15 deleted \(not in the input\)/);
    expect(dry.stderr).to.include('the import would fail: 15 of the 20 live wallpapers are not in the input and would be deleted');
    const allowed = await importFile(alias, [path, '--dry-run', '--allow-deletes', '15']);
    expect(allowed.status, allowed.stderr).to.equal(0);
    expect(allowed.stderr).to.include('the import would succeed');
  });

  it('when the alias points at no index yet, then the first full import deletes nothing and is not bounded', async () => {
    const alias = freshAlias();
    const run = await importFile(alias, [file('first.ndjson', wallpapers(2)), '--allow-deletes', '0']);
    expect(run.status, run.stderr).to.equal(0);
  });
});
