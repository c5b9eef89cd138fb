import type { Vocabulary } from '../../infra/nearest-words.js';
import type { WordOccurrences } from './word-occurrences.js';

/** Whether some group of a query's strangers (query-meaning.ts) names a thing the catalogue holds nowhere. */
export type AbsentThings = (strangers: string[][], words: Vocabulary) => Promise<boolean>;

export interface AbsentThingsOptions {
  /** Whether words occur, asked and remembered (word-occurrences.ts), shared with the typo rule. */
  occurrences: WordOccurrences;
  /** Whether a word names a pictured thing (WordNet's, infra/word-classes.ts). */
  namesThing: (word: string) => Promise<boolean>;
}

/**
 * Whether some group of strangers names a thing the catalogue holds nowhere. Only words that name
 * a pictured thing count (WordNet's nouns of animals, plants, made things, places…): a word that
 * describes ("beautiful sunset"), an abstract one ("sunset vibes") or one WordNet does not know
 * ("sunset 2024", "bosque") leaves the search to the others; a thing the catalogue does not hold
 * ("giraffe", "pink flamingo") means it has nothing to show.
 */
export function createAbsentThings({ occurrences, namesThing }: AbsentThingsOptions): AbsentThings {
  // Words found to occur are remembered for as long as the catalogue's words they were asked
  // beside: when those are read again, the catalogue may have lost some.
  let askedBeside: Vocabulary | undefined;

  return async (strangers, words) => {
    if (strangers.length === 0) return false;
    const things: string[][] = [];
    for (const group of strangers) if ((await Promise.all(group.map(namesThing))).every(Boolean)) things.push(group);
    if (things.length === 0) return false;
    if (askedBeside !== undefined && words !== askedBeside) occurrences.forget();
    askedBeside = words;
    const unique = [...new Set(things.flat())];
    // A word not answered for counts as occurring: a search is never emptied by an error.
    const answers = await occurrences.of(unique);
    const absentWords = new Set(unique.filter((_, i) => answers[i] === false));
    return things.some((group) => group.every((word) => absentWords.has(word)));
  };
}
