import { expect } from 'chai';
import { aliasTargets, catalogueScratch, runScript, wallpapers } from '../support/catalogue-cli.js';
import { connectEs } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const { dir, freshAlias, file, cleanUp } = catalogueScratch('result-window');

async function liveWindow(alias: string): Promise<number> {
  const [index] = await aliasTargets(es, alias);
  const settings = await es.indices.getSettings({ index: index!, name: 'index.max_result_window', flat_settings: true });
  return Number(settings[index!]?.settings?.['index.max_result_window']);
}

describe('MAX_RESULT_WINDOW on the indices the catalogue commands make', function () {
  this.timeout(60_000);

  after(async () => {
    await cleanUp(es);
    await es.close();
  });

  it('when MAX_RESULT_WINDOW is raised, then import, reindex and seed each make an index serving it and the largest page', async () => {
    const alias = freshAlias();
    const env = { INDEX_ALIAS: alias, MAX_RESULT_WINDOW: '50000' };
    const imported = await runScript('import', [file('raised.ndjson', wallpapers(3))], { env, cwd: dir });
    expect(imported.status, imported.stderr).to.equal(0);
    expect(await liveWindow(alias)).to.equal(50_100);
    const reindexed = await runScript('reindex', [], { env, cwd: dir });
    expect(reindexed.status, reindexed.stderr).to.equal(0);
    expect(await liveWindow(alias)).to.equal(50_100);
    const seeded = await runScript('seed', ['--count', '5'], { env, cwd: dir });
    expect(seeded.status, seeded.stderr).to.equal(0);
    expect(await liveWindow(alias)).to.equal(50_100);
  });

  it('when MAX_RESULT_WINDOW is the default or lower, then a new index keeps the mapping file window, which is never lowered', async () => {
    const alias = freshAlias();
    const byDefault = await runScript('import', [file('default.ndjson', wallpapers(3))], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(byDefault.status, byDefault.stderr).to.equal(0);
    expect(await liveWindow(alias)).to.equal(10_100);
    const lowered = await runScript('reindex', [], { env: { INDEX_ALIAS: alias, MAX_RESULT_WINDOW: '500' }, cwd: dir });
    expect(lowered.status, lowered.stderr).to.equal(0);
    expect(await liveWindow(alias)).to.equal(10_100);
  });
});
