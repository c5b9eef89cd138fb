/**
 * The words a misspelt one may have meant, among known words: the closest ones, one edit away (a
 * letter added, dropped, changed, or two swapped) for words of 4 to 7 letters, two from 8, sharing
 * the first or the second letter ("kosmos" may mean cosmos). Empty for a known word.
 */
export function createSpelling(known: readonly string[]): (word: string) => string[] {
  const byLetter = new Map<string, Set<string>>();
  const file = (key: string, word: string) => {
    const list = byLetter.get(key) ?? new Set<string>();
    list.add(word);
    byLetter.set(key, list);
  };
  for (const word of known) {
    file(`0${word[0]}`, word);
    file(`1${word[1]}`, word);
  }
  const members = new Set(known);
  return (word) => {
    if (members.has(word) || !/^[a-z]{4,20}$/.test(word)) return [];
    const allowed = word.length >= 8 ? 2 : 1;
    let best: string[] = [];
    let bestDistance = allowed + 1;
    for (const candidate of new Set([...(byLetter.get(`0${word[0]}`) ?? []), ...(byLetter.get(`1${word[1]}`) ?? [])])) {
      if (Math.abs(candidate.length - word.length) > allowed) continue;
      const distance = editDistance(word, candidate, bestDistance);
      if (distance > allowed) continue;
      if (distance < bestDistance) {
        best = [candidate];
        bestDistance = distance;
      } else if (distance === bestDistance) best.push(candidate);
    }
    return best;
  };
}

/**
 * The known words a word may have been meant as though it is a word itself ("dessert" desert,
 * "dear" deer): those as far as Elasticsearch's fuzzy matching reaches (`AUTO:4,8`: one edit for 4
 * to 7 letters, two from 8), sharing the first letter as its `prefix_length: 1` needs, nearest first.
 */
export function createNeighbours(known: readonly string[]): (word: string) => string[] {
  const byFirst = new Map<string, string[]>();
  for (const word of new Set(known)) {
    const list = byFirst.get(word[0]!) ?? [];
    list.push(word);
    byFirst.set(word[0]!, list);
  }
  return (word) => {
    if (!/^[a-z]{4,20}$/.test(word)) return [];
    const allowed = word.length >= 8 ? 2 : 1;
    const found: { candidate: string; distance: number }[] = [];
    for (const candidate of byFirst.get(word[0]!) ?? []) {
      if (candidate === word || Math.abs(candidate.length - word.length) > allowed) continue;
      const distance = editDistance(word, candidate, allowed);
      if (distance <= allowed) found.push({ candidate, distance });
    }
    return found.sort((a, b) => a.distance - b.distance).map(({ candidate }) => candidate);
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
