import type { Vocabulary } from '../../infra/nearest-words.js';

/** Whether each word matches some wallpaper as a search would match it typed. */
export type WordsOccur = (words: readonly string[], timeoutMs: number) => Promise<boolean[]>;

/** Whether some group of a query's strangers (query-meaning.ts) names a thing the catalogue holds nowhere. */
export type AbsentThings = (strangers: string[][], words: Vocabulary) => Promise<boolean>;

export interface AbsentThingsOptions {
  wordsOccur: WordsOccur;
  /** Whether a word names a pictured thing (WordNet's, infra/word-classes.ts). */
  namesThing: (word: string) => Promise<boolean>;
  /** How long an answer other than "occurs" stands: as long as a cached response may (RESPONSE_CACHE_CHECK_MS). */
  absentMs: number;
}

// Whether a word occurs is asked with a budget of its own, before the search and on top of its
// budget: a hung Elasticsearch costs a search with such a word this much more, once per word for
// absentMs, since a word not answered for is taken to occur for that long (later searches neither
// wait again nor change their answer page by page).
const OCCURS_TIMEOUT_MS = 200;
const OCCURS_MEMO = 10_000;

/**
 * Whether some group of strangers names a thing the catalogue holds nowhere. Only words that name
 * a pictured thing count (WordNet's nouns of animals, plants, made things, places…): a word that
 * describes ("beautiful sunset"), an abstract one ("sunset vibes") or one WordNet does not know
 * ("sunset 2024", "bosque") leaves the search to the others; a thing the catalogue does not hold
 * ("giraffe", "pink flamingo") means it has nothing to show.
 */
export function createAbsentThings({ wordsOccur, namesThing, absentMs }: AbsentThingsOptions): AbsentThings {
  // Words found to occur, per set of catalogue words: a word that occurred still does after an
  // import in all but rare cases, and then the search only goes on as it did before this rule. Any
  // other answer stands for absentMs only (as long as a cached response does): an import or a
  // reindex may bring the word, and from then on searches must find it.
  const occurring = new WeakMap<Vocabulary, Set<string>>();
  const settled = new Map<string, { absent: boolean; until: number }>();
  // Questions in flight, per word: searches asking at once share one answer.
  const asking = new Map<string, Promise<boolean>>();

  function occurringIn(words: Vocabulary): Set<string> {
    const found = occurring.get(words) ?? new Set<string>();
    occurring.set(words, found);
    return found;
  }

  /** Whether a word is known to be absent (true), to occur (false), or not known now (undefined). */
  function answerFor(word: string, words: Vocabulary): boolean | undefined {
    if (occurringIn(words).has(word)) return false;
    const answer = settled.get(word);
    return answer !== undefined && answer.until > Date.now() ? answer.absent : undefined;
  }

  /** Asks Elasticsearch about words in one request; a failure or a timeout counts as occurring. */
  function ask(batch: readonly string[], words: Vocabulary): void {
    const answered = wordsOccur(batch, OCCURS_TIMEOUT_MS).catch(() => batch.map(() => null));
    batch.forEach((word, i) => {
      const absent = answered.then((answers) => {
        const occurs = answers[i];
        const found = occurringIn(words);
        if (occurs === true) {
          if (found.size >= OCCURS_MEMO) found.clear();
          found.add(word);
        } else {
          if (settled.size >= OCCURS_MEMO) settled.clear();
          settled.set(word, { absent: occurs === false, until: Date.now() + absentMs });
        }
        asking.delete(word);
        return occurs === false;
      });
      asking.set(word, absent);
    });
  }

  return async (strangers, words) => {
    if (strangers.length === 0) return false;
    const things: string[][] = [];
    for (const group of strangers) if ((await Promise.all(group.map(namesThing))).every(Boolean)) things.push(group);
    if (things.length === 0) return false;
    const unique = [...new Set(things.flat())];
    const toAsk = unique.filter((word) => answerFor(word, words) === undefined && !asking.has(word));
    if (toAsk.length > 0) ask(toAsk, words);
    const absentWords = new Set<string>();
    for (const word of unique) if (answerFor(word, words) ?? (await asking.get(word)) ?? false) absentWords.add(word);
    return things.some((group) => group.every((word) => absentWords.has(word)));
  };
}
