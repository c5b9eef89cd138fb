import { EXIT_FAILED, failureCode, main, type CommandContext, type CatalogueCommand } from '../src/catalogue/cli/catalogue-cli.js';
import { interruptionOf } from '../src/catalogue/cli/interrupt.js';
import { dryRunNotes } from '../src/catalogue/cli/dry-run-notes.js';
import { AliasStateError, PublishError, listVersionedIndices } from '../src/catalogue/admin/index-admin.js';
import { afterKilledRuns, finishKilledRuns } from '../src/catalogue/admin/killed-runs.js';
import type { BulkProgress } from '../src/catalogue/ingest/bulk-load.js';
import { createProgress, type ProgressReporter } from '../src/catalogue/cli/progress.js';
import { parseReindexArgs, REINDEX_USAGE, type ReindexArgs } from '../src/catalogue/cli/reindex-args.js';
import { planReindex, reindexCatalogue, ReindexError } from '../src/catalogue/ingest/reindex-catalogue.js';
import { planRollback, rollbackCatalogue, RollbackError } from '../src/catalogue/admin/rollback.js';
import { describeCompaction } from '../src/catalogue/cli/compaction-report.js';

const list = (names: string[]) => names.join(', ') || 'none';

async function dryRun({ config, es, redis, say }: CommandContext, args: ReindexArgs): Promise<number> {
  const alias = config.indexAlias;
  say('dry run: nothing will be changed');
  for (const line of (await dryRunNotes(es, redis, alias)).notes) say(line);
  // Planned on the indices as the real run will find them, once killed runs are finished.
  const indices = afterKilledRuns(await listVersionedIndices(es, alias));
  if (args.rollback) {
    const plan = await planRollback(es, alias, indices);
    say(`would point alias ${alias} back from ${plan.from} to ${plan.to} and mark ${plan.from} rolled back`);
    return 0;
  }
  const plan = await planReindex(es, alias, args.keep, indices);
  say(`would copy ${plan.docs} documents from ${plan.source} (live behind ${alias}) into a new index named like ${plan.index}`);
  say(`would verify the copy, switch ${alias} to it, keep ${args.keep} versioned indices and prune: ${list(plan.pruned)}`);
  return 0;
}

async function rollback({ config, es, say, lock, signal }: CommandContext): Promise<number> {
  const plan = await rollbackCatalogue(es, config.indexAlias, { confirmLock: async () => lock?.confirm(), signal });
  say(`alias ${config.indexAlias} -> ${plan.to} (was: ${plan.from}, now marked rolled back)`);
  say(`change feed: ${plan.changes.upserts} wallpapers changed back, ${plan.changes.deletes} deleted`);
  return 0;
}

async function reindex({ config, es, say, signal, lock }: CommandContext, args: ReindexArgs): Promise<number> {
  const alias = config.indexAlias;
  const display: { progress?: ProgressReporter; onProgress?: (progress: BulkProgress) => void } = {};
  try {
    const result = await reindexCatalogue(es, {
      alias,
      resultWindow: config.maxResultWindow,
      keep: args.keep,
      batchSize: args.batchSize,
      concurrency: args.concurrency,
      sampleSize: args.sample,
      signal,
      confirmLock: async () => lock?.confirm(),
      onCopyStart: ({ source, index, total }) => {
        say(`copying ${total} documents from ${source} into new index ${index}`);
        const progress = createProgress({ total, label: 'copied' });
        display.progress = progress;
        display.onProgress = ({ indexed, failed }) => {
          progress.update(indexed + failed, failed);
          // The summary's rate covers the copy alone, not the refresh, checks and switch after it.
          if (indexed + failed >= total) progress.finish();
        };
      },
      onProgress: (progress) => display.onProgress?.(progress),
      onLive: (live) => {
        display.progress?.finish();
        for (const check of live.checks) say(`verified ${check.name}: ${check.detail}`);
        say(`alias ${alias} -> ${live.index} (was: ${list(live.previous)})`);
        say(`pruned: ${list(live.pruned)}`);
        say(`live: ${live.docs} documents in ${live.seconds.toFixed(1)}s (${Math.round(live.docs / live.seconds)} docs/s overall)`);
      },
    });
    if (result.compaction) say(describeCompaction(result.index, result.compaction));
    return 0;
  } catch (error) {
    display.progress?.finish();
    if (!(error instanceof ReindexError)) throw error;
    for (const { id, status, reason } of error.failed) say(`failed id ${id}${status === undefined ? '' : ` (HTTP ${status})`}: ${reason}`);
    const leftover =
      error.index === null
        ? 'no new index was created'
        : error.discarded
          ? `${error.index} deleted`
          : `${error.index} could not be deleted (marked building, the next run removes it)`;
    say(`${error.message}; alias ${alias} left unchanged, ${leftover}`);
    return failureCode(error);
  }
}

const command: CatalogueCommand<ReindexArgs> = {
  name: 'reindex',
  usage: REINDEX_USAGE,
  parse: parseReindexArgs,
  locked: (args) => !args.dryRun,
  async run(context, args) {
    try {
      if (args.dryRun) return await dryRun(context, args);
      for (const done of await finishKilledRuns(context.es, context.config.indexAlias, { fence: async () => context.lock?.confirm() }))
        context.say(done);
      return await (args.rollback ? rollback(context) : reindex(context, args));
    } catch (error) {
      // A rollback stopped before its alias switch has changed nothing a reader sees (reindex says
      // so itself): the index it would have gone back to may hold new numbers, which no reader sees
      // and the next rollback gives again.
      if (error instanceof PublishError) {
        context.say(error.message);
        return failureCode(error);
      }
      const stopped = interruptionOf(error);
      if (stopped) {
        context.say(`${stopped.message}; nothing a reader sees changed`);
        return failureCode(error);
      }
      if (!(error instanceof RollbackError || error instanceof AliasStateError)) throw error;
      context.say(`${error.message}; nothing changed`);
      return EXIT_FAILED;
    }
  },
};

main(command);
