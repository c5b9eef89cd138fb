import type { SearchQuery, Term } from '../search-query.js';
import type { SentenceModel } from '../../infra/sentence-model.js';
import { createSpelling } from '../../infra/spelling.js';
import type { Vocabulary } from '../../infra/nearest-words.js';

export interface MeaningOptions {
  /** Cosine similarity a catalogue word needs to stand in for a query word. */
  floor: number;
  /** Catalogue words at most per query word. */
  top: number;
}

/** What a query means in the catalogue's words: its groups, each word joined by its nearest catalogue words. */
export type ExpandQuery = (text: SearchQuery, vocabulary: Vocabulary) => Promise<SearchQuery | null>;

// Query words seen recently: a word's vector and what it stands for are the same every time.
const MEMO = 10_000;
// Words looked up per query, at most: a new word costs a few milliseconds of the model and the
// speller, and a query may hold 32 words; the rest mean what they say (as typos are looked for in
// the first three words only).
export const MAX_MEANING_WORDS = 4;
// A spelling guess is less sure than a word as typed: its meaning must be closer to count. At the
// plain floor, real words the model splits into pieces were read as others ("wombat" as combat,
// "flamingo" as flaming, "marlin" as merlin: 0.62-0.69); the misspellings worth reading land higher
// ("kittty": kitty, kitten 0.78; "automobil": automobile, cars 0.82).
const CORRECTED_FLOOR = 0.7;
const MAX_GUESSES = 3;

/**
 * Each plain word of the query that is not one of the catalogue's words (its tags and category
 * names) gains the catalogue words nearest in meaning: "kitty" finds kitten, "automobile" cars. A word the model does not know
 * is first corrected to the nearest known word ("kittty" to kitty, "automobil" to automobile).
 * Phrases keep their words as typed. null when no word gained anything: the query means what it says.
 */
export function createQueryExpansion(model: SentenceModel, options: MeaningOptions): ExpandQuery {
  const correct = createSpelling(model.words);
  const modelWords = new Set(model.words);
  const vectors = new Map<string, Float32Array>();

  async function vectorOf(word: string): Promise<Float32Array> {
    let vector = vectors.get(word);
    if (vector === undefined) {
      [vector] = (await model.embed([word])) as [Float32Array];
      if (vectors.size >= MEMO) vectors.clear();
      vectors.set(word, vector);
    }
    return vector;
  }

  /** The forms a word is looked up by: as typed, and a plural's singular ("kitties", "kitty"). */
  function forms(word: string): string[] {
    const singular = word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
    return singular === word || singular.length < 3 ? [word] : [word, singular];
  }

  async function nearest(words: readonly string[], vocabulary: Vocabulary, floor = options.floor): Promise<Map<string, number>> {
    const best = new Map<string, number>();
    for (const word of words) {
      for (const { entry, similarity } of vocabulary.nearest(await vectorOf(word), Math.max(floor, options.floor), options.top)) {
        best.set(entry, Math.max(best.get(entry) ?? 0, similarity));
      }
    }
    return best;
  }

  // What a word stands for, per set of catalogue words: the same on every request until the words
  // are read again, and worth keeping (a lookup compares the word with every catalogue word).
  interface Lookups {
    terms: Map<string, Term[]>;
    /** The catalogue's single words a misspelling may stand for. */
    ownSpelling: (word: string) => string[];
  }
  const found = new WeakMap<Vocabulary, Lookups>();

  function lookupsOf(vocabulary: Vocabulary): Lookups {
    let lookups = found.get(vocabulary);
    if (lookups === undefined) {
      const ownWords = [...new Set(vocabulary.entries.flatMap((entry) => entry.split(/[\s-]+/)))];
      lookups = { terms: new Map(), ownSpelling: createSpelling(ownWords) };
      found.set(vocabulary, lookups);
    }
    return lookups;
  }

  async function alternatives(term: Term, vocabulary: Vocabulary): Promise<Term[]> {
    const typed = term.text.toLowerCase();
    const { terms: known, ownSpelling } = lookupsOf(vocabulary);
    let terms = known.get(typed);
    if (terms === undefined) {
      terms = await lookUp(typed, vocabulary, ownSpelling);
      if (known.size >= MEMO) known.clear();
      known.set(typed, terms);
    }
    return terms;
  }

  async function lookUp(typed: string, vocabulary: Vocabulary, ownSpelling: Lookups['ownSpelling']): Promise<Term[]> {
    // A word of the catalogue's own means itself: it already matches as typed, and other words for it
    // would cost every such search a wider query for little (one query of 72 in the judged set). So
    // does a misspelling of one (a word the model does not know, an edit or two from one of the
    // catalogue's): the search's own typo matching finds it, without the model.
    const typedForms = forms(typed);
    if (typedForms.some((form) => vocabulary.has(form))) return [];
    if (!modelWords.has(typed) && ownSpelling(typed).length > 0) return [];
    let near = await nearest(typedForms, vocabulary);
    if (near.size === 0) {
      // Not a word the model knows, or none near the catalogue: a misspelling of one that is?
      // The first few guesses only: a short non-word can be one edit from dozens of words, each a model run.
      for (const corrected of correct(typed).slice(0, MAX_GUESSES)) {
        const found = await nearest(forms(corrected), vocabulary, CORRECTED_FLOOR);
        if (found.size > 0) {
          near = found;
          break;
        }
      }
    }
    return [...near]
      .sort((a, b) => b[1] - a[1])
      .slice(0, options.top)
      .map(([entry, similarity]) => ({ text: entry, phrase: entry.includes(' '), similarity }));
  }

  return async (text, vocabulary) => {
    if (vocabulary.entries.length === 0) return null;
    let gained = false;
    let left = MAX_MEANING_WORDS;
    const groups: Term[][] = [];
    for (const group of text.groups) {
      const expanded = [...group];
      for (const term of group) {
        if (term.phrase || term.quoted || term.text.includes(' ') || left-- <= 0) continue;
        for (const alternative of await alternatives(term, vocabulary)) {
          if (expanded.some(({ text: known }) => known === alternative.text)) continue;
          expanded.push(alternative);
          gained = true;
        }
      }
      groups.push(expanded);
    }
    return gained ? { groups, excluded: text.excluded } : null;
  };
}
