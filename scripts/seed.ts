import { errors, type Client } from '@elastic/elasticsearch';
import { failureCode, withCatalogueLock } from '../src/catalogue/cli/catalogue-cli.js';
import { stopping, trapInterrupts } from '../src/catalogue/cli/interrupt.js';
import { finishKilledRuns } from '../src/catalogue/admin/killed-runs.js';
import { heedingInterrupts, type CatalogueLock } from '../src/catalogue/admin/catalogue-lock.js';
import { UsageError } from '../src/catalogue/cli/cli-args.js';
import { parseSeedArgs, SEED_USAGE, type SeedArgs } from '../src/catalogue/cli/seed-args.js';
import { seedCatalogue, SeedError } from '../src/catalogue/ingest/seed-catalogue.js';
import { createProgress, type ProgressReporter } from '../src/catalogue/cli/progress.js';
import { cannotReach, ConfigError, displayUrl, loadConfig, type Config } from '../src/config.js';
import { TOOLS_MAX_ANSWER_BYTES, createEsClient } from '../src/infra/elasticsearch.js';
import { generateWallpapers } from '../src/catalogue/generation/generator.js';
import { type ExtractCounts, withExtractedColors } from '../src/catalogue/pixels/extract-colors.js';
import { describeExtraction } from '../src/catalogue/cli/extraction-report.js';
import { describeCompaction } from '../src/catalogue/cli/compaction-report.js';
import { exitWhenDone } from '../src/catalogue/cli/exit-when-done.js';

const say = (line: string) => process.stderr.write(`seed: ${line}\n`);

function parseInputs(): { args: SeedArgs; config: Config } | number {
  try {
    const args = parseSeedArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(`${SEED_USAGE}\n`);
      return 0;
    }
    return { args, config: loadConfig() };
  } catch (error) {
    if (error instanceof UsageError) say(`${error.message}\n${SEED_USAGE}`);
    else if (error instanceof ConfigError) say(error.message);
    else throw error;
    return 2;
  }
}

function unreachable(error: unknown): boolean {
  return error instanceof errors.ConnectionError || error instanceof errors.TimeoutError;
}

/**
 * With --if-absent: the exit code when the alias has a catalogue already, left as it is, or null to
 * seed. An alias on several indices is refused, naming them: the API serves one, and would not be
 * ready on it.
 */
async function alreadySeeded(es: Client, alias: string): Promise<number | null> {
  if (!(await es.indices.existsAlias({ name: alias }))) return null;
  const indices = Object.keys(await es.indices.getAlias({ name: alias })).sort();
  if (indices.length > 1) {
    say(`alias ${alias} points at ${indices.length} indices (${indices.join(', ')}), and the API serves one: point it at one and run again`);
    return 1;
  }
  const counted = await es.count({ index: alias }).then(
    ({ count }) => `${count} wallpapers`,
    (error: unknown) =>
      `a catalogue whose wallpapers could not be counted (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
  );
  say(`alias ${alias} already holds ${counted} in ${indices[0]}; left as it is (--if-absent)`);
  return 0;
}

async function main(): Promise<number> {
  const inputs = parseInputs();
  if (typeof inputs === 'number') return inputs;
  const { args, config } = inputs;
  // Bulk requests and refreshes on a large index take far longer than the API's per-request budget.
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 120_000, maxAnswerBytes: TOOLS_MAX_ANSWER_BYTES });
  try {
    try {
      await es.cluster.health({}, { requestTimeout: 5000 });
    } catch (error) {
      say(cannotReach('Elasticsearch', config.elasticsearchUrl, error instanceof Error ? error.message : String(error)));
      return 1;
    }
    // Before the lock too: an `up` while an import holds it finds the catalogue there and is done,
    // rather than fail on the lock and leave the API unstarted.
    const present = args.ifAbsent ? await alreadySeeded(es, config.indexAlias) : null;
    if (present !== null) return present;
    return await withCatalogueLock(config, 'seed', say, (lock) => seed(es, args, config, lock));
  } finally {
    await es.close();
  }
}

async function seed(es: Client, args: SeedArgs, config: Config, lock: CatalogueLock): Promise<number> {
  const interrupts = trapInterrupts((reason) => say(stopping(reason)));
  try {
    return await seedUnder(es, args, config, heedingInterrupts(lock, interrupts.signal), AbortSignal.any([interrupts.signal, lock.lost]));
  } finally {
    interrupts.dispose();
  }
}

async function seedUnder(es: Client, args: SeedArgs, config: Config, lock: CatalogueLock, signal: AbortSignal): Promise<number> {
  for (const done of await finishKilledRuns(es, config.indexAlias, { fence: () => lock.confirm() })) say(done);
  // Again under the lock, for a run that made the catalogue in between.
  const present = args.ifAbsent ? await alreadySeeded(es, config.indexAlias) : null;
  if (present !== null) return present;
  say(`seeding ${args.count} wallpapers (seed ${args.seed}) behind alias ${config.indexAlias} at ${displayUrl(config.elasticsearchUrl)}`);
  const display: { progress?: ProgressReporter } = {};
  const print = (line: string) => (display.progress ? display.progress.log(`seed: ${line}`) : say(line));
  const { images } = args;
  const extraction: ExtractCounts = { extracted: 0, failed: 0, kept: 0, seconds: 0 };
  if (images) say(`reading palettes from the pictures at ${config.imageBaseUrl}${images.dir === undefined ? '' : ` (files in ${images.dir})`}`);
  try {
    const result = await seedCatalogue(es, {
      alias: config.indexAlias,
      resultWindow: config.maxResultWindow,
      count: args.count,
      seed: args.seed,
      imageBaseUrl: config.imageBaseUrl,
      keep: args.keep,
      batchSize: args.batchSize,
      concurrency: args.concurrency,
      forceMerge: args.forceMerge,
      ...(images
        ? {
            documents: withExtractedColors(
              generateWallpapers({ count: args.count, seed: args.seed, imageBaseUrl: config.imageBaseUrl, palettes: 'none' }),
              { ...images, signal, onFailure: ({ id, url, reason }) => print(`id ${id}: no palette, picture ${url}: ${reason}`) },
              extraction,
            ),
          }
        : {}),
      confirmLock: () => lock.confirm(),
      signal,
      onIndexCreated: (index) => {
        say(`created ${index}`);
        display.progress = createProgress({ total: args.count });
      },
      onProgress: ({ indexed, failed }) => {
        display.progress?.update(indexed + failed, failed);
        // The summary's rate covers the load alone, not the refresh and alias switch after it.
        if (indexed + failed >= args.count) display.progress?.finish();
      },
      onLive: (live) => {
        display.progress?.finish();
        say(`alias ${config.indexAlias} -> ${live.index} (was: ${live.previous.join(', ') || 'none'})`);
        say(`pruned: ${live.pruned.join(', ') || 'none'}`);
        if (images) say(describeExtraction(extraction));
        say(`live: ${live.indexed} docs in ${live.seconds.toFixed(1)}s (${Math.round(live.indexed / live.seconds)} docs/s overall)`);
      },
    });
    if (result.compaction) say(describeCompaction(result.index, result.compaction));
    return 0;
  } catch (error) {
    display.progress?.finish();
    if (!(error instanceof SeedError)) throw error;
    for (const { id, status, reason } of error.failed) say(`failed id ${id}${status === undefined ? '' : ` (HTTP ${status})`}: ${reason}`);
    const cause = unreachable(error.cause) ? ` (Elasticsearch at ${displayUrl(config.elasticsearchUrl)} unreachable)` : '';
    const leftover = error.discarded ? `${error.index} deleted` : `${error.index} could not be deleted`;
    say(`${error.message}${cause}; alias ${config.indexAlias} left unchanged, ${leftover}`);
    return failureCode(error);
  }
}

main().then(
  (code) => exitWhenDone(code, say),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    exitWhenDone(failureCode(error), say);
  },
);
