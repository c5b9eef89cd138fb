import { SHUFFLE_FIELDS } from '../../src/wallpapers/store/shuffle.js';
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { expect } from 'chai';
import { changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { WALLPAPER_FIELDS, toRecord } from '../../src/wallpapers/wallpaper.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { importCatalogue } from '../../src/catalogue/ingest/import-catalogue.js';
import { aliasTargets, indicesOf, runScript, stateOf, toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { rollbackCatalogue } from '../../src/catalogue/admin/rollback.js';
import { Interrupted } from '../../src/catalogue/cli/interrupt.js';
import { PublishError, markIndexState, swapAlias } from '../../src/catalogue/admin/index-admin.js';
import { LockLostError } from '../../src/catalogue/admin/catalogue-lock.js';
import { type RunningApp, connectEs, createIndexWithDocs, request } from '../support/harness.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { asIssuedBeforeTheSeal } from '../support/legacy-cursor.js';
import { asBeforeHistories, feedReader, feedSuite } from '../support/feed-reader.js';

describe('the change feed, GET /v1/changes', function () {
  this.timeout(120_000);
  const { es, dir, key: keyOf, freshAlias, apiOn } = feedSuite('changes');
  let key: string;
  before(() => (key = keyOf()));

  const run = async (script: 'import' | 'seed' | 'reindex', alias: string, args: string[]) => {
    const done = await runScript(script, args, { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(done.status, done.stderr).to.equal(0);
    return done;
  };

  function file(name: string, lines: readonly unknown[]): string {
    const path = join(dir, name);
    writeFileSync(path, toNdjson(lines));
    return path;
  }

  const { page, walk } = feedReader(keyOf);

  it('when a catalogue is imported, then one walk from the start holds every wallpaper once, in order, then stops with a cursor to keep', async () => {
    const alias = freshAlias();
    await run('import', alias, [file('first.ndjson', wallpapers(250))]);
    const app = await apiOn(alias);
    const { items, cursor, pages } = await walk(app, undefined, 40);
    expect(pages).to.equal(7);
    expect(items.map((item) => item.id).sort((a, b) => a - b)).to.deep.equal(wallpapers(250).map((w) => w.id));
    expect(items.every((item) => item.change === 'upsert' && item.wallpaper?.id === item.id)).to.equal(true);
    expect(Object.keys(items[0]!.wallpaper!)).to.deep.equal([...WALLPAPER_FIELDS]);
    // At the end: nothing more, and the same cursor answers again later.
    const tail = await page(app, `?cursor=${cursor}`);
    expect(tail.data).to.deep.equal([]);
    expect(tail.meta.has_more).to.equal(false);
    expect(tail.meta.next_cursor).to.equal(cursor);
    expect(tail.headers.get('cache-control')).to.equal('no-cache');
  });

  it('when a feed position saved before cursors were sealed is read, then the feed goes on from it, with sealed cursors', async () => {
    const alias = freshAlias();
    await run('import', alias, [file('first.ndjson', wallpapers(30))]);
    // Such a position was read in a record made before histories, as the deployment's still is.
    await asBeforeHistories(es, changesIndexOf(alias));
    const app = await apiOn(alias);
    const first = await page(app, '?per_page=20');
    const saved = asIssuedBeforeTheSeal(first.meta.next_cursor);
    const [fromSealed, fromSaved] = [await page(app, `?cursor=${first.meta.next_cursor}`), await page(app, `?cursor=${saved}`)];
    expect(fromSaved.data.map((item) => item.id))
      .to.deep.equal(fromSealed.data.map((item) => item.id))
      .and.to.have.length(10);
    expect(fromSaved.meta.next_cursor)
      .to.equal(fromSealed.meta.next_cursor)
      .and.to.match(/^[A-Za-z0-9_-]+$/);
  });

  it('when an incremental import changes one, adds one, deletes one and repeats one, then a tail read gets exactly those three, and the deleted one is gone everywhere', async () => {
    const alias = freshAlias();
    const records = wallpapers(50);
    await run('import', alias, [file('base.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const changed = { ...records[9]!, title: 'Harbour Lights at Dusk', downloads: records[9]!.downloads + 1 };
    const added = { ...records[0]!, id: 9001, title: 'A New Arrival' };
    const deleted = records[19]!;
    const lines = [records[4], changed, added, { id: deleted.id, deleted: true }];
    const imported = await run('import', alias, ['--incremental', file('delta.ndjson', lines)]);
    expect(imported.stderr).to.match(/3 changes \(upserts and deletions\) written from 4 lines/);

    const tail = await walk(app, cursor);
    expect(tail.items.map(({ id, change }) => [id, change])).to.deep.equal([
      [changed.id, 'upsert'],
      [added.id, 'upsert'],
      [deleted.id, 'delete'],
    ]);
    expect(tail.items[0]!.wallpaper!.title).to.equal('Harbour Lights at Dusk');
    expect(tail.items[2]).to.not.have.property('wallpaper');
    expect(Date.parse(tail.items[2]!.at)).to.be.within(Date.now() - 60_000, Date.now());

    expect((await request(app.url, `/v1/wallpapers/${deleted.id}`, { key })).status).to.equal(404);
    const inLists = [
      await request(app.url, '/v1/wallpapers?per_page=100', { key }),
      await request(app.url, `/v1/wallpapers?ids=${deleted.id}`, { key }),
      await request(app.url, `/v1/search?q=${encodeURIComponent(deleted.title)}&per_page=100`, { key }),
      await request(app.url, `/v1/wallpapers/${records[18]!.id}/similar?per_page=100`, { key }),
    ];
    for (const res of inLists) expect((res.body as { data: { id: number }[] }).data.map((w) => w.id)).to.not.include(deleted.id);
    const facets = await request(app.url, '/v1/wallpapers?facets=category&per_page=1', { key });
    expect((facets.body as { meta: { total_items: number } }).meta.total_items).to.equal(50);

    // The same file again changes nothing, so records nothing.
    await run('import', alias, ['--incremental', file('delta-again.ndjson', lines)]);
    expect((await walk(app, tail.cursor)).items).to.deep.equal([]);

    // A wallpaper that comes back is an upsert after its deletion, and its tombstone goes.
    await run('import', alias, ['--incremental', file('back.ndjson', [deleted])]);
    const back = await walk(app, tail.cursor);
    expect(back.items.map(({ id, change }) => [id, change])).to.deep.equal([[deleted.id, 'upsert']]);
    const fromStart = (await walk(app)).items.filter((item) => item.id === deleted.id);
    expect(fromStart.map((item) => item.change)).to.deep.equal(['upsert']);
  });

  it('when a full import replaces the catalogue, then the feed records what is new or changed and what it left out; the same file again records nothing', async () => {
    const alias = freshAlias();
    const records = wallpapers(30);
    await run('import', alias, [file('v1.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const next = [...records.slice(0, 25), { ...records[25]!, title: 'Renamed' }, { ...records[0]!, id: 777, title: 'Brand New' }];
    const path = file('v2.ndjson', next);
    await run('import', alias, [path]);
    const tail = await walk(app, cursor);
    const seen = tail.items.map(({ id, change }) => `${change} ${id}`).sort();
    expect(seen).to.deep.equal(['delete 27', 'delete 28', 'delete 29', 'delete 30', 'upsert 26', 'upsert 777'].sort());
    await run('import', alias, [path]);
    expect((await walk(app, tail.cursor)).items).to.deep.equal([]);
  });

  it('when a full import comes partly out of order and starts above the lowest id, then it records every wallpaper it left out, once', async () => {
    const alias = freshAlias();
    const records = wallpapers(40);
    await run('import', alias, [file('order-v1.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    // Batches of five: 21..30 in order (read with the replaced catalogue's pages), then 8..5
    // backwards (asked for by id); 1..4, 9..20 and 31..40 are left out.
    const next = [...records.slice(20, 30), ...records.slice(4, 8).reverse()];
    const done = await run('import', alias, ['--batch-size', '5', '--allow-deletes', 'all', file('order-v2.ndjson', next)]);
    expect(done.stderr).to.not.match(/error/i);
    const deleted = (await walk(app, cursor)).items.filter(({ change }) => change === 'delete').map(({ id }) => id);
    const expected = [1, 2, 3, 4, ...Array.from({ length: 12 }, (_, i) => 9 + i), ...Array.from({ length: 10 }, (_, i) => 31 + i)];
    expect(deleted).to.deep.equal(expected);
  });

  it('when a full import keeps only the live index, then it still records what it left out before the replaced index goes', async () => {
    const alias = freshAlias();
    const records = wallpapers(12);
    await run('import', alias, [file('keep1-v1.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const replaced = Object.keys(await es.indices.getAlias({ name: alias }));
    const done = await run('import', alias, ['--keep', '1', file('keep1-v2.ndjson', records.slice(0, 10))]);
    expect(done.stderr).to.not.match(/error/i);
    const tail = await walk(app, cursor);
    expect(tail.items.map(({ id, change }) => `${change} ${id}`)).to.deep.equal(['delete 11', 'delete 12']);
    expect(replaced).to.have.length(1);
    expect(await es.indices.exists({ index: replaced[0]! })).to.equal(false);
  });

  it('when the catalogue is reindexed, then the feed records nothing and a cursor carries on; when it is rolled back, then the feed records what the rollback undoes', async () => {
    const alias = freshAlias();
    const records = wallpapers(20);
    const second = records.slice(0, 18).map((record) => (record.id === 4 ? { ...record, title: 'Changed Title' } : record));
    await run('import', alias, ['--keep', '5', file('r1.ndjson', records)]);
    await run('import', alias, ['--keep', '5', file('r2.ndjson', [...second, { ...records[2]!, id: 500 }])]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    await run('reindex', alias, ['--keep', '5']);
    expect((await walk(app, cursor)).items).to.deep.equal([]);
    // Back to before the reindex, which changed nothing, so nothing; then back to r1.
    await run('reindex', alias, ['--rollback']);
    const afterFirst = await walk(app, cursor);
    expect(afterFirst.items).to.deep.equal([]);
    await run('reindex', alias, ['--rollback']);
    const undone = await walk(app, afterFirst.cursor);
    expect(undone.items.map(({ id, change }) => `${change} ${id}`).sort()).to.deep.equal(['delete 500', 'upsert 19', 'upsert 20', 'upsert 4'].sort());
  });

  it('when a rollback was killed after its alias switch, before its deletions were written, then the next catalogue run writes them, once', async () => {
    // A review killed a rollback there: 98,000 of 100,000 deletions were lost from the feed for good.
    const alias = freshAlias();
    await run('import', alias, ['--keep', '5', file('k1.ndjson', wallpapers(20))]);
    await run('import', alias, ['--keep', '5', '--allow-deletes', 'all', file('k2.ndjson', wallpapers(20, { startId: 101 }))]);
    const [older, newer] = (await indicesOf(es, alias)) as [string, string];
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    // What the rollback leaves when killed right after its switch: the alias back on the older
    // index, the newer one marked as being left, none of its deletions written.
    await swapAlias(es, alias, older, { leaving: 'rolling-back' });
    const next = await run('import', alias, ['--incremental', file('k3.ndjson', [])]);
    expect(next.stderr).to.include(
      `finished the rollback from ${newer} to ${older}: recorded 20 deletions of ${newer} for the change feed, ` +
        `left unwritten by an earlier run stopped after its alias switch, and marked ${newer} rolled back`,
    );
    expect(await stateOf(es, newer)).to.equal('rolled-back');
    const after = await walk(app, cursor);
    expect(after.items.filter((item) => item.change === 'delete').map((item) => item.id)).to.deep.equal(
      wallpapers(20, { startId: 101 }).map((w) => w.id),
    );
    const again = await run('import', alias, ['--incremental', file('k4.ndjson', [])]);
    expect(again.stderr).to.not.include('deletions of');
    expect((await walk(app, after.cursor)).items).to.deep.equal([]);
  });

  it('when a record is loaded again with its colours` fields in another order, then nothing is recorded', async () => {
    const alias = freshAlias();
    const records = [...generateWallpapers({ count: 10, seed: 42, imageBaseUrl: 'https://images.wallpapers.example' })].map(toRecord);
    const coloured = records.find((record) => (record.colors?.length ?? 0) > 0)!;
    expect(coloured, 'a record with colours').to.not.equal(undefined);
    await run('import', alias, [file('c1.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const reordered = { ...coloured, colors: coloured.colors!.map(({ hex, share }) => ({ share, hex })) };
    await run('import', alias, ['--incremental', file('c2.ndjson', [reordered])]);
    expect((await walk(app, cursor)).items).to.deep.equal([]);
  });

  it('when Elasticsearch refuses a deletion, then the feed does not record it and the wallpaper is still served', async () => {
    const alias = freshAlias();
    const records = wallpapers(20);
    await run('import', alias, [file('r1.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const [live] = (await aliasTargets(es, alias)) as [string];
    const target = records[7]!;
    await es.indices.putSettings({ index: live, settings: { 'index.blocks.write': true } });
    try {
      const refused = await runScript('import', ['--incremental', file('r2.ndjson', [{ id: target.id, deleted: true }])], {
        env: { INDEX_ALIAS: alias },
        cwd: dir,
      });
      expect(refused.status, refused.stderr).to.equal(1);
      expect(refused.stderr).to.match(/cluster_block_exception/);
    } finally {
      await es.indices.putSettings({ index: live, settings: { 'index.blocks.write': false } });
    }
    expect((await request(app.url, `/v1/wallpapers/${target.id}`, { key })).status).to.equal(200);
    expect((await walk(app, cursor)).items, 'nothing happened').to.deep.equal([]);
    const fromStart = (await walk(app)).items.filter((item) => item.id === target.id);
    expect(fromStart.map((item) => item.change)).to.deep.equal(['upsert']);
  });

  it('when a run was stopped between a deletion`s tombstone and the deletion, then the next run withdraws it before the feed shows it', async () => {
    const alias = freshAlias();
    const records = wallpapers(20);
    await run('import', alias, [file('t1.ndjson', records)]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    // What such a run leaves: a tombstone numbered above the watermark, the wallpaper still there.
    const target = records[3]!;
    await es.index({
      index: changesIndexOf(alias),
      id: String(target.id),
      document: { kind: 'delete', id: target.id, change_seq: 1000, changed_at: new Date().toISOString() },
      refresh: true,
    });
    const dry = await run('reindex', alias, ['--dry-run']);
    expect(dry.stderr).to.include('would withdraw 1 deletions from the change feed that an earlier run recorded but did not make');
    const added = { ...records[0]!, id: 5001, title: 'Loaded by the Next Run' };
    const next = await run('import', alias, ['--incremental', file('t2.ndjson', [added])]);
    expect(next.stderr).to.include('withdrew 1 deletions from the change feed that an earlier run recorded but did not make');
    expect((await walk(app, cursor)).items.map(({ id, change }) => [id, change])).to.deep.equal([[added.id, 'upsert']]);
    expect((await request(app.url, `/v1/wallpapers/${target.id}`, { key })).status).to.equal(200);
  });

  it('when a rollback is stopped before its alias switch, then nothing changes for a reader and it ends as interrupted', async () => {
    const alias = freshAlias();
    await run('import', alias, ['--keep', '5', file('s1.ndjson', wallpapers(5))]);
    await run('import', alias, ['--keep', '5', '--allow-deletes', 'all', file('s2.ndjson', wallpapers(5, { startId: 50 }))]);
    const [older, newer] = (await indicesOf(es, alias)) as [string, string];
    const stopped = rollbackCatalogue(es, alias, { signal: AbortSignal.abort(new Interrupted('SIGTERM')) });
    expect(
      await stopped.then(
        () => null,
        (error: unknown) => error,
      ),
    ).to.be.instanceOf(Interrupted);
    expect(await aliasTargets(es, alias)).to.deep.equal([newer]);
    expect(await stateOf(es, older)).to.equal('complete');
  });

  it('when a rollback loses its lock after its alias switch, then it says the older index is live, and the next catalogue run writes what it undid', async () => {
    const alias = freshAlias();
    await run('import', alias, ['--keep', '5', file('l1.ndjson', wallpapers(5))]);
    await run('import', alias, ['--keep', '5', '--allow-deletes', 'all', file('l2.ndjson', wallpapers(5, { startId: 50 }))]);
    const [older, newer] = (await indicesOf(es, alias)) as [string, string];
    // Held until the alias has moved, lost at the next ask.
    const confirmLock = async () => {
      if ((await aliasTargets(es, alias)).includes(older)) throw new LockLostError('wpc:catalogue-lock:test');
    };
    const error = await rollbackCatalogue(es, alias, { confirmLock }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(PublishError).and.include({ switched: true });
    expect((error as Error).message).to.equal(
      `the catalogue lock wpc:catalogue-lock:test expired or was taken over; alias ${alias} -> ${older} is live, ` +
        "the change feed's record of what it undid is written by the next catalogue run",
    );
    expect(await aliasTargets(es, alias)).to.deep.equal([older]);
    expect(await stateOf(es, newer)).to.equal('rolling-back');
    const next = await run('import', alias, ['--incremental', file('l3.ndjson', wallpapers(1, { startId: 900 }))]);
    expect(next.stderr).to.match(
      new RegExp(
        `finished the rollback from ${newer} to ${older}: recorded \\d+ deletions of ${newer} for the change feed, left unwritten by an earlier run stopped after its alias switch, and marked ${newer} rolled back`,
      ),
    );
    expect(await stateOf(es, newer)).to.equal('rolled-back');
  });

  it('when a rollback is stopped while it numbers wallpapers again, then it stops at its next record, not after the whole walk, and a later rollback records everything', async () => {
    const alias = freshAlias();
    // 4,100 wallpapers only the older index holds: three writes of new numbers (2,000 at a time).
    await run('import', alias, ['--keep', '5', file('w1.ndjson', wallpapers(4100))]);
    await run('import', alias, ['--keep', '5', '--allow-deletes', 'all', file('w2.ndjson', wallpapers(4100, { startId: 10_001 }))]);
    const [older, newer] = (await indicesOf(es, alias)) as [string, string];
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const watched = connectEs(undefined, 60_000);
    const stop = new AbortController();
    let writes = 0;
    watched.diagnostic.on('response', (_error, result) => {
      if (result?.meta.request.params.path === `/${older}/_bulk`) {
        writes++;
        stop.abort(new Interrupted('SIGTERM'));
      }
    });
    try {
      const stopped = await rollbackCatalogue(watched, alias, { signal: stop.signal }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(stopped).to.be.instanceOf(Interrupted);
    } finally {
      await watched.close();
    }
    expect(writes).to.equal(1);
    expect(await aliasTargets(es, alias)).to.deep.equal([newer]);
    expect((await walk(app, cursor)).items).to.deep.equal([]);
    await run('reindex', alias, ['--rollback']);
    const undone = (await walk(app, cursor)).items;
    expect(undone.filter((item) => item.change === 'upsert').map((item) => item.id)).to.deep.equal(wallpapers(4100).map((w) => w.id));
    expect(undone.filter((item) => item.change === 'delete')).to.have.length(4100);
  });

  it('when a full import was killed after its alias switch, before its deletions were written, then the next catalogue run writes the missing ones', async () => {
    const alias = freshAlias();
    await run('import', alias, ['--keep', '5', file('f1.ndjson', wallpapers(30))]);
    await run('import', alias, ['--keep', '5', '--allow-deletes', '20', file('f2.ndjson', wallpapers(10))]);
    const [older] = (await indicesOf(es, alias)) as [string, string];
    // Killed part way through its deletions: the last ten never written.
    const changes = changesIndexOf(alias);
    await es.deleteByQuery({ index: changes, query: { terms: { id: [21, 22, 23, 24, 25, 26, 27, 28, 29, 30] } }, refresh: true }).catch(async () => {
      for (let id = 21; id <= 30; id++) await es.delete({ index: changes, id: String(id), refresh: true });
    });
    await markIndexState(es, older, 'leaving');
    const dry = await run('reindex', alias, ['--dry-run']);
    expect(dry.stderr).to.include(
      `would record the deletions of ${older} for the change feed, left unwritten by an earlier run stopped after its alias switch`,
    );
    expect(await stateOf(es, older), 'a dry run changes nothing').to.equal('leaving');
    // A rollback's dry run plans as the real one will, once the killed run's work is done: back to
    // the index left `leaving`, which it marks complete first (it had said nothing to roll back to).
    const dryRollback = await run('reindex', alias, ['--rollback', '--dry-run']);
    expect(dryRollback.stderr).to.match(new RegExp(`would point alias ${alias} back from \\S+ to ${older}`));
    const next = await run('import', alias, ['--incremental', file('f3.ndjson', [])]);
    expect(next.stderr).to.include(`recorded 10 deletions of ${older}`);
    expect(await stateOf(es, older)).to.equal('complete');
    const app = await apiOn(alias);
    const { items } = await walk(app);
    expect(items.filter((item) => item.change === 'delete').map((item) => item.id)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 11));
  });

  it('when a rollback numbers wallpapers again, then they keep what queries read beside the record: tags, colours, suggestions and sort=random keys', async () => {
    const alias = freshAlias();
    const dressed = { tags: ['tidepool'], colors: [{ hex: '#1f6fb2', share: 0.6 }] };
    const records = wallpapers(8).map((record) => (record.id === 4 ? { ...record, ...dressed, title: 'Tidepool Evening' } : record));
    await run('import', alias, ['--keep', '5', file('d1.ndjson', records)]);
    await run('import', alias, [
      '--keep',
      '5',
      file(
        'd2.ndjson',
        records.map((record) => (record.id === 4 ? { ...record, downloads: record.downloads + 1000 } : record)),
      ),
    ]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    await run('reindex', alias, ['--rollback']);
    expect((await walk(app, cursor)).items.map(({ id, change }) => `${change} ${id}`)).to.deep.equal(['upsert 4']);
    const ids = async (path: string) => ((await request(app.url, path, { key })).body.data as { id: number }[]).map(({ id }) => id);
    expect(await ids('/v1/wallpapers?tags=tidepool'), 'its tag').to.deep.equal([4]);
    expect(await ids('/v1/wallpapers?color=%231f6fb2&per_page=100'), 'its colour').to.include(4);
    const suggestions = (await request(app.url, '/v1/search/suggest?q=tidep', { key })).body.data as { text: string }[];
    expect(
      suggestions.map(({ text }) => text),
      'its title as you type',
    ).to.include('Tidepool Evening');
    const keyed = await es.search({
      index: alias,
      query: { bool: { filter: [{ ids: { values: ['4'] } }, { exists: { field: SHUFFLE_FIELDS[0]! } }] } },
    });
    expect(
      keyed.hits.hits.map((hit) => hit._id),
      "sort=random's keys",
    ).to.deep.equal(['4']);
  });

  it('when a full import fails after loading, then the feed records none of its deletions, and a deletion it would have undone stays', async () => {
    const alias = freshAlias();
    const records = wallpapers(30);
    await run('import', alias, [file('f1.ndjson', records)]);
    await run('import', alias, ['--incremental', file('f-del.ndjson', [{ id: 2, deleted: true }])]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    const { Readable } = await import('node:stream');
    const failed = await importCatalogue(es, {
      alias,
      input: Readable.from([toNdjson(records.slice(0, 25))]),
      incremental: false,
      allowRejects: 0,
      keep: 5,
      onReject: () => undefined,
      confirmLock: async () => {
        throw new Error('lock lost');
      },
    }).catch((error: unknown) => error);
    expect(failed).to.be.instanceOf(Error);
    expect((await walk(app, cursor)).items).to.deep.equal([]);
    expect((await request(app.url, '/v1/wallpapers/27', { key })).status).to.equal(200);
    expect((await request(app.url, '/v1/wallpapers/2', { key })).status).to.equal(404);
  });

  it('when the alias points at two indices, then a full import stops rather than record against one of them', async () => {
    const alias = freshAlias();
    await run('import', alias, [file('two-1.ndjson', wallpapers(5))]);
    const second = `${alias}-extra`;
    await es.indices.create({ index: second });
    await es.indices.putAlias({ index: second, name: alias });
    const refused = await runScript('import', [file('two-2.ndjson', wallpapers(5))], { env: { INDEX_ALIAS: alias }, cwd: dir });
    expect(refused.status).to.not.equal(0);
    expect(refused.stderr).to.match(/points at 2 indices/);
  });

  it('when a rollback brings back the same record under an older number, then it is recorded again, so a reader past that number gets it', async () => {
    const alias = freshAlias();
    const records = wallpapers(20);
    await run('import', alias, ['--keep', '5', file('n1.ndjson', records)]);
    await run('reindex', alias, ['--keep', '5']);
    await run('import', alias, ['--incremental', file('n-del.ndjson', [{ id: 10, deleted: true }])]);
    await run('import', alias, ['--incremental', file('n-back.ndjson', [records[9]])]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    await run('reindex', alias, ['--rollback']);
    const after = await walk(app, cursor);
    expect(after.items.map(({ id, change }) => `${change} ${id}`)).to.deep.equal(['upsert 10']);
  });

  it('when an import`s batches are larger than the search window (10,000), then stamps are looked up in pieces', async () => {
    // The commands send at most 10,000 a batch; the load itself takes any size.
    const alias = freshAlias();
    const records = wallpapers(12_000);
    await run('import', alias, [file('big.ndjson', records)]);
    const again = await importCatalogue(es, {
      alias,
      input: Readable.from([toNdjson(records)]),
      incremental: true,
      allowRejects: 0,
      keep: 2,
      batchSize: 12_000,
      onReject: () => undefined,
    });
    expect(again.changes).to.deep.equal({ upserts: 0, deletes: 0, unchanged: 12_000 });
  });

  it('when wallpapers were loaded before the feed existed, then a walk serves them first, in id order, at their creation time', async () => {
    const alias = freshAlias();
    const docs = fixtureWallpapers();
    await createIndexWithDocs(es, alias, docs);
    const app = await apiOn(alias);
    const { items } = await walk(app, undefined, 7);
    expect(items.map((item) => item.id)).to.deep.equal(docs.map((doc) => doc.id).sort((a, b) => a - b));
    expect(items[0]!.at).to.equal(docs.find((doc) => doc.id === items[0]!.id)!.created_at);
  });

  it('when two wallpapers carry one number (a run`s request in flight past its lost lock) and a page ends between them, then the next page still serves the second', async () => {
    const alias = freshAlias();
    await run('import', alias, [file('twice.ndjson', wallpapers(5))]);
    const app = await apiOn(alias);
    const seqOf = async (id: number) => (await es.get<{ change_seq: number }>({ index: alias, id: String(id) }))._source!.change_seq;
    await es.update({ index: alias, id: '4', doc: { change_seq: await seqOf(2) }, refresh: true });
    const { items } = await walk(app, undefined, 1);
    expect(items.map((item) => item.id).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('when a change is numbered but not yet below the watermark, then the feed does not serve it', async () => {
    const alias = freshAlias();
    await run('import', alias, [file('w.ndjson', wallpapers(5))]);
    const app = await apiOn(alias);
    const { cursor } = await walk(app);
    // A load still writing: a tombstone numbered above the watermark, already searchable.
    await es.index({
      index: changesIndexOf(alias),
      id: '3',
      document: { kind: 'delete', id: 3, change_seq: 1_000, changed_at: new Date().toISOString() },
      refresh: true,
    });
    expect((await walk(app, cursor)).items).to.deep.equal([]);
  });

  it('when a deletion line comes in a full import, then it is rejected with the reason, and a malformed one in an incremental import too', async () => {
    const alias = freshAlias();
    const full = await runScript('import', ['--allow-rejects', '5', file('full-del.ndjson', [...wallpapers(3), { id: 2, deleted: true }])], {
      env: { INDEX_ALIAS: alias },
      cwd: dir,
    });
    expect(full.status, full.stderr).to.equal(0);
    expect(full.stderr).to.match(/line 4 \(id 2\) rejected: a deletion needs --incremental/);
    const incremental = await runScript(
      'import',
      [
        '--incremental',
        '--allow-rejects',
        '5',
        file('bad-del.ndjson', [
          { id: 2, deleted: 'yes' },
          { id: 3, deleted: true, title: 'x' },
        ]),
      ],
      { env: { INDEX_ALIAS: alias }, cwd: dir },
    );
    expect(incremental.stderr).to.match(/line 1 \(id 2\) rejected: deleted must be true/);
    expect(incremental.stderr).to.match(/line 2 \(id 3\) rejected: a deletion has only id and deleted, not "title"/);
  });

  it('when the record of changes is closed (an operator`s mistake, a restore), then the feed answers 503 JSON, and serves again once it is open', async () => {
    const alias = freshAlias();
    await run('import', alias, [file('closed.ndjson', wallpapers(5))]);
    const app = await apiOn(alias);
    await es.indices.close({ index: changesIndexOf(alias) });
    try {
      const res = await request(app.url, '/v1/changes', { key });
      expect(res.status, res.text).to.equal(503);
      expect(res.body).to.include({ error: 'service_unavailable', status: 503 });
      expect(res.text).to.not.match(/index_closed|exception/i);
    } finally {
      await es.indices.open({ index: changesIndexOf(alias), wait_for_active_shards: 1 });
    }
    expect((await walk(app)).items).to.have.length(5);
  });

  describe('what it refuses', () => {
    let app: RunningApp;
    before(async () => {
      const alias = freshAlias();
      await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 3));
      app = await apiOn(alias);
    });

    it('when the cursor is forged, or a list`s, then 400 names cursor', async () => {
      const first = await page(app, '?per_page=1');
      const forged = `${first.meta.next_cursor.slice(0, -2)}AA`;
      const list = await request(app.url, '/v1/wallpapers?per_page=1', { key });
      for (const cursor of [forged, (list.body as { meta: { next_cursor: string } }).meta.next_cursor, 'nonsense']) {
        const res = await request(app.url, `/v1/changes?cursor=${encodeURIComponent(cursor)}`, { key });
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ error: 'invalid_request', status: 400 });
        expect(res.body.message).to.contain("'cursor'");
      }
    });

    it('when per_page is out of bounds or a parameter is unknown, then 400 names it; without a key, 401', async () => {
      expect((await request(app.url, '/v1/changes?per_page=0', { key })).body.message).to.contain("'per_page'");
      expect((await request(app.url, '/v1/changes?since=1', { key })).body.message).to.contain("'since'");
      expect((await request(app.url, '/v1/changes')).status).to.equal(401);
    });
  });
});
