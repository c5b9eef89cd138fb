import type { SearchQuery, Term } from '../search-query.js';
import type { WallpaperRepository } from '../store/repository.js';
import type { SearchMeaning } from './search-meaning.js';
import type { WordOccurrences } from './word-occurrences.js';
import { plainWord } from './with-joined-words.js';

// Words typed as one asked about per query, at most: one request for all of them.
const MAX_SPLIT = 4;
// Each part at least this long: shorter ones are mostly letters left over ("a", "of", "ar").
const MIN_PART = 3;
const LONG_WORD = /^\p{L}{6,}$/u;

/** What is known of words: the language's, the catalogue's own, and a misspelling of one. */
type Sense = Pick<SearchMeaning, 'knows' | 'ownWord' | 'respelt' | 'ready'>;

/**
 * The two words a word typed as one is ("snowleopard" snow leopard, "nightsky", "rosegarden"):
 * where it is no word of the language nor a misspelling of the catalogue's, the one way to cut it
 * in two of the catalogue's own words (3 letters or more each). Two ways leave it whole, as does
 * none. Both the catalogue's: with one, a typo cut in two had found nothing ("daybrake" day and
 * brake, "skyscrappers" sky and scrappers), and a plural the rest of the catalogue ("supercars").
 */
export function splitWord(sense: Omit<Sense, 'ready'>, word: string): [string, string] | undefined {
  if (!LONG_WORD.test(word) || sense.knows(word) !== false || sense.respelt(word).length > 0) return undefined;
  const splits: [string, string][] = [];
  for (let at = MIN_PART; at <= word.length - MIN_PART; at++) {
    const parts: [string, string] = [word.slice(0, at), word.slice(at)];
    if (parts.every((part) => sense.knows(part) === true && sense.ownWord(part) === true)) splits.push(parts);
  }
  return splits.length === 1 ? splits[0] : undefined;
}

/** Each plain word of a query alone in its group, long enough to be two, with where it stands. */
const longWords = ({ groups }: SearchQuery): { at: number; word: string }[] =>
  groups.flatMap((group, at) => {
    const word = plainWord(group);
    return word !== null && LONG_WORD.test(word) ? [{ at, word }] : [];
  });

/** The query with each word split as `splits` says, its two words two groups, as if typed apart. */
export function withWordsSplit(text: SearchQuery, splits: ReadonlyMap<number, readonly [string, string]>): SearchQuery {
  const groups: Term[][] = text.groups.flatMap((group, at) => {
    const parts = splits.get(at);
    return parts === undefined ? [group] : parts.map((part): Term[] => [{ text: part, phrase: false }]);
  });
  const spaced = [...(text.spaced ?? []), ...[...splits.values()].map((parts) => parts.join(' '))];
  return { ...text, groups, spaced };
}

/**
 * A repository whose searches read a word typed as one as the two words it joins ("snowleopard",
 * "nightsky", "darkforest", as hashtags are written; splitWord), where it occurs nowhere in the
 * catalogue. Whole, such a word found nothing ("snowleopard") or what the model placed near it:
 * "rosegarden" the "… in Rose Gold" abstracts, "redcar" the hypercars. A word the catalogue holds,
 * or one Elasticsearch did not answer for, is left whole; so is "blackcat", whose cat is no word of
 * the catalogue's (its kittens are found through meaning, which a split does not ask).
 */
export function withSplitWords(repository: WallpaperRepository, occurrences: WordOccurrences, sense: Sense): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const words = longWords(params.text);
      if (words.length === 0) return repository.search(params);
      // What words are is read at start: the search waits for it anyway (with-meaning.ts).
      await sense.ready;
      const candidates = words
        .map(({ at, word }) => ({ at, word, parts: splitWord(sense, word) }))
        .filter((candidate): candidate is { at: number; word: string; parts: [string, string] } => candidate.parts !== undefined)
        .slice(0, MAX_SPLIT);
      if (candidates.length === 0) return repository.search(params);
      const answers = await occurrences.of(candidates.map(({ word }) => word));
      const splits = new Map(candidates.filter((_, i) => answers[i] === false).map(({ at, parts }) => [at, parts] as const));
      return repository.search(splits.size === 0 ? params : { ...params, text: withWordsSplit(params.text, splits) });
    },
  };
}
