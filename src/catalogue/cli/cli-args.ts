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

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, with its complaints turned into UsageError (exit 2 in the CLIs). */
export function parseCliArgs<O extends Options, P extends boolean>(argv: readonly string[], options: O, allowPositionals: P) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals, options });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
