import type { Client } from '@elastic/elasticsearch';
import { ChangeRecorder } from './change-recorder.js';
import { AFTER_LEAVING, listVersionedIndices, markIndexState, selectOrphans } from './index-admin.js';

/**
 * What runs killed outright left to do, done by the next run under the catalogue lock before it
 * starts; returns what it did, a line each. An index left `building` is removed (never a live
 * one). An index the alias left whose deletions were not all written (`leaving`, `rolling-back`:
 * killed after the switch, before its tombstones) has them written now, from the two indices: a
 * rollback killed there had lost 98,000 of 100,000 deletions from the feed for good (review).
 */
export async function finishKilledRuns(es: Client, alias: string): Promise<string[]> {
  const indices = await listVersionedIndices(es, alias);
  const said: string[] = [];
  for (const { name } of selectOrphans(indices)) {
    await es.indices.delete({ index: name }, { ignore: [404] });
    said.push(`removed ${name}, left unfinished by an earlier run that was killed`);
  }
  const live = indices.find((index) => index.live);
  if (live === undefined) return said;
  for (const left of indices) {
    if (left.live || !(left.state === 'leaving' || left.state === 'rolling-back')) continue;
    const recorder = await ChangeRecorder.open(es, alias, { against: live.name, full: false });
    const deletes = await recorder.recordLeft(left.name, live.name);
    await recorder.commit([live.name]);
    await markIndexState(es, left.name, AFTER_LEAVING[left.state]);
    said.push(`recorded ${deletes} deletions of ${left.name} for the change feed, left unwritten by an earlier run killed after its alias switch`);
  }
  return said;
}
