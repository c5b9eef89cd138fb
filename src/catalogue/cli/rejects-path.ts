import { fstatSync, type Stats } from 'node:fs';
import { lstat, open, rm, stat } from 'node:fs/promises';
import { UsageError } from './cli-args.js';

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is not a directory',
  ELOOP: 'too many links',
  ENAMETOOLONG: 'the name is too long',
};

/** Why a file could not be read, in words: an operator read only "ENOENT" (helper-97). */
export function fileProblem(error: NodeJS.ErrnoException): string {
  const said = error.code === undefined ? undefined : FILE_PROBLEMS[error.code];
  return said === undefined ? (error.code ?? error.message) : `${said} (${error.code})`;
}

/** What the input is on disk: the file, or what standard input reads from (a file, a pipe, a terminal). */
export async function inputOnDisk(input: string): Promise<Stats> {
  if (input === '-') return fstatSync(0);
  return stat(input).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${input}: ${fileProblem(error)}`);
  });
}

/**
 * Refuses, before anything is created, a rejects file the run could not write or should not touch:
 * one that is not a plain file (a device, a link, a directory: a run with no rejects removes its
 * rejects file, and had removed /dev/full so), the input itself under another name (a hard link,
 * or the file standard input reads: it would be truncated), or one that cannot be opened for
 * writing (tried, not inferred from permission bits, which root passes). Such a path had been
 * found out only after the catalogue was replaced (review).
 */
export async function checkRejectsPath(path: string, input: Stats): Promise<void> {
  const existing = await lstat(path).catch(() => null);
  if (existing !== null) {
    if (!existing.isFile()) throw new UsageError(`--rejects ${path} is not a plain file (a directory, a link or a device)`);
    if (existing.dev === input.dev && existing.ino === input.ino) {
      throw new UsageError(`--rejects ${path} is the input file (a link to it), which it would overwrite`);
    }
  }
  // Opened without truncating what is there; a file made only to try it is removed again.
  const handle = await open(path, existing === null ? 'wx' : 'a').catch((error: NodeJS.ErrnoException) => {
    // The default for standard input is the working directory, which a container's image may not
    // let its user write (/app in ours): the way out is named, not only the failure.
    throw new UsageError(`cannot write rejected lines to ${path}: ${fileProblem(error)}; name a writable file with --rejects PATH`);
  });
  await handle.close();
  if (existing === null) await rm(path, { force: true });
}
