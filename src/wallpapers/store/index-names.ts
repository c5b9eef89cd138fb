/**
 * How a catalogue's concrete indices are named: its alias, a dash, a 17-digit UTC stamp, and a
 * number when two runs met in one millisecond. The catalogue tools make them; a cursor of a build
 * before must name one of its catalogue's (edge/cursor.ts).
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches only names the catalogue tools create, not any index that happens to share the prefix. */
export function versionedNamePattern(alias: string): RegExp {
  return new RegExp(`^${escapeRegExp(alias.toLowerCase())}-\\d{17}(?:-\\d+)?$`);
}

/** The name the catalogue tools would try first for a new index at `now`. */
export function versionedIndexName(alias: string, now = new Date()): string {
  return `${alias.toLowerCase()}-${now.toISOString().replace(/\D/g, '').slice(0, 17)}`;
}
