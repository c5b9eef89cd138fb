import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { LockLostError } from '../../src/catalogue/admin/catalogue-lock.js';
import {
  aliasedIndices,
  createVersionedIndex,
  finishLoading,
  listVersionedIndices,
  PublishError,
  publishIndex,
  swapAlias,
} from '../../src/catalogue/admin/index-admin.js';
import { describeKilledRuns, finishKilledRuns } from '../../src/catalogue/admin/killed-runs.js';
import { planRollback, rollbackCatalogue, RollbackError } from '../../src/catalogue/admin/rollback.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { bulkLoad } from '../../src/catalogue/ingest/bulk-load.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { aliasTargets, stateOf } from '../support/catalogue-cli.js';
import { failingAliasSwap } from '../support/failing-alias-swap.js';
import { connectEs, dropIndicesOf, uniqueName } from '../support/harness.js';

const IMAGES = 'https://images.wallpapers.example';

describe('publishing a new catalogue index', function () {
  this.timeout(60_000);
  const es = connectEs();
  let alias: string;
  const seed = (client: Client, extra: Partial<Parameters<typeof seedCatalogue>[1]> = {}) =>
    seedCatalogue(client, { alias, count: 20, seed: 7, imageBaseUrl: IMAGES, keep: 2, ...extra });

  beforeEach(() => {
    alias = uniqueName('test-publish');
  });

  afterEach(async () => {
    await dropIndicesOf(es, alias);
  });

  after(async () => {
    await es.close();
  });

  it('when the alias swap fails, then the new index is removed, and the next run keeps the true rollback target', async () => {
    await seed(es);
    const second = await seed(es);
    const failed = await seed(failingAliasSwap(es, 'refused')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(PublishError).and.include({ switched: false });
    expect((failed as Error).message).to.match(
      new RegExp(`^injected: the _aliases call failed; alias ${alias} left unchanged, ${alias}-\\S+ deleted$`),
    );
    expect(await aliasedIndices(es, alias)).to.deep.equal([second.index]);
    const left = await listVersionedIndices(es, alias);
    expect(left.filter((index) => !index.live && index.state === 'complete').length, 'no complete index that never went live').to.equal(1);

    const fourth = await seed(es);
    expect(fourth.previous).to.deep.equal([second.index]);
    expect((await planRollback(es, alias)).to, 'the rollback target is the index that served before').to.equal(second.index);
  });

  it('when the swap was applied but its answer was lost, then the run counts it as done', async () => {
    await seed(es);
    const result = await seed(failingAliasSwap(es, 'applied-then-lost'));
    expect(await aliasedIndices(es, alias)).to.deep.equal([result.index]);
    const live = (await listVersionedIndices(es, alias)).find((index) => index.live)!;
    expect(live.name).to.equal(result.index);
    expect(live.state).to.equal('complete');
  });

  const unknownPublish = (index: string) =>
    `injected: the _aliases call failed; whether alias ${alias} moved to ${index} is unknown (Elasticsearch did not answer its read-back); ` +
    `${index} left marked building: the next catalogue run removes it if the alias did not move, and finishes the switch, the change feed's record of it included, if it did`;
  const unknownRollback = (index: string) =>
    `injected: the _aliases call failed; whether alias ${alias} moved to ${index} is unknown (Elasticsearch did not answer its read-back): ` +
    'the next catalogue run finishes the rollback if it did; see where the alias is with `npm run reindex -- --rollback --dry-run` ' +
    'before rolling back again (if it moved, another rollback goes one version further back)';

  it('when the swap was applied but neither its answer nor the alias read-back came, then the run says it cannot tell, keeps the index, and the next run keeps it as the live one', async () => {
    const first = await seed(es);
    const failed = await seed(failingAliasSwap(es, 'applied-then-silent')).catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(PublishError).and.include({ switched: 'unknown' });
    const [live] = await aliasedIndices(es, alias);
    expect(live).to.not.equal(first.index);
    expect((failed as Error).message).to.equal(unknownPublish(live!));
    expect(await stateOf(es, live!)).to.equal('building');

    // What every catalogue run does first: never removes a live index, though marked building.
    const said = (await finishKilledRuns(es, alias)).join('\n');
    expect(said).to.not.include(`removed ${live}`);
    expect(said, "the change feed's record of the switch").to.include(`deletions of ${first.index} for the change feed`);
    expect(await es.indices.exists({ index: live! })).to.equal(true);
    const next = await seed(es);
    expect(next.previous, 'the index that did go live is what the next run replaces').to.deep.equal([live]);
    expect(await stateOf(es, live!), 'repaired when the alias left it').to.equal('complete');
  });

  it('when the swap was refused and the alias read-back did not come, then the run says it cannot tell, keeps the index, and the next run removes it', async () => {
    const first = await seed(es);
    const failed = await seed(failingAliasSwap(es, 'refused-then-silent')).catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(PublishError).and.include({ switched: 'unknown' });
    const built = /moved to (\S+) is unknown/.exec((failed as Error).message)?.[1];
    expect((failed as Error).message).to.equal(unknownPublish(built!));
    expect(await aliasedIndices(es, alias)).to.deep.equal([first.index]);
    expect(await stateOf(es, built!)).to.equal('building');

    expect(await finishKilledRuns(es, alias)).to.include(`removed ${built}, left unfinished by an earlier run that stopped`);
    expect(await es.indices.exists({ index: built! })).to.equal(false);
  });

  it('when a rollback cannot tell whether its alias moved, and it did, then it does not say nothing changed, and the next run finishes it', async () => {
    const first = await seed(es, { keep: 3 });
    const second = await seed(es, { keep: 3 });
    const silent = await rollbackCatalogue(failingAliasSwap(es, 'applied-then-silent'), alias).catch((e: unknown) => e);
    expect(silent).to.not.be.instanceOf(RollbackError);
    expect(silent).to.be.instanceOf(PublishError).and.include({ switched: 'unknown' });
    expect((silent as Error).message).to.equal(unknownRollback(first.index));
    expect(await aliasedIndices(es, alias)).to.deep.equal([first.index]);
    expect(await stateOf(es, second.index)).to.equal('rolling-back');
    // What the message sends the operator to (reindex --rollback --dry-run) says where the alias is.
    const dry = await describeKilledRuns(es, alias);
    expect(dry[0]).to.equal(`alias ${alias} points at ${first.index}`);
    expect(dry).to.include(
      `would finish the rollback from ${second.index} to ${first.index}: record the deletions of ${second.index} for the change feed, ` +
        `left unwritten by an earlier run stopped after its alias switch, and mark ${second.index} rolled back`,
    );
    const said = await finishKilledRuns(es, alias);
    expect(said.join('\n')).to.match(new RegExp(`deletions of ${second.index}`));
    expect(await stateOf(es, second.index)).to.equal('rolled-back');
  });

  it('when a rollback cannot tell whether its alias moved, and it did not, then the alias serves as before and the rollback can be run again', async () => {
    const first = await seed(es, { keep: 3 });
    const second = await seed(es, { keep: 3 });
    const silent = await rollbackCatalogue(failingAliasSwap(es, 'refused-then-silent'), alias).catch((e: unknown) => e);
    expect(silent).to.be.instanceOf(PublishError).and.include({ switched: 'unknown' });
    expect((silent as Error).message).to.equal(unknownRollback(first.index));
    expect(await aliasedIndices(es, alias)).to.deep.equal([second.index]);
    const dry = await describeKilledRuns(es, alias);
    expect(dry[0]).to.equal(`alias ${alias} points at ${second.index}`);
    expect(dry.join('\n')).to.not.include('would finish the rollback');
    expect(await finishKilledRuns(es, alias), 'nothing to finish: the live index is not one being left').to.deep.equal([]);
    const again = await rollbackCatalogue(es, alias);
    expect(again).to.include({ from: second.index, to: first.index });
    expect(await aliasedIndices(es, alias)).to.deep.equal([first.index]);
  });

  it("when a rollback's swap is refused, then it says nothing changed", async () => {
    await seed(es, { keep: 3 });
    const second = await seed(es, { keep: 3 });
    const refused = await rollbackCatalogue(failingAliasSwap(es, 'refused'), alias).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(RollbackError);
    expect(await aliasedIndices(es, alias)).to.deep.equal([second.index]);
  });

  it('when a run died between its swap and its mark, then the live index counts as complete and survives as the next rollback target', async () => {
    await seed(es);
    // A run killed right after the swap: live, still marked building.
    const index = await createVersionedIndex(es, alias);
    await bulkLoad(es, index, generateWallpapers({ count: 20, seed: 8, imageBaseUrl: IMAGES }), {});
    await finishLoading(es, index);
    await es.indices.updateAliases({ actions: [{ remove: { index: '*', alias, must_exist: false } }, { add: { index, alias } }] });
    expect((await es.indices.getMapping({ index }))[index]!.mappings._meta?.['state']).to.equal('building');

    const next = await seed(es);
    expect(next.previous).to.deep.equal([index]);
    expect((await es.indices.getMapping({ index }))[index]!.mappings._meta?.['state'], 'repaired when the alias left it').to.equal('complete');
    expect((await planRollback(es, alias)).to).to.equal(index);
    await seed(es, { keep: 3 });
    expect(await es.indices.exists({ index }), 'never taken for an orphan').to.equal(true);
  });

  it('when the lock is lost after the swap, then nothing is pruned', async () => {
    const first = await seed(es);
    const second = await seed(es);
    // The lock is asked for before every write of the load too (the change feed's fence): it is
    // lost the moment the alias has left the index the run replaces.
    let askedAfterSwap = 0;
    const confirmLock = async () => {
      if ((await aliasTargets(es, alias)).includes(second.index)) return;
      askedAfterSwap++;
      throw new LockLostError('wpc:catalogue-lock:test');
    };
    const err = await seed(es, { keep: 1, confirmLock }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(PublishError).and.include({ switched: true });
    expect((err as Error).cause).to.be.instanceOf(LockLostError);
    const live = (await aliasedIndices(es, alias))[0]!;
    expect((err as Error).message, 'says the alias moved').to.equal(
      `the catalogue lock wpc:catalogue-lock:test expired or was taken over; alias ${alias} -> ${live} is live, nothing was pruned (the next run prunes beyond --keep)`,
    );
    expect(askedAfterSwap, 'asked again before pruning').to.equal(1);
    const names = (await listVersionedIndices(es, alias)).map((index) => index.name);
    expect(names).to.include(first.index).and.include(second.index);
  });

  it('when the lock is lost while the change feed records what the switch replaced, then the run says the new index is live and the next run writes that record', async () => {
    await seed(es);
    const second = await seed(es);
    const index = await createVersionedIndex(es, alias);
    await bulkLoad(es, index, generateWallpapers({ count: 20, seed: 9, imageBaseUrl: IMAGES }), {});
    await finishLoading(es, index);
    const err = await publishIndex(es, alias, index, {
      keep: 1,
      confirmLock: async () => undefined,
      beforePrune: () => Promise.reject(new LockLostError('wpc:catalogue-lock:test')),
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PublishError).and.include({ switched: true });
    expect((err as Error).message).to.equal(
      `the catalogue lock wpc:catalogue-lock:test expired or was taken over; alias ${alias} -> ${index} is live, ` +
        "the change feed's record of what it replaced is written by the next catalogue run, and nothing was pruned",
    );
    expect(await aliasedIndices(es, alias)).to.deep.equal([index]);
    const left = (await listVersionedIndices(es, alias)).find((each) => each.name === second.index);
    expect(left?.state, 'kept, though --keep 1, and marked for the next run').to.equal('leaving');
  });

  it('when the index a run built was deleted and made again by a write (another run that lost its lock removed it), then it is not made live', async () => {
    const first = await seed(es);
    const index = await createVersionedIndex(es, alias);
    await es.indices.delete({ index });
    // What the run's next bulk request does to a deleted index: Elasticsearch makes it, dynamic.
    await es.index({ index, id: '1', document: { id: 1, title: 'written after the deletion' }, refresh: true });
    const err = await publishIndex(es, alias, index, { keep: 2 }).catch((e: unknown) => e);
    expect(String(err)).to.include('is not an index a catalogue run made');
    expect(await aliasedIndices(es, alias)).to.deep.equal([first.index]);
    expect(await es.indices.exists({ index }), 'discarded').to.equal(false);
  });

  it('when the lock is lost just before the swap (a paused rollback or load), then the alias stays where it was', async () => {
    const first = await seed(es);
    const second = await seed(es);
    let asked = 0;
    const err = await swapAlias(es, alias, first.index, {
      leaving: 'rolling-back',
      confirm: async () => {
        asked++;
        throw new LockLostError('wpc:catalogue-lock:test');
      },
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(LockLostError);
    expect(asked).to.equal(1);
    expect(await aliasedIndices(es, alias)).to.deep.equal([second.index]);
  });

  it("when a run that lost its lock finds another run's index building, then it does not remove it", async () => {
    await seed(es);
    const building = await createVersionedIndex(es, alias);
    const err = await finishKilledRuns(es, alias, {
      fence: () => Promise.reject(new LockLostError('wpc:catalogue-lock:test')),
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(LockLostError);
    expect(await es.indices.exists({ index: building })).to.equal(true);
  });
});
