import { resolve } from 'node:path';
import { MAX_BATCH_SIZE } from '../ingest/bulk-load.js';
import { UsageError, callersPath, integer, parseCliArgs } from './cli-args.js';
import { IMAGE_OPTIONS, IMAGE_USAGE, type ImageArgs, parseImageArgs } from './image-args.js';

export interface ImportArgs {
  /** A path, or `-` for standard input. */
  input: string;
  incremental: boolean;
  /** Check the input and say what it would change, writing nothing to the catalogue. */
  dryRun: boolean;
  allowRejects: number;
  /** Wallpapers a full import may delete; undefined for the default (half the live catalogue), Infinity for all. */
  allowDeletes: number | undefined;
  /** Undefined for the default, which depends on what the input is: see defaultRejectsPath. */
  rejects: string | undefined;
  keep: number;
  batchSize: number;
  concurrency: number;
  /** Read palettes from thumbnails, and how. */
  images: ImageArgs | null;
  help: boolean;
}

export const IMPORT_USAGE = `usage: npm run import -- <file.ndjson | -> [--incremental] [--dry-run] [--allow-rejects N] [--allow-deletes N|all] [--rejects PATH] [--keep K] [--extract-colors]
  <file.ndjson | ->    one wallpaper JSON object per line (the nine API fields, optionally tags and
                       colors); - reads standard input
  --incremental        upsert into the live index by id instead of building a new index
  --dry-run            check every line and compare the records with the live catalogue: say what
                       would be rejected, added, changed and deleted, and whether the import would
                       succeed (exit 0) or fail (exit 1); writes only the rejects file
  --allow-rejects N    rejected lines tolerated; more fails the import (default 0)
  --allow-deletes N    live wallpapers a full import may delete by leaving them out of its input;
                       more fails it, changing nothing (default half the live catalogue; all: no bound)
  --rejects PATH       where rejected lines go (default <file>.rejects.ndjson, or
                       import-rejects-<timestamp>-<pid>.ndjson for standard input or a pipe)
  --keep K             versioned indices to keep after a full import, the live one included (default 2)
  --batch-size B       documents per batch (default 2000, at most 10000), sent in bulk requests of at most 16 MiB
  --concurrency C      bulk requests in flight (default 2)
${IMAGE_USAGE}
exit codes: 0 done, 1 failed or too many rejects, 2 bad usage or configuration,
            3 another import/reindex/seed holds the lock, 130/143 interrupted
environment: ELASTICSEARCH_URL, REDIS_URL, INDEX_ALIAS`;

/**
 * Beside a regular file; in the working directory for standard input or a pipe, where nothing can
 * be written beside it. That name carries the millisecond and the process id: two imports started
 * in the same second must not truncate each other's rejects.
 */
export function defaultRejectsPath(
  input: string,
  { regularFile, now = new Date(), pid = process.pid }: { regularFile: boolean; now?: Date; pid?: number },
): string {
  if (input !== '-' && regularFile) return `${input}.rejects.ndjson`;
  return callersPath(`import-rejects-${now.toISOString().replace(/\D/g, '').slice(0, 17)}-${pid}.ndjson`);
}

export function parseImportArgs(argv: readonly string[]): ImportArgs {
  const parsed = parseCliArgs(
    argv,
    {
      incremental: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'allow-rejects': { type: 'string' },
      'allow-deletes': { type: 'string' },
      rejects: { type: 'string' },
      keep: { type: 'string' },
      'batch-size': { type: 'string' },
      concurrency: { type: 'string' },
      ...IMAGE_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
    true,
  );
  const { values, positionals } = parsed;
  const help = values.help === true;
  if (!help && positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'name the NDJSON file to import, or - for standard input' : `one input only, got ${positionals.length}`,
    );
  }
  const typed = positionals[0] ?? '-';
  const input = typed === '-' ? typed : callersPath(typed);
  if (values.rejects === '') throw new UsageError('--rejects needs a path');
  const rejects = values.rejects === undefined ? undefined : callersPath(values.rejects);
  if (rejects !== undefined && input !== '-' && resolve(rejects) === resolve(input)) {
    throw new UsageError('--rejects must not be the input file, which it would overwrite');
  }
  const incremental = values.incremental === true;
  const deletes = values['allow-deletes'];
  // An incremental import deletes only the ids its input names, each on purpose.
  // A flag of the other kind of import would be read and do nothing: refused, so its user learns why.
  if (values.keep !== undefined && incremental)
    throw new UsageError('--keep is for a full import: an incremental one writes into the live index and prunes none');
  if (deletes !== undefined && incremental)
    throw new UsageError('--allow-deletes is for a full import: an incremental one deletes only the ids its lines name');
  return {
    input,
    incremental,
    dryRun: values['dry-run'] === true,
    allowRejects: integer('allow-rejects', values['allow-rejects'], 0, 0, Number.MAX_SAFE_INTEGER),
    allowDeletes: deletesAllowedArg(deletes),
    rejects,
    keep: integer('keep', values.keep, 2, 1, 1000),
    batchSize: integer('batch-size', values['batch-size'], 2000, 1, MAX_BATCH_SIZE),
    concurrency: integer('concurrency', values.concurrency, 2, 1, 64),
    images: parseImageArgs(values),
    help,
  };
}

/** `--allow-deletes`: a count, or `all` (any case) for no bound. */
function deletesAllowedArg(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (raw.toLowerCase() === 'all') return Number.POSITIVE_INFINITY;
  if (/^\d+$/.test(raw) && Number.isSafeInteger(Number(raw))) return Number(raw);
  throw new UsageError(`--allow-deletes must be all or an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(raw)}`);
}
