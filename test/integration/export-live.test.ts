import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { openSnapshot } from '../../src/catalogue/ingest/index-snapshot.js';
import { toRecord, type WallpaperRecord } from '../../src/wallpapers/wallpaper.js';
import { runScript, spawnScript, finished, toNdjson } from '../support/catalogue-cli.js';
import { connectEs, dropIndicesOf, uniqueName } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const dir = mkdtempSync(join(tmpdir(), 'wpc-export-live-'));
const readLines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as WallpaperRecord);

describe('npm run export -- --live', function () {
  this.timeout(60_000);
  const alias = uniqueName('test-export-live');
  // Records with tags and palettes, out of id order as a file may come.
  const records = [...generateWallpapers({ count: 300, seed: 7, imageBaseUrl: 'https://images.wallpapers.example' })].map(toRecord).reverse();
  const run = (script: 'import' | 'export', args: string[]) => runScript(script, args, { env: { INDEX_ALIAS: alias }, cwd: dir });

  before(async () => {
    const path = join(dir, 'catalogue.ndjson');
    writeFileSync(path, toNdjson(records));
    const loaded = await run('import', [path]);
    expect(loaded.status, loaded.stderr).to.equal(0);
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the catalogue is exported, then every record comes back as it was imported, in id order', async () => {
    const exported = await run('export', ['--live', '--out', 'live.ndjson']);
    expect(exported.status, exported.stderr).to.equal(0);
    expect(exported.stderr).to.match(/300 wallpapers of \S+ \(live behind \S+\) written to \S*live\.ndjson/);
    const back = readLines(readFileSync(join(dir, 'live.ndjson'), 'utf8'));
    expect(back.map(({ id }) => id)).to.deep.equal(records.map(({ id }) => id).sort((a, b) => a - b));
    expect(back).to.deep.equal([...records].sort((a, b) => a.id - b.id));
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).to.deep.equal([]);
  });

  it('when the export is imported again, then the change feed records no change', async () => {
    const exported = await run('export', ['--live', '--out', 'again.ndjson']);
    expect(exported.status, exported.stderr).to.equal(0);
    const reimported = await run('import', [join(dir, 'again.ndjson')]);
    expect(reimported.status, reimported.stderr).to.equal(0);
    expect(reimported.stderr).to.match(/change feed: 0 new or changed, 0 deleted, 300 unchanged/);
  });

  it('when no file is named, then the records go to standard output', async () => {
    const child = spawnScript('export', ['--live'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    child.stdin.end();
    const done = await finished(child);
    expect(done.status, done.stderr).to.equal(0);
    expect(readLines(done.stdout)).to.have.length(300);
  });

  it('when the catalogue changes while it is read, then what is read is the catalogue as it was when the reading began', async () => {
    const [live] = Object.keys(await es.indices.getAlias({ name: alias }));
    const snapshot = await openSnapshot(es, live!, { inIdOrder: true });
    const read: number[] = [];
    const titles = new Map<number, string>();
    try {
      for await (const doc of snapshot.documents(50)) {
        read.push(doc.id);
        titles.set(doc.id, doc.title);
        // After the first page, an import changes one record further on and deletes another.
        if (read.length === 50) {
          await es.update({ index: live!, id: '200', doc: { title: 'Changed meanwhile' }, refresh: true });
          await es.delete({ index: live!, id: '250', refresh: true });
        }
      }
    } finally {
      await snapshot.close();
    }
    expect(read).to.have.length(300);
    expect(read).to.deep.equal([...read].sort((a, b) => a - b));
    expect(titles.get(200)).to.equal(records.find(({ id }) => id === 200)!.title);
    expect(read).to.include(250);
    expect(snapshot.total).to.equal(300);
  });

  it('when the file cannot be written (no such directory, a directory), then it says so before reading anything, exit 1', async () => {
    for (const [out, reason] of [
      [join(dir, 'no-such-dir', 'x.ndjson'), /cannot write \S+x\.ndjson: ENOENT/],
      [dir, /cannot write \S+: \S+ is a directory/],
    ] as const) {
      const refused = await run('export', ['--live', '--out', out]);
      expect(refused.status, out).to.equal(1);
      expect(refused.stderr, out).to.match(reason);
    }
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).to.deep.equal([]);
  });

  it('when the reader of standard output goes away, then the export stops with 141, as a process whose pipe closed does', async () => {
    const child = spawnScript('export', ['--live'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    child.stdin.end();
    child.stdout.once('data', () => child.stdout.destroy());
    const done = await finished(child);
    expect(done.status, done.stderr).to.equal(141);
    expect(done.stderr).to.include('standard output closed by its reader');
  });

  it('when the alias does not exist, then it exits 1 and writes no file, not even part of one', async () => {
    const missing = await runScript('export', ['--live', '--out', 'missing.ndjson'], {
      env: { INDEX_ALIAS: uniqueName('test-export-none') },
      cwd: dir,
    });
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.match(/alias \S+ does not exist; \S*missing\.ndjson not written/);
    expect(existsSync(join(dir, 'missing.ndjson'))).to.equal(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('missing'))).to.deep.equal([]);
  });

  it('when --live is given with --count or --seed, then it is refused as bad usage', async () => {
    const refused = await run('export', ['--live', '--count', '5']);
    expect(refused.status).to.equal(2);
    expect(refused.stderr).to.include('--live exports the catalogue as it is');
  });
});
