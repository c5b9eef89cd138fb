const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * The first name that one object of a JSON text holds twice, or null: JSON.parse keeps the last
 * value and says nothing, so `{"id": 15, …, "id": 16}` had loaded as wallpaper 16, and 15 was
 * gone without a report. For a text JSON.parse accepted: one pass, each object's names as
 * JSON.parse reads them (escapes resolved: "\u0069d" is id).
 */
export function firstDuplicateKey(text: string): string | null {
  // Per open bracket: the names of an object so far, or null for an array.
  const open: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      const names = open[open.length - 1];
      if (!names) continue;
      let next = i + 1;
      while (next < text.length && text.charCodeAt(next) <= 0x20) next++;
      if (text.charCodeAt(next) !== COLON) continue;
      const raw = text.slice(start, i + 1);
      const name = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (names.has(name)) return name;
      names.add(name);
    } else if (c === OPEN_OBJECT) open.push(new Set());
    else if (c === OPEN_ARRAY) open.push(null);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) open.pop();
  }
  return null;
}

// A name's closing quote and its colon. Inside a JSON string a quote is always escaped, so an
// unescaped quote before a colon ends a name, and only a name.
const NAME_END = /"\s*:/g;

/** The names of every object in a parsed value, walked without recursion (a line may nest 10,000 deep). */
function namesIn(value: unknown): number {
  let count = 0;
  const left: unknown[] = [value];
  while (left.length > 0) {
    const next = left.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) left.push(item);
      continue;
    }
    for (const key in next) {
      count++;
      left.push((next as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/**
 * The first name an object of `text` holds twice, given what JSON.parse made of it, or null. The
 * names the text writes are counted against those the value holds, one native scan (1.3 µs a
 * record, where walking every character cost 2.7; JSON.parse itself 1.9); only when they differ is
 * the text read through to name the duplicate (bench/results/importer-input-checks.md).
 */
export function duplicateKeyOf(text: string, value: unknown): string | null {
  let written = 0;
  NAME_END.lastIndex = 0;
  for (let found = NAME_END.exec(text); found !== null; found = NAME_END.exec(text)) {
    let run = 0;
    while (text.charCodeAt(found.index - 1 - run) === 0x5c) run++;
    if (run % 2 === 0) written++;
  }
  return written === namesIn(value) ? null : firstDuplicateKey(text);
}
