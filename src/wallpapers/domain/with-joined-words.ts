import { type SearchQuery, type Term, isPlainWord } from '../search-query.js';
import type { WallpaperRepository } from '../store/repository.js';
import type { SearchMeaning } from './search-meaning.js';
import type { WordOccurrences } from './word-occurrences.js';

/** Two neighbouring groups of a query and the one word they are typed apart from. */
interface Joinable {
  at: number;
  joined: string;
}

// Pairs asked about per query, at most: one request for all of them, remembered as every word is.
const MAX_PAIRS = 4;
const PLAIN_WORD = /^\p{L}{2,}$/u;

/** A group's one plain word of letters, lower-cased; null for any other group. */
export const plainWord = (group: readonly Term[]): string | null => {
  const [term] = group;
  return group.length === 1 && term !== undefined && isPlainWord(term) && PLAIN_WORD.test(term.text) ? term.text.toLowerCase() : null;
};

/**
 * Neighbouring plain words whose joining is a word (`wordOf`: the word, or undefined), each word in
 * one pair at most, typed with nothing but spaces between them (SearchQuery.spaced): not across a
 * comma, a bracket, an exclusion or a common word dropped ("sun, flower", "sun -moon flower", "cat
 * and walk").
 */
export function joinablePairs({ groups, spaced = [] }: SearchQuery, wordOf: (first: string, second: string) => string | undefined): Joinable[] {
  const pairs: Joinable[] = [];
  for (let at = 0; at + 1 < groups.length && pairs.length < MAX_PAIRS; at++) {
    const [first, second] = [plainWord(groups[at]!), plainWord(groups[at + 1]!)];
    const joined = first === null || second === null || !spaced.includes(`${first} ${second}`) ? undefined : wordOf(first, second);
    if (joined === undefined) continue;
    pairs.push({ at, joined });
    at++;
  }
  return pairs;
}

/**
 * The word two words join into: their joining where it is a word of the language; else, where one
 * of the two is none of the language's, the catalogue's word their joining is likely a misspelling
 * of ("sun flwer" sunflower: one edit from 4 to 7 letters, two from 8, SearchMeaning.respelt). Two
 * words of the language are never respelt together, however near their joining is to a catalogue
 * word: "light horse", "night house" and "state park" had read as lighthouse and skatepark
 * (helper-164). So "huming bird" stays two words: WordNet reads "huming" as a form of hum.
 */
export function joinedWord(sense: Pick<SearchMeaning, 'knows' | 'respelt'>, first: string, second: string): string | undefined {
  const joined = `${first}${second}`;
  if (sense.knows(joined) === true) return joined;
  if (sense.knows(first) !== false && sense.knows(second) !== false) return undefined;
  return sense.respelt(joined)[0];
}

/** The query with each pair one group: the word joined, or the two words as a phrase. */
export function withPairsJoined(text: SearchQuery, pairs: readonly Joinable[]): SearchQuery {
  const starts = new Map(pairs.map((pair) => [pair.at, pair.joined]));
  const groups: Term[][] = [];
  for (let at = 0; at < text.groups.length; at++) {
    const joined = starts.get(at);
    if (joined === undefined) {
      groups.push(text.groups[at]!);
      continue;
    }
    const apart = `${text.groups[at]![0]!.text} ${text.groups[at + 1]![0]!.text}`;
    groups.push([
      { text: joined, phrase: false },
      { text: apart, phrase: true },
    ]);
    at++;
  }
  return { ...text, groups };
}

/**
 * A repository whose searches read a word typed in two as that word ("light house" lighthouse, "sky
 * line" skyline, "bed room" bedroom): two neighbouring plain words, typed with spaces between, whose
 * joining is a word of the language (WordNet's), or a misspelling of the catalogue's ("sun flwer",
 * joinedWord), that occurs in the catalogue are one group, the word or the two as a phrase. Read
 * apart, "light house" had found 1,340 wallpapers with a light and a house, castles first, and
 * "bed room" none (a bed is a thing the catalogue holds nowhere). The catalogue decides: "dark room", "green house" and "cat walk" stay two words where no
 * wallpaper says darkroom, greenhouse or catwalk. Joining where one of the two words occurs nowhere
 * (so that "sky scraper" would mean what "skyscraper" means) emptied "cat walk", "space walk" and
 * "short grass", and dropped both words from "cozy book store" (helper-84). A word Elasticsearch
 * did not answer for is left apart.
 */
export function withJoinedWords(
  repository: WallpaperRepository,
  occurrences: WordOccurrences,
  sense: Pick<SearchMeaning, 'knows' | 'respelt'>,
): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const pairs = joinablePairs(params.text, (first, second) => joinedWord(sense, first, second));
      if (pairs.length === 0) return repository.search(params);
      const answers = await occurrences.of(pairs.map(({ joined }) => joined));
      const found = pairs.filter((_, i) => answers[i] === true);
      return repository.search(found.length === 0 ? params : { ...params, text: withPairsJoined(params.text, found) });
    },
  };
}
