import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { createVersionedIndex } from '../../src/catalogue/admin/index-admin.js';
import type { Reject } from '../../src/catalogue/ingest/ndjson-records.js';
import type { Wallpaper, WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import {
  ROOT,
  aliasTargets,
  catalogueScratch,
  finished,
  indicesOf,
  runScript,
  spawnScript,
  stateOf,
  toNdjson,
  waitForOutput,
  wallpapers,
} from '../support/catalogue-cli.js';
import { until } from '../support/until.js';
import { connectEs } from '../support/harness.js';

const es = connectEs(undefined, 60_000);
const { dir, freshAlias, file, cleanUp } = catalogueScratch('import');

const importFile = (alias: string, args: string[], input?: string) => runScript('import', args, { env: { INDEX_ALIAS: alias }, input, cwd: dir });

function readRejects(path: string): Reject[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Reject);
}

async function count(alias: string): Promise<number> {
  return (await es.count({ index: alias })).count;
}

describe('npm run import', function () {
  this.timeout(60_000);

  after(async () => {
    await cleanUp(es);
    await es.close();
  });

  it('when an import reading a pipe that stays open is stopped with SIGTERM, then it stops at once, deletes its index and leaves the alias', async () => {
    // node:readline never ended on a destroyed input: the run had kept its lock for minutes (review).
    const alias = freshAlias();
    const child = spawnScript('import', ['-'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    const run = finished(child);
    child.stdin.write(toNdjson(wallpapers(3)));
    await waitForOutput(child, /read 3 records/);
    const stopped = Date.now();
    child.kill('SIGTERM');
    const { status, stderr } = await run;
    expect(status, stderr).to.equal(143);
    expect(Date.now() - stopped).to.be.below(10_000);
    expect(stderr).to.match(new RegExp(`interrupted by SIGTERM; alias ${alias} left unchanged, ${alias}-\\d{17} deleted`));
    expect(await aliasTargets(es, alias)).to.deep.equal([]);
    child.stdin.destroy();
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`when the npm that started an import is stopped with ${signal}, then the import stops too, deletes its index and leaves the alias`, async function () {
      // npm does not pass SIGTERM on: `timeout 600 npm run import` had left the import running, to
      // go live later with its lock left behind; killed outright, npm leaves its shell running (review).
      this.timeout(30_000);
      const alias = freshAlias();
      // Its input a pipe the test holds open, so the import waits for more.
      const fifo = join(dir, `held-${signal}.fifo`);
      execFileSync('mkfifo', [fifo]);
      const npm = spawn('npm', ['run', '--silent', 'import', '--', fifo], {
        cwd: ROOT,
        env: { ...process.env, INDEX_ALIAS: alias, LOG_LEVEL: 'silent' },
      });
      let stderr = '';
      npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // The pipe is held by the import too, so it closes when the import has exited.
      const closed = new Promise((resolve) => npm.stderr.on('close', resolve));
      const writer = await open(fifo, 'w');
      await writer.write(toNdjson(wallpapers(3)));
      await until(async () => /read 3 records/.test(stderr), 20_000);
      npm.kill(signal);
      await closed;
      await writer.close();
      expect(stderr, stderr).to.include('npm, which started this run, has gone: stopping and cleaning up');
      expect(stderr).to.match(new RegExp(`interrupted by SIGTERM; alias ${alias} left unchanged, ${alias}-\\d{17} deleted`));
      expect(await indicesOf(es, alias)).to.deep.equal([]);
    });
  }

  it('when Elasticsearch refuses records of an incremental import past --allow-rejects, then it stops writing there, not at the end of its input', async () => {
    // Refused records were counted only once the load ended: 90,000 written past an allowance of 0
    // (helper-108).
    const alias = freshAlias();
    expect((await importFile(alias, [file('refused-base.ndjson', wallpapers(3))])).status).to.equal(0);
    const [live] = await aliasTargets(es, alias);
    await es.indices.putSettings({ index: live!, settings: { 'index.blocks.write': true } });
    try {
      const rejectsPath = join(dir, 'refused.rejects.ndjson');
      const run = await importFile(alias, [
        file('refused.ndjson', wallpapers(40, { startId: 100 })),
        '--incremental',
        '--allow-rejects',
        '3',
        '--batch-size',
        '2',
        '--concurrency',
        '1',
        '--rejects',
        rejectsPath,
      ]);
      expect(run.status, run.stderr).to.equal(1);
      expect(run.stderr).to.include('4 lines rejected, more than --allow-rejects 3; writing stopped at that point');
      expect(readRejects(rejectsPath).map((reject) => reject.code)).to.deep.equal(Array.from({ length: 4 }, () => 'refused_by_elasticsearch'));
    } finally {
      await es.indices.putSettings({ index: live!, settings: { 'index.blocks.write': false } });
    }
  });

  it('when an incremental import is stopped mid-run, then it says how many records it wrote and where its rejected lines are', async () => {
    // It had said "0 records were upserted" after writing thousands, and never named the file of
    // its rejects (helper-105).
    const alias = freshAlias();
    expect((await importFile(alias, [file('stopped-base.ndjson', wallpapers(3))])).status).to.equal(0);
    const rejectsPath = join(dir, 'stopped.rejects.ndjson');
    const child = spawnScript('import', ['-', '--incremental', '--allow-rejects', '5', '--batch-size', '2', '--rejects', rejectsPath], {
      env: { INDEX_ALIAS: alias },
      cwd: dir,
    });
    const run = finished(child);
    child.stdin.write(toNdjson([...wallpapers(4, { startId: 10 }), 'not json']));
    await waitForOutput(child, /read 5 records/);
    expect(await until(async () => (await es.count({ index: alias })).count === 7)).to.equal(true);
    child.kill('SIGINT');
    const { status, stderr } = await run;
    expect(status, stderr).to.equal(130);
    expect(stderr).to.match(new RegExp(`interrupted by SIGINT; 4 changes were written into ${alias}-\\d{17} before it stopped`));
    expect(stderr).to.include(`1 rejected line listed in ${rejectsPath}`);
    expect(readRejects(rejectsPath).map((reject) => reject.line)).to.deep.equal([5]);
    child.stdin.destroy();
  });

  it('when an import waits for a FIFO that no writer has opened and is stopped with SIGTERM, then it ends at once, nothing changed', async () => {
    const alias = freshAlias();
    const fifo = join(dir, 'no-writer.fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawnScript('import', [fifo], { env: { INDEX_ALIAS: alias }, cwd: dir });
    const run = finished(child);
    await waitForOutput(child, /waiting for a writer to open/);
    child.kill('SIGTERM');
    const { status, stderr } = await run;
    expect(status, stderr).to.equal(143);
    expect(stderr).to.include(`interrupted by SIGTERM while waiting for ${fifo}'s writer; nothing changed`);
    expect(await indicesOf(es, alias)).to.deep.equal([]);
  });

  it('when --rejects cannot be written, or is the input under another name, then the run is refused before anything changes, the input intact', async () => {
    // A review's cases: an unwritable path was found out after the catalogue was replaced (exit 1),
    // and a link to the input truncated it.
    const alias = freshAlias();
    const path = file('linked.ndjson', wallpapers(3));
    const original = readFileSync(path, 'utf8');
    execFileSync('ln', ['-s', path, join(dir, 'soft.link')]);
    execFileSync('ln', [path, join(dir, 'hard.link')]);
    for (const [rejects, reason] of [
      [
        join(dir, 'missing-dir', 'r.ndjson'),
        /cannot write rejected lines to .*missing-dir\/r\.ndjson: no such file \(ENOENT\); name a writable file with --rejects PATH/,
      ],
      [join(dir, 'soft.link'), /is not a plain file \(a directory, a link or a device\)/],
      [join(dir, 'hard.link'), /is the input file \(a link to it\), which it would overwrite/],
      [dir, /is not a plain file/],
      // A clean run removes its rejects file: it had removed /dev/full so (review).
      ['/dev/null', /is not a plain file/],
    ] as const) {
      const run = await importFile(alias, [path, '--rejects', rejects]);
      expect(run.status, `${rejects}: ${run.stderr}`).to.equal(2);
      expect(run.stderr).to.match(reason);
    }
    expect(readFileSync(path, 'utf8')).to.equal(original);
    expect(existsSync('/dev/null')).to.equal(true);
    expect(await indicesOf(es, alias)).to.deep.equal([]);
  });

  it('when every line is valid, then a new index holds them behind the alias, with width, height, orientation and ratio, and no rejects file is left', async () => {
    const alias = freshAlias();
    const records = wallpapers(500);
    const path = file('valid.ndjson', records);
    const run = await importFile(alias, [path]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.match(/500 records loaded from 500 lines, none rejected/);
    const [live] = await aliasTargets(es, alias);
    expect(live).to.match(new RegExp(`^${alias}-\\d{17}$`));
    expect(await stateOf(es, live as string)).to.equal('complete');
    expect(await count(alias)).to.equal(500);
    const stored = await es.get<WallpaperDocument>({ index: alias, id: '321' });
    const { change_seq, changed_at, content_hash, ...kept } = stored._source as WallpaperDocument & {
      change_seq: number;
      changed_at: string;
      content_hash: string;
    };
    expect(kept).to.deep.equal({
      ...records[320],
      width: stored._source?.width,
      height: stored._source?.height,
      orientation: 'landscape',
      ratio: '16x9',
    });
    // Its change stamp (the change feed): a number, when, and the digest of its record.
    expect(change_seq).to.be.a('number');
    expect(Date.parse(changed_at)).to.be.within(Date.now() - 120_000, Date.now());
    expect(content_hash).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(`${stored._source?.width}x${stored._source?.height}`).to.equal(records[320]?.resolution);
    expect(existsSync(`${path}.rejects.ndjson`)).to.equal(false);
  });

  it('when several records share a title, then suggestions weigh it by its most popular, whichever comes first', async () => {
    const alias = freshAlias();
    const [first, popular, other, ...rest] = wallpapers(20);
    const records = [
      { ...first!, title: 'Quayside in Hong Kong', downloads: 5 },
      { ...popular!, title: 'Quayside in Hong Kong', downloads: 9_000 },
      { ...other!, title: 'Quayside at Blue Hour', downloads: 700 },
      ...rest,
    ];
    const run = await importFile(alias, [file('shared-titles.ndjson', records)]);
    expect(run.status, run.stderr).to.equal(0);
    const answer = await es.search({ index: alias, size: 0, suggest: { titles: { prefix: 'quays', completion: { field: 'suggest', size: 10 } } } });
    const options = answer.suggest?.['titles']?.[0]?.options;
    const titles = (Array.isArray(options) ? options : []).map((option) => ('_source' in option ? (option._source as { title: string }).title : ''));
    expect([...new Set(titles)]).to.deep.equal(['Quayside in Hong Kong', 'Quayside at Blue Hour']);
  });

  describe('rejected lines', () => {
    const alias = freshAlias();
    const good = wallpapers(20);
    const base = good[0] as Wallpaper;
    const bad = (changes: Record<string, unknown>, drop?: string) => {
      const record: Record<string, unknown> = { ...base, id: 1000 + Object.keys(changes).length, ...changes };
      if (drop !== undefined) delete record[drop];
      return JSON.stringify(record);
    };
    // Each entry: the line, and what its report must say.
    const cases: [string, Partial<Reject>, RegExp][] = [
      ['', { code: 'blank_line', id: null }, /blank line/],
      ['{"id": 7, "title": ', { code: 'invalid_json', id: null }, /invalid JSON/],
      ['[1, 2, 3]', { code: 'invalid_record', id: null }, /must be a JSON object/],
      [bad({ id: 2001 }, 'title'), { code: 'invalid_record', id: 2001 }, /missing field "title"/],
      [bad({ id: 2002, colour: 'teal' }), { code: 'invalid_record', id: 2002 }, /unknown field "colour"/],
      [bad({ id: -3 }), { code: 'invalid_record', id: -3 }, /id must be a positive safe integer/],
      [bad({ id: '2004' }), { code: 'invalid_record', id: '2004' }, /id must be an integer/],
      [bad({ id: 2005, downloads: -1 }), { code: 'invalid_record', id: 2005 }, /downloads must be a non-negative/],
      [bad({ id: 2006, downloads: 1.5 }), { code: 'invalid_record', id: 2006 }, /downloads must be an integer/],
      [bad({ id: 2007, resolution: '1920*1080' }), { code: 'invalid_record', id: 2007 }, /resolution must be <width>x<height>/],
      [bad({ id: 2008, url: '/relative.jpg' }), { code: 'invalid_record', id: 2008 }, /url must be an absolute http\(s\) URL/],
      [bad({ id: 2009, thumbnail: 'ftp://host/t.jpg' }), { code: 'invalid_record', id: 2009 }, /thumbnail must be an absolute http\(s\) URL/],
      [bad({ id: 2010, created_at: '2023-02-29T10:00:00Z' }), { code: 'invalid_record', id: 2010 }, /created_at must be a real date/],
      [bad({ id: 2011, created_at: '2024-01-01T10:00:00+02:00' }), { code: 'invalid_record', id: 2011 }, /created_at must be a real date/],
      [bad({ id: 2012, category: 'vehicles' }), { code: 'invalid_record', id: 2012 }, /category must be one of abstract/],
      [bad({ id: 2013, title: 42 }), { code: 'invalid_record', id: 2013 }, /title must be a string/],
      [JSON.stringify({ ...good[4], title: 'Same id again' }), { code: 'duplicate_id', id: 5 }, /duplicate id 5, first seen on line 5/],
    ];
    const lines = [...good, ...cases.map(([line]) => line)];
    const path = file('mixed.ndjson', lines);
    let live = '';
    let run: Awaited<ReturnType<typeof importFile>>;

    before(async () => {
      const first = await importFile(alias, [file('base.ndjson', wallpapers(30, { seed: 7 }))]);
      expect(first.status, first.stderr).to.equal(0);
      live = (await aliasTargets(es, alias))[0] as string;
      run = await importFile(alias, [path]);
    });

    it('when lines break the rules, then it exits 1, the alias stays on the previous index and the new index is deleted', async () => {
      expect(run.status, run.stderr).to.equal(1);
      expect(run.stderr).to.match(
        new RegExp(`${cases.length} lines rejected, more than --allow-rejects 0; alias ${alias} left unchanged, ${alias}-\\d{17} deleted`),
      );
      expect(await aliasTargets(es, alias)).to.deep.equal([live]);
      expect(await indicesOf(es, alias)).to.deep.equal([live]);
      expect(await count(alias)).to.equal(30);
    });

    it('when lines are rejected, then the rejects file has one object per line with number, id, code, reason and the original text', () => {
      const rejects = readRejects(`${path}.rejects.ndjson`);
      expect(rejects).to.have.lengthOf(cases.length);
      cases.forEach(([text, expected, reason], i) => {
        const reject = rejects[i] as Reject;
        expect(reject, text).to.include({ line: good.length + i + 1, text, ...expected });
        expect(reject.reason, text).to.match(reason);
      });
    });

    it('when lines are rejected, then stderr names each by line number, id and reason', () => {
      cases.forEach(([, expected, reason], i) => {
        const id = expected.id === null ? '' : ` \\(id ${JSON.stringify(expected.id).replace(/"/g, '"')}\\)`;
        expect(run.stderr).to.match(new RegExp(`^import: line ${good.length + i + 1}${id} rejected: .*${reason.source}`, 'm'));
      });
    });

    it('when as many rejects as --allow-rejects allows occur, then the import succeeds, keeps the first of a duplicate and reports the rest', async () => {
      const allowed = await importFile(alias, [path, '--allow-rejects', String(cases.length)]);
      expect(allowed.status, allowed.stderr).to.equal(0);
      expect(allowed.stderr).to.match(
        new RegExp(`20 records loaded from ${lines.length} lines, ${cases.length} rejected \\(allowed ${cases.length}\\)`),
      );
      expect(await aliasTargets(es, alias)).not.to.deep.equal([live]);
      expect(await count(alias)).to.equal(20);
      expect((await es.get<Wallpaper>({ index: alias, id: '5' }))._source?.title).to.equal(good[4]?.title);
      expect(readRejects(`${path}.rejects.ndjson`)).to.have.lengthOf(cases.length);
    });

    it('when one reject more than allowed occurs, then it exits 1 and the alias does not move', async () => {
      const before = await aliasTargets(es, alias);
      const refused = await importFile(alias, [path, '--allow-rejects', String(cases.length - 1), '--rejects', join(dir, 'custom.rejects')]);
      expect(refused.status).to.equal(1);
      expect(await aliasTargets(es, alias)).to.deep.equal(before);
      expect(readRejects(join(dir, 'custom.rejects'))).to.have.lengthOf(cases.length);
    });
  });

  it('when the records come on standard input, then they are imported and rejects go to a timestamped file', async () => {
    const alias = freshAlias();
    const run = await importFile(alias, ['-', '--allow-rejects', '1'], toNdjson([...wallpapers(40), 'not json']));
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.match(/loading standard input into new index/);
    expect(await count(alias)).to.equal(40);
    const written = readdirSync(dir).filter((name) => /^import-rejects-\d{17}-\d+\.ndjson$/.test(name));
    expect(written).to.have.lengthOf(1);
    const rejects = readRejects(join(dir, written[0] as string));
    expect(rejects).to.have.lengthOf(1);
    expect(rejects[0]).to.include({ line: 41, id: null, code: 'invalid_json', text: 'not json' });
  });

  it('when the input is a named pipe, then it is read once, without a line count, and rejects go to the working directory', async () => {
    const alias = freshAlias();
    const fifo = join(dir, 'records.fifo');
    execFileSync('mkfifo', [fifo]);
    const before = readdirSync(dir).filter((name) => name.startsWith('import-rejects-')).length;
    const running = importFile(alias, [fifo, '--allow-rejects', '1']);
    createWriteStream(fifo).end(toNdjson([...wallpapers(25), '']));
    const run = await running;
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include(`loading ${fifo} into new index`);
    expect(await count(alias)).to.equal(25);
    expect(readdirSync(dir).filter((name) => name.startsWith('import-rejects-')).length).to.equal(before + 1);
  });

  it('when npm started it in the project root for a command typed elsewhere, then paths are read from where it was typed', async () => {
    const alias = freshAlias();
    const typedIn = mkdtempSync(join(dir, 'typed-in-'));
    writeFileSync(join(typedIn, 'week.ndjson'), toNdjson([...wallpapers(12), 'not json']));
    // What `cd typedIn && npm run import -- week.ndjson` gives the script: npm's working directory is the root.
    const npm = { INDEX_ALIAS: alias, INIT_CWD: typedIn, npm_package_json: join(ROOT, 'package.json') };
    const run = await runScript('import', ['week.ndjson', '--allow-rejects', '1', '--allow-deletes', 'all'], { env: npm, cwd: ROOT });
    expect(run.status, run.stderr).to.equal(0);
    expect(await count(alias)).to.equal(12);
    expect(existsSync(join(typedIn, 'week.ndjson.rejects.ndjson')), 'the rejects beside the input').to.equal(true);

    const piped = await runScript('import', ['-', '--allow-rejects', '1', '--allow-deletes', 'all'], {
      env: npm,
      cwd: ROOT,
      input: toNdjson([...wallpapers(5), 'not json']),
    });
    expect(piped.status, piped.stderr).to.equal(0);
    const written = readdirSync(typedIn).filter((name) => name.startsWith('import-rejects-'));
    expect(written, "a pipe's rejects where the command was typed").to.have.lengthOf(1);
    expect(piped.stderr).to.include(join(typedIn, written[0]!));
    expect(readdirSync(ROOT).filter((name) => name.startsWith('import-rejects-'))).to.deep.equal([]);
  });

  it('when the input exists but cannot be opened, then it exits 2 before creating anything', async () => {
    const alias = freshAlias();
    // The child's standard input is a socket here, which /dev/stdin cannot open.
    const run = await importFile(alias, ['/dev/stdin']);
    expect(run.status).to.equal(2);
    expect(run.stderr).to.match(/cannot read \/dev\/stdin: (.* \()?E[A-Z]+/);
    expect(await indicesOf(es, alias)).to.deep.equal([]);
  });

  it('when no line holds a valid record, then nothing is swapped in', async () => {
    const alias = freshAlias();
    const run = await importFile(alias, [file('empty.ndjson', []), '--allow-rejects', '5']);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.match(/no valid records to import; alias .* left unchanged/);
    expect(await aliasTargets(es, alias)).to.deep.equal([]);
  });

  it('when the file does not exist, then it exits 2 naming it', async () => {
    const run = await importFile(freshAlias(), [join(dir, 'missing.ndjson')]);
    expect(run.status).to.equal(2);
    expect(run.stderr).to.match(/cannot read .*missing\.ndjson: no such file \(ENOENT\)/);
  });

  it('when an earlier run left an index building, then the next import removes it and says so', async () => {
    const alias = freshAlias();
    const orphan = await createVersionedIndex(es, alias, { now: new Date(Date.UTC(2020, 0, 1)) });
    const run = await importFile(alias, [file('after-orphan.ndjson', wallpapers(10))]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include(`removed ${orphan}, left unfinished by an earlier run that stopped`);
    expect(await es.indices.exists({ index: orphan })).to.equal(false);
  });

  describe('--incremental', () => {
    const alias = freshAlias();
    const original = wallpapers(50);
    const changed = original.slice(0, 10).map((record) => ({ ...record, downloads: record.downloads + 1000, title: `${record.title} (remastered)` }));
    const added = wallpapers(5, { startId: 51 });
    const updates = file('updates.ndjson', [...changed, ...added]);
    let live = '';

    before(async () => {
      const first = await importFile(alias, [file('original.ndjson', original)]);
      expect(first.status, first.stderr).to.equal(0);
      live = (await aliasTargets(es, alias))[0] as string;
    });

    it('when updates and new records are imported, then they are upserted by id into the live index', async () => {
      const run = await importFile(alias, [updates, '--incremental']);
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stderr).to.include(`into ${live}, the live index of ${alias}`);
      expect(await aliasTargets(es, alias)).to.deep.equal([live]);
      expect(await count(alias)).to.equal(55);
      const doc = await es.get<WallpaperDocument>({ index: alias, id: '3' });
      expect(doc._source).to.include({ downloads: changed[2]?.downloads, title: changed[2]?.title });
    });

    it('when the same file is imported again, then nothing changes: same count, same documents', async () => {
      const before = await es.search<WallpaperDocument>({ index: alias, size: 100, sort: [{ id: 'asc' }] });
      const run = await importFile(alias, [updates, '--incremental']);
      expect(run.status, run.stderr).to.equal(0);
      const after = await es.search<WallpaperDocument>({ index: alias, size: 100, sort: [{ id: 'asc' }] });
      expect(after.hits.hits.map((hit) => hit._source)).to.deep.equal(before.hits.hits.map((hit) => hit._source));
      expect(await count(alias)).to.equal(55);
      expect(await indicesOf(es, alias)).to.deep.equal([live]);
    });

    it('when an incremental file has rejects beyond the allowance, then they are reported and it exits 1', async () => {
      const path = file('incremental-bad.ndjson', [...wallpapers(2, { startId: 60 }), '{"id": 99}']);
      const run = await importFile(alias, [path, '--incremental']);
      expect(run.status).to.equal(1);
      expect(run.stderr).to.match(/line 3 \(id 99\) rejected: missing field "title"/);
      expect(readRejects(`${path}.rejects.ndjson`).map((r) => r.line)).to.deep.equal([3]);
    });

    it('when the alias does not exist, then an incremental import refuses', async () => {
      const run = await importFile(freshAlias(), [updates, '--incremental']);
      expect(run.status).to.equal(1);
      expect(run.stderr).to.match(/alias \S+ does not exist; an incremental import needs exactly one live index/);
    });

    it('when INDEX_ALIAS names an index, then imports, their dry run and a reindex refuse before reading or making anything, naming it', async () => {
      const taken = freshAlias();
      await es.indices.create({ index: taken });
      try {
        const path = file('over-an-index.ndjson', [...wallpapers(3), '{"id": 97}']);
        const runs = [
          await importFile(taken, [path]),
          await importFile(taken, [path, '--dry-run']),
          await importFile(taken, [path, '--incremental']),
          await runScript('reindex', [], { env: { INDEX_ALIAS: taken }, cwd: dir }),
        ];
        for (const run of runs) {
          expect(run.status, run.stderr).to.equal(1);
          expect(run.stderr).to.include(`INDEX_ALIAS ${taken} names an index, not an alias`);
          expect(run.stderr).not.to.match(/rejected|loading/);
        }
        expect(existsSync(`${path}.rejects.ndjson`), 'no line was read').to.equal(false);
        expect(await indicesOf(es, taken)).to.deep.equal([]);
        expect(await es.indices.exists({ index: changesIndexOf(taken) }), 'no change log was made').to.equal(false);
      } finally {
        await es.indices.delete({ index: taken });
      }
    });

    it('when an import stops before reading its input, then the rejects file an earlier run left is kept; a run that reads it clean removes it', async () => {
      const path = file('kept-rejects.ndjson', [...wallpapers(2, { startId: 70 }), '{"id": 98}']);
      const earlier = await importFile(alias, [path, '--incremental', '--allow-rejects', '1']);
      expect(earlier.status, earlier.stderr).to.equal(0);
      const listed = readFileSync(`${path}.rejects.ndjson`, 'utf8');
      expect(listed).to.include('"id":98');
      const refused = await importFile(freshAlias(), [path, '--incremental', '--allow-rejects', '1']);
      expect(refused.status).to.equal(1);
      expect(readFileSync(`${path}.rejects.ndjson`, 'utf8')).to.equal(listed);
      const dry = await importFile(freshAlias(), [path, '--incremental', '--dry-run', '--allow-rejects', '1']);
      expect(dry.status).to.equal(1);
      expect(readFileSync(`${path}.rejects.ndjson`, 'utf8')).to.equal(listed);
      writeFileSync(
        path,
        wallpapers(2, { startId: 70 })
          .map((record) => `${JSON.stringify(record)}\n`)
          .join(''),
      );
      const clean = await importFile(alias, [path, '--incremental']);
      expect(clean.status, clean.stderr).to.equal(0);
      expect(existsSync(`${path}.rejects.ndjson`)).to.equal(false);
    });
  });
});
