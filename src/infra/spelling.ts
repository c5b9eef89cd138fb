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

/**
 * Of the words in `lists`, those other than `word` within `allowed` edits of it, with their
 * distance, each once. The lists are walked in turn, a word already in an earlier one passed over:
 * copied into one set, they had cost as much as the distances.
 */
function withinEdits(word: string, lists: readonly ReadonlySet<string>[], allowed: number): { candidate: string; distance: number }[] {
  const found: { candidate: string; distance: number }[] = [];
  const inEarlier = (candidate: string, i: number) => {
    for (let earlier = 0; earlier < i; earlier++) if (lists[earlier]!.has(candidate)) return true;
    return false;
  };
  lists.forEach((list, i) => {
    for (const candidate of list) {
      if (candidate === word || Math.abs(candidate.length - word.length) > allowed || inEarlier(candidate, i)) continue;
      const distance = editDistance(word, candidate, allowed);
      if (distance <= allowed) found.push({ candidate, distance });
    }
  });
  return found;
}

const NONE: ReadonlySet<string> = new Set();

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
    const found = withinEdits(word, [byLetter.get(`0${word[0]}`) ?? NONE, byLetter.get(`1${word[1]}`) ?? NONE], allowed);
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
    return withinEdits(word, [byFirst.get(word[0]!) ?? NONE], allowed)
      .sort((a, b) => a.distance - b.distance)
      .map(({ candidate }) => candidate);
  };
}

// Three rows of the distance table, kept between calls and grown as needed: a search's spelling
// guesses compare a word with thousands of known ones, and a new array per row was most of it.
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)] as const;

/**
 * Optimal string alignment distance (swaps count once), up to `limit`; `limit + 1` once it must be
 * more.
 */
export function editDistance(a: string, b: string, limit: number): number {
  const n = b.length;
  if (Math.abs(a.length - n) > limit) return limit + 1;
  if (rows[0].length <= n) rows = [new Int32Array(2 * n + 2), new Int32Array(2 * n + 2), new Int32Array(2 * n + 2)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const here = a.charCodeAt(i - 1);
    const last = i > 1 ? a.charCodeAt(i - 2) : -1;
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= n; j++) {
      const there = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (here === there ? 0 : 1));
      if (j > 1 && last === there && here === b.charCodeAt(j - 2)) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[n]!, limit + 1);
}
