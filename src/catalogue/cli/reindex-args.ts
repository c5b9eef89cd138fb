import { MAX_BATCH_SIZE } from '../ingest/bulk-load.js';
import { UsageError, integer, parseCliArgs } from './cli-args.js';

export interface ReindexArgs {
  keep: number;
  dryRun: boolean;
  rollback: boolean;
  batchSize: number;
  concurrency: number;
  sample: number;
  help: boolean;
}

export const REINDEX_USAGE = `usage: scripts/reindex [--keep K] [--dry-run] [--rollback] [--batch-size B] [--concurrency C] [--sample N]
  (no flag)          copy the live index into a new one built from index-mappings/wallpapers.json,
                     verify it, switch the alias atomically, prune beyond --keep
  --rollback         point the alias back at the previous complete index
  --dry-run          say what would happen (with or without --rollback) and change nothing
  --keep K           versioned indices to keep, the live one included (default 2, at least 2 so
                     that a rollback target survives)
  --batch-size B     documents per read and per batch (default 2000), sent in bulk requests of at most 16 MiB
  --concurrency C    bulk requests in flight (default 2)
  --sample N         random documents compared between the old and new index (default 200)
exit codes: 0 done, 1 failed (alias unchanged), 2 bad usage or configuration,
            3 another import/reindex/seed holds the lock, 130/143 interrupted
environment: ELASTICSEARCH_URL, REDIS_URL, INDEX_ALIAS`;

export function parseReindexArgs(argv: readonly string[]): ReindexArgs {
  const { values } = parseCliArgs(
    argv,
    {
      keep: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      rollback: { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
      concurrency: { type: 'string' },
      sample: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    false,
  );
  // A rollback copies nothing and prunes nothing: these would be ignored, silently (helper-97).
  const forReindex = (['keep', 'batch-size', 'concurrency', 'sample'] as const).filter((name) => values[name] !== undefined);
  if (values.rollback === true && forReindex.length > 0) {
    throw new UsageError(
      `${forReindex.map((name) => `--${name}`).join(', ')} ${forReindex.length === 1 ? 'is' : 'are'} for a reindex; --rollback takes none`,
    );
  }
  return {
    keep: integer('keep', values.keep, 2, 2, 1000),
    dryRun: values['dry-run'] === true,
    rollback: values.rollback === true,
    batchSize: integer('batch-size', values['batch-size'], 2000, 1, MAX_BATCH_SIZE),
    concurrency: integer('concurrency', values.concurrency, 2, 1, 64),
    sample: integer('sample', values.sample, 200, 0, 10_000),
    help: values.help === true,
  };
}
