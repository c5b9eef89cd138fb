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

// Query words seen recently: a word's vector and correction are the same every time.
const MEMO = 10_000;

/**
 * Each plain word of the query gains the catalogue words (tags and category names) nearest in
 * meaning: "kitty" finds kitten, "automobile" cars, "fall" autumn. A word the model does not know
 * is first corrected to the nearest known word ("kittty" to kitty, "automobil" to automobile).
 * Phrases keep their words as typed. null when no word gained anything: the query means what it says.
 */
export function createQueryExpansion(model: SentenceModel, options: MeaningOptions): ExpandQuery {
  const correct = createSpelling(model.words);
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

  async function nearest(words: readonly string[], vocabulary: Vocabulary): Promise<Map<string, number>> {
    const best = new Map<string, number>();
    for (const word of words) {
      for (const { entry, similarity } of vocabulary.nearest(await vectorOf(word), options.floor, options.top + 1)) {
        best.set(entry, Math.max(best.get(entry) ?? 0, similarity));
      }
    }
    return best;
  }

  async function alternatives(term: Term, vocabulary: Vocabulary): Promise<Term[]> {
    if (term.phrase || term.text.includes(' ')) return [];
    const typed = term.text.toLowerCase();
    let near = await nearest(forms(typed), vocabulary);
    if (near.size === 0 && !vocabulary.has(typed)) {
      // Not a word the model knows, or none near the catalogue: a misspelling of one that is?
      for (const corrected of correct(typed)) {
        const found = await nearest(forms(corrected), vocabulary);
        if (found.size > 0) {
          near = found;
          break;
        }
      }
    }
    return [...near]
      .filter(([entry]) => entry !== typed)
      .sort((a, b) => b[1] - a[1])
      .slice(0, options.top)
      .map(([entry, similarity]) => ({ text: entry, phrase: entry.includes(' '), similarity }));
  }

  return async (text, vocabulary) => {
    if (vocabulary.entries.length === 0) return null;
    let gained = false;
    const groups: Term[][] = [];
    for (const group of text.groups) {
      const expanded = [...group];
      for (const term of group) {
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
