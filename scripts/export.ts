// Writes wallpapers as NDJSON, the input format of `npm run import`: generated demo wallpapers (the
// same --count and --seed as `npm run seed`, so the data is identical), or with --live the
// catalogue behind INDEX_ALIAS as it stands.
//   npm run --silent export -- --count N [--seed S] [--out PATH]
//   npm run --silent export -- --live [--out PATH]
import { parseArgs } from 'node:util';
import { generateWallpapers } from '../src/catalogue/generation/generator.js';
import { callersPath, integer, UsageError } from '../src/catalogue/cli/cli-args.js';
import { exportLiveCatalogue, stoppedShort } from '../src/catalogue/cli/export-live.js';
import { stopping, trapInterrupts } from '../src/catalogue/cli/interrupt.js';
import { writeRecords } from '../src/catalogue/cli/record-writer.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { toRecord } from '../src/wallpapers/wallpaper.js';

const USAGE = `usage: npm run --silent export -- [--count N] [--seed S] [--out PATH]
       npm run --silent export -- --live [--out PATH]
  --count N    demo wallpapers to generate (default 1000)
  --seed S     generator seed (default 42)
  --live       the catalogue behind INDEX_ALIAS instead, every wallpaper in id order as one
               point in time: what \`npm run import\` reads back unchanged
  --out PATH   file to write, whole or not at all (default: standard output)
exit codes: 0 done, 1 failed (Elasticsearch, the alias, the output), 2 bad usage, 130/143 interrupted,
            141 standard output closed by its reader (\`| head\`)
environment: IMAGE_BASE_URL (demo), ELASTICSEARCH_URL and INDEX_ALIAS (--live)`;

const say = (line: string) => process.stderr.write(`export: ${line}\n`);

async function main(): Promise<number> {
  let options;
  try {
    const { values } = parseArgs({
      options: {
        count: { type: 'string' },
        seed: { type: 'string' },
        live: { type: 'boolean', default: false },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (values.live && (values.count !== undefined || values.seed !== undefined)) {
      throw new UsageError('--live exports the catalogue as it is; --count and --seed are for demo wallpapers');
    }
    if (values.out === '') throw new UsageError('--out needs a path');
    options = {
      live: values.live === true,
      count: integer('count', values.count, 1000, 0, 100_000_000),
      seed: integer('seed', values.seed, 42, 0, 0xffffffff),
      out: values.out === undefined ? undefined : callersPath(values.out),
      config: loadConfig(),
    };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError || error instanceof TypeError)) throw error;
    say(`${error.message}\n${USAGE}`);
    return 2;
  }
  // A reader gone (`| head -1`) is heard by the writer (ReaderGone), not as an unhandled error.
  process.stdout.on('error', () => undefined);
  if (options.live) return exportLiveCatalogue(options.config, options.out, say);
  const generated = generateWallpapers({ count: options.count, seed: options.seed, imageBaseUrl: options.config.imageBaseUrl });
  // Ctrl-C stops the export at its next write and removes the file it was writing.
  const interrupts = trapInterrupts((reason) => say(stopping(reason)));
  const { signal } = interrupts;
  try {
    await writeRecords(
      (function* () {
        for (const doc of generated) {
          signal.throwIfAborted();
          yield toRecord(doc);
        }
      })(),
      options.out,
    );
  } catch (error) {
    const code = stoppedShort(error, options.out, say);
    if (code === null) throw error;
    return code;
  } finally {
    interrupts.dispose();
  }
  if (options.out !== undefined) say(`${options.count} wallpapers written to ${options.out}`);
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
