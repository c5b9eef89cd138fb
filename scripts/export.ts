// Writes generated wallpapers as NDJSON (the nine API fields per line), the input format of
// `npm run import`. Same --count and --seed as `npm run seed`, so the data is identical.
//   npm run --silent export -- --count N [--seed S] [--out PATH]
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { generateWallpapers } from '../src/catalogue/generation/generator.js';
import { callersPath, integer, UsageError } from '../src/catalogue/cli/cli-args.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { toRecord } from '../src/wallpapers/wallpaper.js';

const USAGE = `usage: npm run --silent export -- [--count N] [--seed S] [--out PATH]
  --count N    wallpapers to generate (default 1000)
  --seed S     generator seed (default 42)
  --out PATH   file to write (default: standard output)
environment: IMAGE_BASE_URL`;

async function main(): Promise<number> {
  let options;
  try {
    const { values } = parseArgs({
      options: { count: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    options = {
      count: integer('count', values.count, 1000, 0, 100_000_000),
      seed: integer('seed', values.seed, 42, 0, 0xffffffff),
      out: values.out === undefined ? undefined : callersPath(values.out),
      imageBaseUrl: loadConfig().imageBaseUrl,
    };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError || error instanceof TypeError)) throw error;
    process.stderr.write(`export: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const out = options.out === undefined ? process.stdout : createWriteStream(options.out);
  let chunk = '';
  for (const doc of generateWallpapers({ count: options.count, seed: options.seed, imageBaseUrl: options.imageBaseUrl })) {
    chunk += `${JSON.stringify(toRecord(doc))}\n`;
    if (chunk.length >= 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  if (out === process.stdout) {
    out.write(chunk);
  } else {
    out.end(chunk);
    await once(out, 'close');
  }
  if (options.out !== undefined) process.stderr.write(`export: ${options.count} wallpapers written to ${options.out}\n`);
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`export: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
