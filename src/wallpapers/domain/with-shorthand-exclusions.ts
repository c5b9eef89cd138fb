import type { SearchQuery, Term } from '../search-query.js';
import type { WallpaperRepository } from '../store/repository.js';
import { asksForWallpapers } from '../query-filler.js';
import { everyWallpaper } from './with-wallpapers-asked.js';

/** What WordNet says of the words around a `no`; undefined before WordNet is read, or without it. */
export interface Nouns {
  /**
   * Whether a word is a noun more than anything else (WordClasses.namesNoun); `afterDeterminer`,
   * for the word after the `no`, which can be no verb.
   */
  namesNoun(word: string, afterDeterminer?: boolean): boolean | undefined;
  /** Whether a word is one of the language's (WordNet's); undefined when it cannot say. */
  knows(word: string): boolean | undefined;
  /** The catalogue's words a word the language does not know may be a misspelling of (SearchMeaning.respelt). */
  respelt(word: string): readonly string[];
  /** Settles once WordNet and the catalogue's words are read, or given up on. */
  readonly ready: Promise<void>;
}

/**
 * Whether the word before a `no` is a noun, or a misspelling of the catalogue's words only nouns
 * spell: "mountians no snow" is mountains without snow, as "mountains no snow" is (helper-143: it
 * had looked for snow). Not the word after it, which is excluded as typed, so a misspelling there
 * would exclude nothing, and the words people type in letters from other languages are often an
 * edit from a catalogue word ("tokyo no yoru": york).
 */
function nounBefore(nouns: Nouns, word: string): boolean {
  // Filler names what is asked for: a wallpaper, a screen, a device ("iphone no text", "4k no
  // people"), misspelt too ("walpaper no night": helper-145).
  if (asksForWallpapers(word) || nouns.namesNoun(word) === true) return true;
  if (nouns.knows(word) !== false) return false;
  const meant = nouns.respelt(word.toLowerCase());
  return meant.length > 0 && meant.every((spelling) => nouns.namesNoun(spelling) === true);
}

/**
 * The query with each word typed after a `no` between two nouns excluded, as shorthand for
 * "without" ("mountains no snow", "space no planets", "beach no people or boats": Term.afterNo);
 * the same query when there is none. Between other words a `no` is an idiom or a particle and stays
 * a word: "say no more" (say is a verb, more no noun), the Japanese titles people type in letters
 * ("boku no hero academia", "tonari no totoro": boku and tonari are no English words). A word in a
 * group of alternatives stays as typed. A query left with nothing else to look for reads as its
 * filler with those words excluded (SearchQuery.filler): "wallpaper no people" as "wallpaper
 * -people", every wallpaper but those, "background no people" as "background -people" (helper-144:
 * it had been every wallpaper); should no filler be left either, every wallpaper.
 */
export function withShorthandRead(text: SearchQuery, nouns: Nouns): SearchQuery {
  const excluded: Term[] = [];
  const groups = text.groups.filter((group) => {
    const [term] = group;
    const shorthand =
      group.length === 1 && term?.afterNo !== undefined && nounBefore(nouns, term.afterNo) && nouns.namesNoun(term.text, true) === true;
    if (shorthand) excluded.push({ text: term.text, phrase: false });
    return !shorthand;
  });
  if (excluded.length === 0) return text;
  const { filler, ...read } = { ...text, groups, excluded: [...text.excluded, ...excluded] };
  if (groups.length > 0) return read;
  return filler === undefined ? { ...read, every: true } : { ...read, ...filler };
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
      if (text === params.text) return repository.search(params);
      return repository.search(text.every ? everyWallpaper({ ...params, text }) : { ...params, text });
    },
  };
}
