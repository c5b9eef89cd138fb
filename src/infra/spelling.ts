/**
 * How many edits a typo may hold in a word, as Elasticsearch's `AUTO:4,8` reads it: one for 4 to 7
 * letters, two from 8; none for a word that is not looked at (shorter, longer, not a-z).
 */
function editsAllowed(word: string): number {
  if (!/^[a-z]{4,20}$/.test(word)) return 0;
  return word.length >= 8 ? 2 : 1;
}

/** Words filed under each key `keysOf` gives them. */
function filed(words: Iterable<string>, keysOf: (word: string) => string[]): Map<string, Set<string>> {
  const byKey = new Map<string, Set<string>>();
  for (const word of words) {
    for (const key of keysOf(word)) {
      const list = byKey.get(key) ?? new Set<string>();
      list.add(word);
      byKey.set(key, list);
    }
  }
  return byKey;
}

/** Of `candidates`, those other than `word` within `allowed` edits of it, with their distance. */
function withinEdits(word: string, candidates: Iterable<string>, allowed: number): { candidate: string; distance: number }[] {
  const found: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    if (candidate === word || Math.abs(candidate.length - word.length) > allowed) continue;
    const distance = editDistance(word, candidate, allowed);
    if (distance <= allowed) found.push({ candidate, distance });
  }
  return found;
}

/**
 * The words a misspelt one may have meant, among known words: the closest ones, one edit away (a
 * letter added, dropped, changed, or two swapped) for words of 4 to 7 letters, two from 8, sharing
 * the first or the second letter ("kosmos" may mean cosmos). Empty for a known word.
 */
export function createSpelling(known: readonly string[]): (word: string) => string[] {
  const byLetter = filed(known, (word) => [`0${word[0]}`, `1${word[1]}`]);
  const members = new Set(known);
  return (word) => {
    const allowed = members.has(word) ? 0 : editsAllowed(word);
    if (allowed === 0) return [];
    const candidates = new Set([...(byLetter.get(`0${word[0]}`) ?? []), ...(byLetter.get(`1${word[1]}`) ?? [])]);
    const found = withinEdits(word, candidates, allowed);
    const nearest = Math.min(...found.map(({ distance }) => distance));
    return found.filter(({ distance }) => distance === nearest).map(({ candidate }) => candidate);
  };
}

/**
 * The known words a word may have been meant as though it is a word itself ("dessert" desert,
 * "dear" deer): those as far as Elasticsearch's fuzzy matching reaches (`AUTO:4,8`: one edit for 4
 * to 7 letters, two from 8), sharing the first letter as its `prefix_length: 1` needs, nearest first.
 */
export function createNeighbours(known: readonly string[]): (word: string) => string[] {
  const byFirst = filed(known, (word) => [word[0]!]);
  return (word) => {
    const allowed = editsAllowed(word);
    if (allowed === 0) return [];
    return withinEdits(word, byFirst.get(word[0]!) ?? [], allowed)
      .sort((a, b) => a.distance - b.distance)
      .map(({ candidate }) => candidate);
  };
}

/** Optimal string alignment distance (swaps count once), or more than `limit` once it must be. */
export function editDistance(a: string, b: string, limit: number): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(0);
    current[0] = i;
    let rowBest = current[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
