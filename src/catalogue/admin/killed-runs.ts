import type { Client } from '@elastic/elasticsearch';
import { changesIndexOf } from '../../wallpapers/store/change-log.js';
import { ChangeRecorder } from './change-recorder.js';
import { previewRecord } from './record-preview.js';
import { AFTER_LEAVING, type VersionedIndex, listVersionedIndices, markIndexState, selectOrphans } from './index-admin.js';

/**
 * What runs killed outright left to do, done by the next run under the catalogue lock before it
 * starts; returns what it did, a line each. An index left `building` is removed (never a live
 * one). An index the alias left whose deletions were not all written (`leaving`, `rolling-back`:
 * killed after the switch, before its tombstones) has them written now, from the two indices: a
 * rollback killed there had lost 98,000 of 100,000 deletions from the feed for good (review). And
 * deletions recorded but never made (a run stopped between its tombstones and its deletes) are
 * withdrawn before any run commits past them: the feed had said a served wallpaper was deleted.
 * And a record whose history cannot go on begins a new one (ChangeRecorder.open), said here;
 * and what a run killed mid-load wrote but never served is served: the watermark moves past it.
 */
// What a run stopped after its alias switch left: said alike by the run that writes it and the dry run.
const UNWRITTEN = 'for the change feed, left unwritten by an earlier run stopped after its alias switch';

export async function finishKilledRuns(es: Client, alias: string, { fence }: { fence?: () => Promise<void> } = {}): Promise<string[]> {
  const indices = await listVersionedIndices(es, alias);
  const said: string[] = [];
  const { orphans, unrecorded } = leftByKilledRuns(indices);
  for (const { name } of orphans) {
    // Only while the lock is this run's: one paused past it had deleted the index another run was
    // loading (helper-116).
    await fence?.();
    await es.indices.delete({ index: name }, { ignore: [404] });
    said.push(`removed ${name}, left unfinished by an earlier run that stopped`);
  }
  const live = indices.find((index) => index.live);
  // A new alias has no record to go on with: none is made before the run changes anything.
  if (live === undefined && !(await es.indices.exists({ index: changesIndexOf(alias) }))) return said;
  // One recorder for all of it: each open reads the record's last number and watermark again.
  const recorder = await ChangeRecorder.open(es, alias, { against: live?.name ?? null, full: false, fence });
  if (recorder.began !== null) {
    said.push(
      `began a new history of the change feed, as ${recorder.began}: its readers are told to walk it again from the start (410 cursor_expired)`,
    );
  }
  if (live === undefined) return said;
  const before = recorder.watermark;
  const withdrawn = recorder.withdrawnAtOpen + (await recorder.withdrawUnmade(live.name));
  if (withdrawn > 0) {
    said.push(`withdrew ${withdrawn} deletions from the change feed that an earlier run recorded but did not make: ${live.name} still holds them`);
  }
  // What a run killed mid-load numbered and wrote is in the catalogue: served now, not only once a
  // later load commits, which a reindex never does (a mirror walking again had deleted 48 live
  // wallpapers meanwhile, helper-100). Nothing else is in flight under the lock. Served before the
  // deletions below are numbered, so the move said is that one alone, as the dry run says it: it
  // had counted the deletions written next as changes a killed run left unserved (helper-105).
  const served = await recorder.commit([live.name]);
  if (served > before)
    said.push(`moved the change feed's watermark from ${before} to ${served}, past changes an earlier run wrote but stopped before serving`);
  for (const left of unrecorded) {
    const deletes = await recorder.recordLeft(left.name, live.name);
    await recorder.commit([live.name]);
    await markIndexState(es, left.name, AFTER_LEAVING[left.state]);
    const recorded = `recorded ${deletes} deletions of ${left.name} ${UNWRITTEN}`;
    said.push(
      left.state === 'rolling-back'
        ? `finished the rollback from ${left.name} to ${live.name}: ${recorded}, and marked ${left.name} rolled back`
        : recorded,
    );
  }
  return said;
}

/**
 * What killed runs left among an alias's indices: builds never finished (removed), and indices the
 * alias left whose deletions are not all in the change feed yet (written). A dry run says both.
 */
export function leftByKilledRuns(indices: readonly VersionedIndex[]): { orphans: VersionedIndex[]; unrecorded: Leaving[] } {
  return { orphans: selectOrphans(indices), unrecorded: indices.filter(isLeaving) };
}

type Leaving = VersionedIndex & { state: keyof typeof AFTER_LEAVING };

const isLeaving = (index: VersionedIndex): index is Leaving => !index.live && Object.hasOwn(AFTER_LEAVING, index.state);

/**
 * The alias's indices as a real run sees them once finishKilledRuns is done: builds never finished
 * gone, an index left `leaving` (`rolling-back`) marked `complete` (`rolled-back`). A dry run plans
 * on these, or it named a rollback target other than the real run's (helper-97).
 */
export function afterKilledRuns(indices: readonly VersionedIndex[]): VersionedIndex[] {
  const orphans = new Set(selectOrphans(indices));
  return indices.filter((index) => !orphans.has(index)).map((index) => (isLeaving(index) ? { ...index, state: AFTER_LEAVING[index.state] } : index));
}

/**
 * The dry run's lines for what finishKilledRuns would do now, in its order: orphans, the record's
 * history, unmade deletions, the watermark moved past what was left unserved, and unwritten deletions.
 */
export async function describeKilledRuns(es: Client, alias: string): Promise<string[]> {
  const indices = await listVersionedIndices(es, alias);
  const { orphans, unrecorded } = leftByKilledRuns(indices);
  // Where the alias is, first: after a run that could not tell whether it moved the alias (an
  // answer lost), this line is how the operator learns it.
  const serving = indices.filter((index) => index.live).map(({ name }) => name);
  const live = serving[0] ?? null;
  const lines = [
    serving.length === 0 ? `alias ${alias} points at no versioned index` : `alias ${alias} points at ${serving.join(', ')}`,
    `would remove orphaned indices: ${orphans.map(({ name }) => name).join(', ') || 'none'}`,
  ];
  const record = await previewRecord(es, alias, live);
  if (record === null) return lines;
  if (record.begins !== null) {
    lines.push(`would begin a new history of the change feed, as ${record.begins}: its readers would be told to walk it again from the start`);
  }
  if (record.withdraws > 0) {
    lines.push(
      `would withdraw ${record.withdraws} deletions from the change feed that an earlier run recorded but did not make: ${live} still holds them`,
    );
  }
  const { from, to } = record.watermark;
  if (to > from) {
    lines.push(`would move the change feed's watermark from ${from} to ${to}, past changes an earlier run wrote but stopped before serving`);
  }
  for (const { name, state } of unrecorded) {
    lines.push(
      state === 'rolling-back'
        ? `would finish the rollback from ${name} to ${live}: record the deletions of ${name} ${UNWRITTEN}, and mark ${name} rolled back`
        : `would record the deletions of ${name} ${UNWRITTEN}`,
    );
  }
  return lines;
}
