import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { CHANGES_INDEX_DEFINITION, WATERMARK_ID, type Watermark, changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { indicesOf, runScript, toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { markIndexState } from '../../src/catalogue/admin/index-admin.js';
import { type RunningApp, createKey, readyRedis, request } from '../support/harness.js';
import { asBeforeHistories, feedReader, feedSuite, rewrittenWithoutHistory } from '../support/feed-reader.js';
import { runMirrorExample } from '../support/mirror-example.js';
import { ChangeRecorder } from '../../src/catalogue/admin/change-recorder.js';
import { CursorExpired, createWallpaperClient } from '../../clients/typescript/src/index.js';

/**
 * A feed cursor carries the history of the record it was read in (change-log.ts): a reader whose
 * record was lost, restored or begun anew walks again from the start instead of missing changes.
 */
describe('the change feed across the histories of its record', function () {
  this.timeout(120_000);
  const { es, dir, key: keyOf, freshAlias, apiOn } = feedSuite('histories');
  let key: string;
  before(() => (key = keyOf()));
  const { page, walk } = feedReader(keyOf);

  async function catalogue(records: readonly unknown[]): Promise<{ alias: string; app: RunningApp }> {
    const alias = freshAlias();
    await load(alias, [], records);
    return { alias, app: await apiOn(alias) };
  }

  let files = 0;
  async function load(alias: string, args: string[], records: readonly unknown[]): Promise<string> {
    const path = join(dir, `${++files}.ndjson`);
    writeFileSync(path, toNdjson(records));
    const done = await runScript('import', [...args, path], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(done.status, done.stderr).to.equal(0);
    return done.stderr;
  }

  async function expired(app: RunningApp, cursor: string): Promise<void> {
    const res = await request(app.url, `/v1/changes?cursor=${cursor}`, { key });
    expect(res.status, res.text).to.equal(410);
    expect(res.body).to.include({ error: 'cursor_expired', status: 410 });
    expect(res.body.message).to.match(/cursor.*walk the feed again from the start, without a cursor/);
  }

  /** The record as a snapshot holds it: every document, to be restored under a new uuid. */
  async function copyOfRecord(alias: string): Promise<{ _id: string; _source: unknown }[]> {
    const found = await es.search({ index: changesIndexOf(alias), size: 1000, query: { match_all: {} } });
    return found.hits.hits.map((hit) => ({ _id: hit._id!, _source: hit._source }));
  }

  async function restoreRecord(alias: string, copy: readonly { _id: string; _source: unknown }[]): Promise<void> {
    const index = changesIndexOf(alias);
    await es.indices.delete({ index });
    await es.indices.create({ index, ...CHANGES_INDEX_DEFINITION });
    for (const doc of copy) await es.index({ index, id: doc._id, document: doc._source });
    await es.indices.refresh({ index });
  }

  it('when the record of changes is deleted, then a cursor read in it answers 410, a walk from the start serves the whole catalogue at once, and once the next load begins a new history, a walk in it goes on', async () => {
    const records = wallpapers(20);
    const { alias, app } = await catalogue(records);
    const before = await walk(app);
    await load(alias, ['--incremental'], [{ id: 5, deleted: true }]);
    await es.indices.delete({ index: changesIndexOf(alias) });

    await expired(app, before.cursor);
    const again = await walk(app);
    expect(again.items.map((item) => item.id).sort((a, b) => a - b)).to.deep.equal(records.map((w) => w.id).filter((id) => id !== 5));

    await load(alias, ['--incremental'], [{ ...records[0]!, id: 9001, title: 'After the Loss' }]);
    await expired(app, before.cursor);
    await expired(app, again.cursor);
    const anew = await walk(app);
    expect(anew.items.map((item) => item.id))
      .to.include(9001)
      .and.to.have.length(20);
    await load(alias, ['--incremental'], [{ ...records[1]!, title: 'In the New History' }]);
    expect((await walk(app, anew.cursor)).items.map(({ id, change }) => `${change} ${id}`)).to.deep.equal([`upsert ${records[1]!.id}`]);
  });

  it('when the record is restored from an earlier copy, then a cursor past its end answers 410 at once, and every older one once the next load begins a new history', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const early = await walk(app);
    const copy = await copyOfRecord(alias);
    await load(alias, ['--incremental'], [{ ...records[2]!, title: 'Changed After the Copy' }]);
    const late = await walk(app, early.cursor);
    expect(late.items.map((item) => item.id)).to.deep.equal([records[2]!.id]);

    await restoreRecord(alias, copy);
    await expired(app, late.cursor);
    expect((await page(app, `?cursor=${early.cursor}`)).data).to.deep.equal([]);

    const said = await load(alias, ['--incremental'], [{ ...records[3]!, title: 'Changed After the Restore' }]);
    expect(said).to.match(/began a new history of the change feed, as the record of changes \S+ is not the index its history began in \(restored/);
    await expired(app, early.cursor);
    const again = await walk(app);
    expect(again.items).to.have.length(10);
    expect(again.items.find((item) => item.id === records[3]!.id)!.wallpaper!.title).to.equal('Changed After the Restore');
  });

  it('when the catalogue is deleted and loaded anew while its record stays, then its readers are told to walk again, and the load says so', async () => {
    const { alias, app } = await catalogue(wallpapers(10));
    const before = await walk(app);
    await es.indices.delete({ index: (await indicesOf(es, alias)).join(',') });

    const said = await load(alias, [], wallpapers(8, { startId: 101 }));
    expect(said).to.match(/began a new history of the change feed, as \S+ has no catalogue to compare the load with/);
    await expired(app, before.cursor);
    expect((await walk(app)).items.map((item) => item.id)).to.deep.equal(wallpapers(8, { startId: 101 }).map((w) => w.id));
  });

  it('when a position was read before the record had a history, then it goes on once a load gives the record one, and nothing is said', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const index = changesIndexOf(alias);
    await asBeforeHistories(es, index);
    const before = await walk(app);

    const said = await load(alias, ['--incremental'], [{ ...records[1]!, title: 'Changed Under a History' }]);
    expect(said).to.not.match(/history/);
    expect((await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!.history).to.include({ legacy: true });
    expect((await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!.history)
      .to.have.property('id')
      .that.is.a('string');
    expect((await walk(app, before.cursor)).items.map((item) => item.id)).to.deep.equal([records[1]!.id]);
  });

  it('when docs/examples/mirror.py holds a cursor of a record since lost, then it walks again, drops the deleted and keeps one a load under way has yet to serve', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const state = join(dir, `mirror-${++files}.json`);
    const mirror = () => runMirrorExample(state, app.url, key);
    expect((await mirror()).stdout).to.include('applied 10 changes; the copy holds 10 wallpapers');
    await load(alias, ['--incremental'], [{ id: records[4]!.id, deleted: true }]);
    await es.indices.delete({ index: changesIndexOf(alias) });
    await load(alias, ['--incremental'], [{ ...records[0]!, id: 9001, title: 'After the Loss' }]);
    // A load under way has stamped another wallpaper past the watermark: the feed serves it once
    // the load moves the watermark, and the catalogue has it all along.
    const watermark = (await es.get<Watermark>({ index: changesIndexOf(alias), id: WATERMARK_ID }))._source!.change_seq;
    const [catalogueIndex] = await indicesOf(es, alias);
    await es.update({ index: catalogueIndex!, id: String(records[1]!.id), doc: { change_seq: watermark + 1000 }, refresh: true });

    expect((await mirror()).stdout).to.include('applied 9 changes; the copy holds 10 wallpapers');
    const copy = JSON.parse(readFileSync(state, 'utf8')) as { wallpapers: Record<string, unknown> };
    const expected = [...records.map((w) => w.id).filter((id) => id !== records[4]!.id), 9001].sort((a, b) => a - b);
    expect(
      Object.keys(copy.wallpapers)
        .map(Number)
        .sort((a, b) => a - b),
    ).to.deep.equal(expected);
  });

  it('when docs/examples/mirror.py is cut short while it walks again, then what it held waits with it, and the run that ends the walk keeps what is still there', async () => {
    const records = wallpapers(250);
    const alias = freshAlias();
    await load(alias, [], records);
    const app = await apiOn(alias, { rateLimit: { tiers: { free: 1000, premium: 10_000, two: 2 } } });
    const redis = await readyRedis();
    const short = (await createKey(redis, 'two')).apiKey;
    redis.disconnect();
    const state = join(dir, `mirror-${++files}.json`);
    const mirror = (apiKey: string) => runMirrorExample(state, app.url, apiKey);
    expect((await mirror(key)).stdout).to.include('applied 250 changes; the copy holds 250 wallpapers');
    await es.indices.delete({ index: changesIndexOf(alias) });
    await load(alias, ['--incremental'], [{ ...records[0]!, id: 9001, title: 'After the Loss' }]);
    // A load under way has stamped wallpaper 2 past the watermark: not served yet, still there.
    const watermark = (await es.get<Watermark>({ index: changesIndexOf(alias), id: WATERMARK_ID }))._source!.change_seq;
    const [catalogueIndex] = await indicesOf(es, alias);
    await es.update({ index: catalogueIndex!, id: String(records[1]!.id), doc: { change_seq: watermark + 1000 }, refresh: true });

    const cut = await mirror(short).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(cut?.code, 'the quota ends the walk part way').to.equal(1);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { wallpapers: Record<string, unknown>; held?: Record<string, unknown> };
    expect(Object.keys(saved.held ?? {})).to.have.length(250);
    expect(Object.keys(saved.wallpapers).length).to.be.below(251);

    await mirror(key);
    const copy = JSON.parse(readFileSync(state, 'utf8')) as { wallpapers: Record<string, unknown>; held?: unknown };
    expect(copy.held).to.equal(undefined);
    expect(Object.keys(copy.wallpapers)).to.include(String(records[1]!.id)).and.include('9001').and.have.length(251);
  });

  it('when the TypeScript client follows from a cursor of a record since lost, then it throws CursorExpired, and following anew gives the catalogue', async () => {
    const records = wallpapers(6);
    const { alias, app } = await catalogue(records);
    const client = createWallpaperClient({ baseUrl: app.url, apiKey: key });
    let saved: string | undefined;
    for await (const { cursor } of client.changes.follow({ untilEnd: true })) saved = cursor;
    await es.indices.delete({ index: changesIndexOf(alias) });

    const thrown = await (async () => {
      for await (const _ of client.changes.follow({ cursor: saved!, untilEnd: true })) void _;
    })().catch((error: unknown) => error);
    expect(thrown).to.be.instanceOf(CursorExpired).and.include({ status: 410, error: 'cursor_expired' });
    const ids: number[] = [];
    for await (const { change } of client.changes.follow({ untilEnd: true })) ids.push(change.id);
    expect(ids.sort((a, b) => a - b)).to.deep.equal(records.map((w) => w.id));
  });

  it('when the record is deleted and a run that records nothing (a reindex) begins the new history, then a walk serves the whole catalogue, and a cursor read while it was missing walks again', async () => {
    const records = wallpapers(12);
    const { alias, app } = await catalogue(records);
    await es.indices.delete({ index: changesIndexOf(alias) });
    const whileMissing = await walk(app);
    expect(whileMissing.items).to.have.length(12);
    const dry = await runScript('reindex', ['--dry-run'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(dry.stderr).to.match(
      /would begin a new history of the change feed, as the record of changes \S+ was missing \(deleted\?\) while \S+ holds changes/,
    );
    expect(await es.indices.exists({ index: changesIndexOf(alias) }), 'a dry run makes no record').to.equal(false);

    const reindexed = await runScript('reindex', [], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(reindexed.status, reindexed.stderr).to.equal(0);
    expect(reindexed.stderr + reindexed.stdout).to.match(
      /began a new history of the change feed, as the record of changes \S+ was missing \(deleted\?\) while \S+ holds changes/,
    );
    // Read while the record was missing: its deletions may have been lost with it.
    await expired(app, whileMissing.cursor);
    expect((await walk(app)).items.map((item) => item.id).sort((a, b) => a - b)).to.deep.equal(records.map((w) => w.id));
  });

  it('when a history begun by a run that records nothing is read and the catalogue is then deleted and loaded anew, then its readers are told to walk again', async () => {
    const { alias, app } = await catalogue(wallpapers(10));
    await restoreRecord(alias, await copyOfRecord(alias));
    const begun = await runScript('reindex', [], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(begun.stderr + begun.stdout).to.match(/began a new history/);
    const reader = await walk(app);
    await es.indices.delete({ index: (await indicesOf(es, alias)).join(',') });

    const said = await load(alias, [], wallpapers(8, { startId: 3 }));
    expect(said).to.match(/has no catalogue to compare the load with/);
    await expired(app, reader.cursor);
  });

  it('when a build before histories rewrites the watermark without one, then readers go on, and the next run gives the watermark its history back', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const index = changesIndexOf(alias);
    const reader = await walk(app);
    const kept = (await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!.history!;
    await rewrittenWithoutHistory(es, index);
    // Read meanwhile, the reader's cursor keeps its history, which the record's watermark no longer names.
    const meanwhile = await walk(app, reader.cursor);
    expect(meanwhile.items).to.deep.equal([]);

    const said = await load(alias, ['--incremental'], [{ ...records[4]!, title: 'Changed Beside an Older Build' }]);
    expect(said).to.not.match(/history/);
    expect((await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!.history).to.deep.equal(kept);
    for (const cursor of [reader.cursor, meanwhile.cursor]) {
      expect((await walk(app, cursor)).items.map((item) => item.id)).to.deep.equal([records[4]!.id]);
    }
  });

  it('when a build before histories makes a lost record anew, then a reader of the lost one goes on meanwhile, but walks again once this build`s next run begins a history', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const index = changesIndexOf(alias);
    const reader = await walk(app);
    await load(alias, ['--incremental'], [{ id: records[6]!.id, deleted: true }]);
    const { history: _history, ...before } = CHANGES_INDEX_DEFINITION.mappings.properties;
    const { change_seq } = (await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!;
    await es.indices.delete({ index });
    await es.indices.create({ index, settings: CHANGES_INDEX_DEFINITION.settings, mappings: { dynamic: 'strict', properties: before } });
    // Its load numbers on from the catalogue's stamps and commits above them.
    await es.index({
      index,
      id: WATERMARK_ID,
      document: { kind: 'watermark', change_seq: change_seq + 1, changed_at: new Date().toISOString() },
      refresh: true,
    });
    const meanwhile = await walk(app, reader.cursor);

    const said = await load(alias, ['--incremental'], [{ ...records[1]!, title: 'Changed After the Older Build' }]);
    expect(said).to.not.match(/history/);
    await expired(app, meanwhile.cursor);
    const again = await walk(app);
    expect(again.items.map((item) => item.id)).to.not.include(records[6]!.id);
  });

  it('when a run was killed after writing changes it never served, then the next catalogue run of any kind serves them', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const index = changesIndexOf(alias);
    const reader = await walk(app);
    const live = (await indicesOf(es, alias))[0]!;
    const mark = (await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!;
    const written = {
      ...(await es.get<Record<string, unknown>>({ index: live, id: String(records[5]!.id) }))._source!,
      title: 'Written by a Killed Run',
    };
    await es.index({ index: live, id: String(records[5]!.id), document: { ...written, change_seq: mark.change_seq + 3 }, refresh: true });
    expect((await walk(app, reader.cursor)).items).to.deep.equal([]);
    const move = `from ${mark.change_seq} to ${mark.change_seq + 3}, past changes an earlier run wrote but stopped before serving`;
    const dry = await runScript('reindex', ['--dry-run'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(dry.stderr).to.include(`would move the change feed's watermark ${move}`);
    expect((await walk(app, reader.cursor)).items, 'a dry run serves nothing').to.deep.equal([]);

    const reindexed = await runScript('reindex', [], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(reindexed.status, reindexed.stderr).to.equal(0);
    expect(reindexed.stderr + reindexed.stdout).to.include(`moved the change feed's watermark ${move}`);
    const tail = await walk(app, reader.cursor);
    expect(tail.items.map((item) => [item.id, item.wallpaper?.title])).to.deep.equal([[records[5]!.id, 'Written by a Killed Run']]);
  });

  it('when a full import was killed after its alias switch, with changes unserved and deletions unwritten, then the dry run says what the real run then does', async () => {
    // The dry run had planned its prune on the indices as they stood (the one left `leaving` was
    // not prunable there, and is once finished), and counted the deletions written next into the
    // watermark's move (helper-105).
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    await load(alias, [], records.slice(0, 7));
    const [older, live] = (await indicesOf(es, alias)) as [string, string];
    const index = changesIndexOf(alias);
    // What such a kill leaves: the deletions of the three it dropped unwritten, the index it left
    // `leaving`, and a change it wrote above the watermark.
    for (const record of records.slice(7)) await es.delete({ index, id: String(record.id), refresh: true });
    await markIndexState(es, older, 'leaving');
    const mark = (await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!;
    const written = {
      ...(await es.get<Record<string, unknown>>({ index: live, id: String(records[2]!.id) }))._source!,
      title: 'Written by a Killed Run',
    };
    await es.index({ index: live, id: String(records[2]!.id), document: { ...written, change_seq: mark.change_seq + 2 }, refresh: true });
    const reader = await walk(app);

    const dry = await runScript('reindex', ['--dry-run', '--keep', '2'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    const move = `from ${mark.change_seq} to ${mark.change_seq + 2}, past changes an earlier run wrote but stopped before serving`;
    expect(dry.stderr).to.include(`would move the change feed's watermark ${move}`);
    expect(dry.stderr).to.include(`would record the deletions of ${older} for the change feed`);
    expect(dry.stderr).to.include(`keep 2 versioned indices and prune: ${older}`);

    const real = await runScript('reindex', ['--keep', '2'], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(real.status, real.stderr).to.equal(0);
    expect(real.stderr).to.include(`moved the change feed's watermark ${move}`);
    expect(real.stderr).to.include(`recorded 3 deletions of ${older}`);
    expect(real.stderr).to.include(`pruned: ${older}`);
    const tail = await walk(app, reader.cursor);
    expect(tail.items.map((item) => [item.id, item.change])).to.deep.equal([
      [records[2]!.id, 'upsert'],
      ...records.slice(7).map((record) => [record.id, 'delete']),
    ]);
  });

  it('when a late write made the record anew after it was deleted (without its mapping or a watermark), then the feed stays whole, and the next run replaces it and begins a new history', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const index = changesIndexOf(alias);
    const reader = await walk(app);
    await es.indices.delete({ index });
    // As a run's tombstone written just after the deletion: Elasticsearch makes the missing index, with a mapping of its own guessing.
    await es.index({
      index,
      id: '999',
      document: { kind: 'delete', id: 999, change_seq: 10_000, changed_at: new Date().toISOString() },
      refresh: true,
    });
    await expired(app, reader.cursor);
    // Read as watermark 0, it had served an empty catalogue, and a mirror walking again deleted every picture (helper-100).
    expect((await walk(app)).items.filter((item) => item.change === 'upsert')).to.have.length(10);

    const said = await load(alias, ['--incremental'], [{ ...records[2]!, title: 'After the Stray Write' }]);
    expect(said).to.match(/began a new history of the change feed, as the record of changes \S+ was missing \(deleted\?\)/);
    expect(Object.values(await es.indices.getMapping({ index }))[0]!.mappings.dynamic).to.equal('strict');
    expect((await walk(app)).items).to.have.length(10);
  });

  it('when the record is deleted while a run writes to it, then the run does not make it anew: it fails saying so', async () => {
    const { alias } = await catalogue(wallpapers(5));
    const recorder = await ChangeRecorder.open(es, alias, { against: (await indicesOf(es, alias))[0]!, full: false });
    await es.indices.delete({ index: changesIndexOf(alias) });
    const failed = await recorder.commit([]).catch((error: unknown) => error);
    expect((failed as Error).message).to.match(/was deleted or replaced while this run wrote to it: the next run begins a new history/);
    expect(await es.indices.exists({ index: changesIndexOf(alias) })).to.equal(false);
  });

  it('when loads go on in one history, then a cursor from before them still continues, each wallpaper at its last change', async () => {
    const records = wallpapers(10);
    const { alias, app } = await catalogue(records);
    const before = await walk(app);
    for (const at of [4, 5]) await load(alias, ['--incremental'], [{ ...records[at]!, title: `Changed ${at}` }]);
    await load(alias, [], records.slice(0, 9));
    expect((await walk(app, before.cursor)).items.map(({ id, change }) => `${change} ${id}`)).to.deep.equal([
      `upsert ${records[4]!.id}`,
      `upsert ${records[5]!.id}`,
      `delete ${records[9]!.id}`,
    ]);
  });
});
