import type { SearchQuery, Term } from '../search-query.js';
import type { WallpaperRepository } from '../store/repository.js';
import type { SearchMeaning } from './search-meaning.js';
import type { WordOccurrences } from './word-occurrences.js';

/** Two neighbouring groups of a query and the one word they are typed apart from. */
interface Joinable {
  at: number;
  apart: [string, string];
  joined: string;
}

// Pairs asked about per query, at most: one request for all of them, remembered as every word is.
const MAX_PAIRS = 4;
const PLAIN_WORD = /^\p{L}{2,}$/u;

const plainWord = (group: readonly Term[]): string | null => {
  const [term] = group;
  if (group.length !== 1 || term === undefined || term.phrase || term.quoted || term.similarity !== undefined) return null;
  return PLAIN_WORD.test(term.text) ? term.text.toLowerCase() : null;
};

/** Neighbouring plain words whose joining is a word of the language, each word in one pair at most. */
export function joinablePairs({ groups }: SearchQuery, isWord: (word: string) => boolean): Joinable[] {
  const pairs: Joinable[] = [];
  for (let at = 0; at + 1 < groups.length && pairs.length < MAX_PAIRS; at++) {
    const [first, second] = [plainWord(groups[at]!), plainWord(groups[at + 1]!)];
    if (first === null || second === null || !isWord(`${first}${second}`)) continue;
    pairs.push({ at, apart: [first, second], joined: `${first}${second}` });
    at++;
  }
  return pairs;
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
 * line" skyline, "bed room" bedroom, "sky scraper" skyscraper): two neighbouring plain words whose
 * joining is a word of the language (WordNet's) are one group, the word or the two as a phrase,
 * where the joined word occurs in the catalogue or one of the two does not (read apart, the query
 * could not be what was meant; the joined word then means what meaning finds for it). Read apart,
 * "light house" had found 1,340 wallpapers with a light and a house, castles first, and "bed room"
 * and "sky scraper" none (a bed and a scraper are things the catalogue holds nowhere). The catalogue
 * decides: "dark room" and "green house" stay two words, both of which occur, where no wallpaper
 * says darkroom or greenhouse. A word Elasticsearch did not answer for counts as occurring: the
 * pair is joined only where the joined word is found.
 */
export function withJoinedWords(
  repository: WallpaperRepository,
  occurrences: WordOccurrences,
  sense: Pick<SearchMeaning, 'knows'>,
): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const pairs = joinablePairs(params.text, (word) => sense.knows(word) === true);
      if (pairs.length === 0) return repository.search(params);
      const answers = await occurrences.of(pairs.flatMap(({ joined, apart }) => [joined, ...apart]));
      const found = pairs.filter((_, i) => {
        const [joined, first, second] = answers.slice(i * 3, i * 3 + 3);
        return joined === true || (joined !== null && (first === false || second === false));
      });
      return repository.search(found.length === 0 ? params : { ...params, text: withPairsJoined(params.text, found) });
    },
  };
}
