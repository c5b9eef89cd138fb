import type { SearchQuery, Term } from '../search-query.js';
import type { WallpaperRepository } from '../store/repository.js';

/** Whether a word is a noun more than a describing word (WordNet's); undefined before WordNet is read, or without it. */
export interface Nouns {
  namesNoun(word: string): boolean | undefined;
  /** Settles once WordNet is read, or given up on. */
  readonly ready: Promise<void>;
}

/**
 * The query with each word typed after a `no` between two nouns excluded, as shorthand for
 * "without" ("mountains no snow", "space no planets", "beach no people or boats": Term.afterNo);
 * the same query when there is none. Between other words a `no` is an idiom or a particle and stays
 * a word: "say no more" (say is a verb, more no noun), the Japanese titles people type in letters
 * ("boku no hero academia", "tonari no totoro": boku and tonari are no English words). A word in a
 * group of alternatives, and a query that would be left with nothing to look for ("wallpaper no
 * people", its wallpaper being filler), stay as typed.
 */
export function withShorthandRead(text: SearchQuery, nouns: Nouns): SearchQuery {
  const excluded: Term[] = [];
  const groups = text.groups.filter((group) => {
    const [term] = group;
    const shorthand =
      group.length === 1 && term?.afterNo !== undefined && nouns.namesNoun(term.afterNo) === true && nouns.namesNoun(term.text) === true;
    if (shorthand) excluded.push({ text: term.text, phrase: false });
    return !shorthand;
  });
  if (excluded.length === 0 || groups.length === 0) return text;
  return { ...text, groups, excluded: [...text.excluded, ...excluded] };
}

/**
 * A repository whose searches read a `no` between two nouns as an exclusion (withShorthandRead),
 * before anything else reads the query: typos, joined words and meaning see what it looks for.
 */
export function withShorthandExclusions(repository: WallpaperRepository, nouns: Nouns): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      if (!params.text.groups.some((group) => group.some((term) => term.afterNo !== undefined))) return repository.search(params);
      await nouns.ready;
      const text = withShorthandRead(params.text, nouns);
      return repository.search(text === params.text ? params : { ...params, text });
    },
  };
}
