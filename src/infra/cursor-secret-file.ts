import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, CURSOR_SECRET_LENGTH } from '../config.js';

/**
 * CURSOR_SECRET_FILE: the cursor secret kept in a file, as a container's volume, a secrets mount or
 * the local stack's directory holds it. A file that is not there yet is made, with a random secret
 * readable by its owner only: the first start of a deployment makes it, and every later start and
 * every instance sharing the file reads the same one, so the cursors clients keep (a change feed's,
 * a mirror's) outlive a restart without an operator having to make a secret first.
 *
 * Returns the environment with CURSOR_SECRET filled from the file, for loadConfig to check as if
 * it had been given; throws a ConfigError naming the file (never showing what it holds).
 */
export function withCursorSecretFile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = env['CURSOR_SECRET_FILE'];
  if (path === undefined || path === '') return env;
  if (env['CURSOR_SECRET'] !== undefined && env['CURSOR_SECRET'] !== '') {
    throw new ConfigError(['CURSOR_SECRET_FILE: set it or CURSOR_SECRET, not both (which one seals cursors would be a guess)']);
  }
  let secret: string;
  try {
    secret = readOrMake(path);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError([`CURSOR_SECRET_FILE: cannot read or make ${path}: ${why}`]);
  }
  // CURSOR_SECRET's own rule, said of the file: the operator set the file, not the variable.
  const { min, max } = CURSOR_SECRET_LENGTH;
  if (secret.length < min || secret.length > max) {
    throw new ConfigError([`CURSOR_SECRET_FILE: ${path} must hold ${min} to ${max} characters (value not shown)`]);
  }
  return { ...env, CURSOR_SECRET: secret };
}

function readOrMake(path: string): string {
  try {
    return readSecret(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole under another name, then linked into place: link fails if the name exists, so of
  // two instances starting at once on one volume, one makes the secret and the other reads it, never
  // a file half written.
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return readSecret(path);
}

// A secrets mount or `echo … >` ends the file with a line break, which is not part of the secret.
function readSecret(path: string): string {
  return readFileSync(path, 'utf8').replace(/\r?\n$/, '');
}
