import { withoutKeys } from '../access/api-key.js';

/** Enough of a path to tell requests apart; a client's 15 KB path is not written whole to every line. */
const LOGGED_PATH_MAX = 200;

/** A path as a log line names it: no key (nor what looks like one), at most 200 characters. */
export function loggablePath(path: string): string {
  // Redacted before it is cut, so a key across the cut is still recognised whole.
  const clean = withoutKeys(path);
  return clean.length > LOGGED_PATH_MAX ? `${clean.slice(0, LOGGED_PATH_MAX)}…` : clean;
}
