import { dirname, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * A path as the operator typed it, read from the directory they typed it in. `npm run` starts a
 * script in the project's root, so `cd exports && npm run import -- week.ndjson` had read the root's
 * week.ndjson (or none) and written a pipe's rejects there; npm says where it was run in INIT_CWD.
 * Only for the process npm started there (its working directory is the package's): a child started
 * elsewhere inherits INIT_CWD too. Unchanged where the two directories are one.
 */
export function callersPath(path: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const started = env['INIT_CWD'];
  const packageJson = env['npm_package_json'];
  if (!started || !packageJson || resolve(dirname(packageJson)) !== resolve(cwd) || resolve(started) === resolve(cwd)) return path;
  return resolve(started, path);
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, with its complaints turned into UsageError (exit 2 in the CLIs). */
export function parseCliArgs<O extends Options, P extends boolean>(argv: readonly string[], options: O, allowPositionals: P) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals, options });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's words for `--seed -1` ("argument is ambiguous", three lines) do not say the rule.
    const dashed = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
    if (dashed)
      throw new UsageError(
        `${dashed[1]} needs a value; one starting with a dash is read as an option (write ${dashed[1]}=VALUE to pass it as typed)`,
      );
    throw new UsageError(message);
  }
}
