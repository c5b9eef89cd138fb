import { MAX_BATCH_SIZE } from '../ingest/bulk-load.js';
import { integer, parseCliArgs } from './cli-args.js';
import { IMAGE_OPTIONS, IMAGE_USAGE, type ImageArgs, parseImageArgs } from './image-args.js';

export interface SeedArgs {
  count: number;
  seed: number;
  keep: number;
  batchSize: number;
  concurrency: number;
  forceMerge: boolean;
  /** Leave a catalogue already behind the alias as it is (docker compose's `up` starts what is there). */
  ifAbsent: boolean;
  /** Read palettes from the pictures at IMAGE_BASE_URL (see npm run demo:pictures) instead of generating them. */
  images: ImageArgs | null;
  help: boolean;
}

export const SEED_USAGE = `usage: npm run seed -- [--count N] [--seed S] [--keep K] [--batch-size B] [--concurrency C] [--no-force-merge] [--if-absent] [--extract-colors]
  --count N        wallpapers to generate and load (default 1000)
  --seed S         generator seed, 0..4294967295 (default 42); same count and seed give the same data
  --keep K         versioned indices to keep, the live one included (default 2)
  --batch-size B   documents per batch (default 2000, at most 10000), sent in bulk requests of at most 16 MiB
  --concurrency C  bulk requests in flight (default 2)
  --no-force-merge leave the new index in the segments the load made (it is merged to one by default)
  --if-absent      do nothing when the alias already holds a catalogue (it is replaced by default)
  (without --extract-colors each wallpaper carries the palette its picture is drawn from)
${IMAGE_USAGE}
exit codes: 0 done, 1 failed, 2 bad usage or configuration,
            3 another import/reindex/seed holds the lock, 130/143 interrupted
environment: ELASTICSEARCH_URL, REDIS_URL, INDEX_ALIAS, IMAGE_BASE_URL`;

export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  const { values } = parseCliArgs(
    argv,
    {
      count: { type: 'string' },
      seed: { type: 'string' },
      keep: { type: 'string' },
      'batch-size': { type: 'string' },
      concurrency: { type: 'string' },
      'no-force-merge': { type: 'boolean', default: false },
      'if-absent': { type: 'boolean', default: false },
      ...IMAGE_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
    false,
  );
  return {
    count: integer('count', values.count, 1000, 1, 100_000_000),
    seed: integer('seed', values.seed, 42, 0, 0xffffffff),
    keep: integer('keep', values.keep, 2, 1, 1000),
    batchSize: integer('batch-size', values['batch-size'], 2000, 1, MAX_BATCH_SIZE),
    concurrency: integer('concurrency', values.concurrency, 2, 1, 64),
    forceMerge: values['no-force-merge'] !== true,
    ifAbsent: values['if-absent'] === true,
    images: parseImageArgs(values),
    help: values.help === true,
  };
}
