import { constants, fstatSync, type Stats } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from './cli-args.js';

/** What the input is on disk: the file, or what standard input reads from (a file, a pipe, a terminal). */
export async function inputOnDisk(input: string): Promise<Stats> {
  if (input === '-') return fstatSync(0);
  return stat(input).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${input}: ${error.code ?? error.message}`);
  });
}

/**
 * Refuses a rejects file the run could not write, or that is the input itself under another name
 * (a symbolic or hard link, or the file standard input reads): before anything is created. A path
 * that could not be written had been found out only after the catalogue was replaced (exit 1 for
 * a run that had changed it), and one linked to the input had truncated it (review).
 */
export async function checkRejectsPath(path: string, input: Stats): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (existing !== null) {
    if (existing.isDirectory()) throw new UsageError(`--rejects ${path} is a directory`);
    if (existing.dev === input.dev && existing.ino === input.ino) {
      throw new UsageError(`--rejects ${path} is the input file (a link to it), which it would overwrite`);
    }
  }
  const writable = existing !== null ? path : dirname(path);
  await access(writable, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot write rejected lines to ${path}: ${error.code ?? error.message}`);
  });
}
