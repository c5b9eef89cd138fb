import { withoutKeys } from '../access/api-key.js';

/** Enough of a path to tell requests apart; a client's 15 KB path is not written whole to every line. */
const LOGGED_PATH_MAX = 200;

/** Past the cut, as much as a whole key (63 characters) and a little: what a key across the cut needs to be recognised. */
const KEY_ROOM = 64;

/** A path as a log line names it: no key (nor what looks like one), at most 200 characters. */
export function loggablePath(path: string): string {
  // Redacted before the cut, so a key across it is still recognised whole; and only what can reach
  // the cut is looked at, so a 16 KB path costs what a short one does (all of one had cost 2 ms a
  // request, before any key check).
  const clean = withoutKeys(path.slice(0, LOGGED_PATH_MAX + KEY_ROOM));
  return clean.length > LOGGED_PATH_MAX || path.length > LOGGED_PATH_MAX + KEY_ROOM ? `${clean.slice(0, LOGGED_PATH_MAX)}…` : clean;
}
