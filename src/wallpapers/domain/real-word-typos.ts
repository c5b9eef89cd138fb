import type { Mistyped } from '../params.js';
import type { SearchQuery } from '../search-query.js';
import { STOP_WORDS } from '../stop-words.js';
import { cosine } from '../../infra/nearest-words.js';
import { createNeighbours } from '../../infra/spelling.js';
import { inAmericanSpelling } from '../../infra/word-lists.js';
import type { WordOccurrences } from './word-occurrences.js';
import { singularOf } from './query-meaning.js';

/**
 * Of the real words given (words of the language that no wallpaper matches as typed), those the
 * query likely holds a typo of, another real word meant: "dessert dunes" (desert), "dear forest"
 * (deer), "mountain peek" (peak), "rose pedals" (petals).
 */
export type RealWordTypos = (text: SearchQuery, words: readonly string[], margin?: number) => Promise<Mistyped[]>;

export interface RealWordTyposOptions {
  /** The words a typo may have been meant as: the model's whole words, kept to those that occur. */
  words: readonly string[];
  /**
   * The catalogue's own words now (its tags and category names): tried first, and tried though the
   * model splits them ("ramen", "fjord" is the ninth word one edit from "ford").
   */
  catalogueWords: () => readonly string[];
  /** A word's unit vector from the sentence model. */
  vectorOf: (word: string) => Promise<Float32Array>;
  occurrences: WordOccurrences;
}

// How much better the meant word must fit the query's other words than the word typed (mean cosine
// similarity to them). Measured on the demo catalogue (bench/results/real-word-typos.md): the typos
// people make land at 0.24 to 0.34 ("dessert dunes" 0.24, "ragged mountains" 0.26, "dear forest"
// 0.32, "mountain peek" 0.34); words meant as typed at 0.18 at most in two-word queries ("lovely
// rain" lonely 0.15, "rare car" race 0.16, "holy space" hole 0.17, "really street" rally 0.18,
// helper-79; "roof city" room 0.11). At 0.15, as first set, the first four read as typos; at 0,
// "roof city" too. A word naming a thing the catalogue lacks finds nothing all the same
// (absent-things.ts): "frog in the rain" weighs 0.26 for fog.
export const MISSPELT_MARGIN = 0.2;
// Bounds on the work per query: each candidate and other word is asked whether it occurs (one
// request for all, remembered), and those that occur are embedded once; a query rarely holds more
// than one real word the catalogue lacks. Weighed against every other word, a 31-word query cost
// 54 ms of CPU the first time at 1M, against 20 before (helper-78).
const MAX_WORDS = 2;
const MAX_CANDIDATES = 10;
const MAX_WEIGHED = 3;
const MAX_SAID = 8;
const MAX_OTHERS = 4;
const MEMO = 10_000;
// A word's reading in the company of the same words stands this long: whether a word that does not
// occur does is only remembered for a second (word-occurrences.ts), and asking again each time the
// query comes back a second later cost one more Elasticsearch request per word (helper-79). A word
// an import brings is weighed within this long.
const DECIDED_MS = 60_000;

/** The word a real word was most likely typed for, and how much better it fits the other words. */
export interface Weighed {
  meant: string;
  margin: number;
}

/**
 * A real word is taken as meant unless a word one fuzzy edit from it (as Elasticsearch's typo
 * clause reaches) occurs in the catalogue and fits the rest of the query better in meaning by
 * MISSPELT_MARGIN. Spelling alone cannot tell "dessert dunes" from "autumn latte"; what the other
 * words mean can. A query of one group has nothing to weigh a word against: its words stay as typed.
 */
export function createRealWordTypos(options: RealWordTyposOptions): RealWordTypos {
  const weigh = createWeighing(options);
  return async (text, asked, margin = MISSPELT_MARGIN) => {
    const mistyped: Mistyped[] = [];
    for (const typed of asked.slice(0, MAX_WORDS)) {
      const weighed = await weigh(text, typed);
      if (weighed !== null && weighed.margin >= margin) mistyped.push({ typed, meant: weighed.meant });
    }
    return mistyped;
  };
}

/**
 * The neighbour of a word in a query that occurs in the catalogue and fits the query's other words
 * best, with its margin over the word typed; null when no neighbour occurs or nothing is there to
 * weigh against. Its own export so that bench/search/real-word-typos.ts measures what searches use.
 */
export function createWeighing({
  words,
  catalogueWords,
  vectorOf,
  occurrences,
}: RealWordTyposOptions): (text: SearchQuery, word: string) => Promise<Weighed | null> {
  const nearInModel = createNeighbours(words);
  let catalogue: readonly string[] | undefined;
  let nearInCatalogue = createNeighbours([]);
  // A word's neighbours take 0.3 to 1.6 ms to find among the model's 21,000 words: once per word,
  // for as long as the catalogue's words stay the same.
  const found = new Map<string, string[]>();
  const neighbours = (word: string): string[] => {
    const now = catalogueWords();
    if (now !== catalogue) {
      catalogue = now;
      nearInCatalogue = createNeighbours(now.filter((entry) => /^[a-z]+$/.test(entry)));
      found.clear();
    }
    let list = found.get(word);
    if (list === undefined) {
      list = [...new Set([...nearInCatalogue(word), ...nearInModel(word)])].slice(0, MAX_CANDIDATES);
      if (found.size >= MEMO) found.clear();
      found.set(word, list);
    }
    return list;
  };

  async function fit(word: string, others: readonly string[]): Promise<number> {
    const vector = await vectorOf(word);
    let sum = 0;
    for (const other of others) sum += cosine(vector, await vectorOf(other));
    return sum / others.length;
  }

  const decided = new Map<string, { weighed: Weighed | null; until: number }>();

  /** The reading, or undefined when Elasticsearch did not say which words occur: not one to remember. */
  async function weigh(read: string, said: readonly string[]): Promise<Weighed | null | undefined> {
    // A neighbour the query already says is no typo of it: "bench beach", "lace lake" (against
    // itself the neighbour fits perfectly, 0.65 to 0.83 better).
    const candidates = said.length === 0 ? [] : neighbours(read).filter((candidate) => !said.some((other) => sameWord(other, candidate)));
    if (candidates.length === 0) return null;
    // Weighed only against words the catalogue holds, as the search looks for them: a word it drops
    // ("aesthetic", "vibes", another script's) would only blur what the others say.
    const answers = await occurrences.of([...candidates, ...said]);
    if (answers.includes(null)) return undefined;
    const occurring = candidates.filter((_, i) => answers[i] === true).slice(0, MAX_WEIGHED);
    const others = said.filter((_, i) => answers[candidates.length + i] === true).slice(0, MAX_OTHERS);
    if (occurring.length === 0 || others.length === 0) return null;
    const typed = await fit(read, others);
    let best: Weighed | null = null;
    for (const meant of occurring) {
      const margin = (await fit(meant, others)) - typed;
      if (best === null || margin > best.margin) best = { meant, margin };
    }
    return best;
  }

  return async (text, word) => {
    // Weighed as the index reads it: "storey" is "story", with the same neighbours and meaning.
    const read = inAmericanSpelling(word);
    const said = otherWords(text, word).map(inAmericanSpelling).slice(0, MAX_SAID);
    const key = `${read} ${said.join(' ')}`;
    const known = decided.get(key);
    if (known !== undefined && known.until > Date.now()) return known.weighed;
    const weighed = await weigh(read, said);
    if (weighed === undefined) return null;
    if (decided.size >= MEMO) decided.clear();
    decided.set(key, { weighed, until: Date.now() + DECIDED_MS });
    return weighed;
  };
}

/** One word, or the other's plural: "beaches" says beach. */
const sameWord = (a: string, b: string) => a === b || singularOf(a) === singularOf(b);

/** The words of the groups that do not hold `word`: what it is weighed against. Phrases count by their words. */
function otherWords({ groups }: SearchQuery, word: string): string[] {
  const wordsOf = (text: string) => text.toLowerCase().split(' ');
  const others = groups
    .filter((group) => !group.some((term) => wordsOf(term.text).includes(word)))
    .flatMap((group) => group.flatMap((term) => wordsOf(term.text)))
    .filter((other) => /^\p{L}{2,}$/u.test(other) && !STOP_WORDS.has(other));
  return [...new Set(others)];
}
