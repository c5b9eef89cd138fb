import type { Client } from '@elastic/elasticsearch';
import { ChangeRecorder } from './change-recorder.js';
import {
  AFTER_LEAVING,
  PublishError,
  type VersionedIndex,
  aliasMovedTo,
  listVersionedIndices,
  markIndexState,
  messageOf,
  swapAlias,
  unknownMove,
} from './index-admin.js';

export interface RollbackPlan {
  from: string;
  to: string;
}

export interface RollbackResult extends RollbackPlan {
  /** What the change feed recorded: wallpapers that differ between the two, and those only the one left behind holds. */
  changes: { upserts: number; deletes: number };
}

export class RollbackError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'RollbackError';
  }
}

/**
 * The newest open, complete versioned index older than the live one. Rolled-back and
 * abandoned indices never qualify, so repeated rollbacks walk back through good versions.
 */
export async function planRollback(es: Client, alias: string, listed?: readonly VersionedIndex[]): Promise<RollbackPlan> {
  const indices = listed ?? (await listVersionedIndices(es, alias));
  const live = indices.filter((index) => index.live);
  if (live.length !== 1) {
    throw new RollbackError(
      `alias ${alias} points at ${live.length} versioned indices (${live.map((i) => i.name).join(', ') || 'none'}); rollback needs exactly one`,
    );
  }
  const current = live[0]!;
  const target = indices.find((index) => !index.live && index.state === 'complete' && index.docs !== null && index.createdAt < current.createdAt);
  if (target === undefined) {
    throw new RollbackError(`nothing to roll back to: ${current.name} is live and no older complete index of ${alias} is left`);
  }
  return { from: current.name, to: target.name };
}

/**
 * Points the alias back at the previous index in one atomic call, and marks the one it leaves
 * rolled back. The change feed records what that undoes (recordRollback), made visible once the
 * alias has moved.
 */
export async function rollbackCatalogue(
  es: Client,
  alias: string,
  { confirmLock, signal }: { confirmLock?: () => Promise<void>; signal?: AbortSignal } = {},
): Promise<RollbackResult> {
  const plan = await planRollback(es, alias);
  await confirmLock?.();
  await ChangeRecorder.prepareLive(es, plan.to);
  const recorder = await ChangeRecorder.open(es, alias, { against: plan.from, full: false, fence: confirmLock });
  const changes = await recorder.recordRollback(plan.from, plan.to, signal);
  await confirmLock?.();
  // Stopped before the switch, nothing has changed for a reader. Past it the rollback finishes:
  // the index it leaves is `rolling-back` until its deletions are written, and should this run be
  // killed before, the next catalogue run writes them (finishKilledRuns).
  signal?.throwIfAborted();
  try {
    await swapAlias(es, alias, plan.to, { leaving: 'rolling-back', confirm: confirmLock });
  } catch (error) {
    const moved = await aliasMovedTo(es, alias, plan.to);
    if (moved === false) throw new RollbackError(messageOf(error), { cause: error });
    // Unknown is not "nothing changed": the next catalogue run finishes a rollback that did move,
    // and a rollback run again blind would then go one version further back.
    const where =
      moved === true
        ? `alias ${alias} -> ${plan.to} is live`
        : `${unknownMove(alias, plan.to)}: the next catalogue run finishes the rollback if it did; ` +
          'see where the alias is with `npm run reindex -- --rollback --dry-run` before rolling back again ' +
          '(if it moved, another rollback goes one version further back)';
    throw new PublishError(moved, `${messageOf(error)}; ${where}`, { cause: error });
  }
  try {
    await recorder.finishRollback();
    await markIndexState(es, plan.from, AFTER_LEAVING['rolling-back']);
    await recorder.commit([plan.to]);
  } catch (error) {
    throw new PublishError(
      true,
      `${messageOf(error)}; alias ${alias} -> ${plan.to} is live, the change feed's record of what it undid is written by the next catalogue run`,
      { cause: error },
    );
  }
  return { ...plan, changes };
}
