import { readFileSync } from 'node:fs';
import { inAmericanSpelling } from '../../infra/word-lists.js';
import { wordsOf } from '../search-query.js';
import { STOP_WORDS } from '../stop-words.js';

/**
 * What people type for the catalogue's own words, where a sentence model cannot tell: slang
 * ("nom nom"), nicknames ("big apple"), sports' short forms ("hoops"), brands for a class of thing
 * ("lambo"), phrases whose meaning is not their words ("northern lights"). The model reads
 * everyday words well (kitty, automobile, woods) but places these far from what they mean, or
 * nearer a word they share ("northern lights" to "winter light", "big cat" to "kitten").
 *
 * The file maps a catalogue word (a tag or a category name) to what people type for it. It was
 * written from the catalogue's words alone, without the judged queries that measure it
 * (thesaurus/README.md). An entry whose catalogue word the catalogue no longer uses stands for
 * nothing; a typed term that is itself a catalogue word means itself, as the model's rule has it.
 */
export interface EverydayWords {
  /** The catalogue words a typed word or phrase stands for, as the file lists them; none if it lists none. */
  lookUp(typed: string): readonly string[];
  /**
   * The catalogue words a typed class word holds, as broader-words.json lists them ("dessert"
   * macarons and donuts, "instrument" guitar and violin); none if it lists none.
   */
  kindsOf(typed: string): readonly string[];
  /** Words in the longest phrase the file holds (stop words aside). */
  readonly longest: number;
  /** The single words the file lists, for reading a misspelling of one ("sakrua"). */
  readonly words: readonly string[];
}

export const EVERYDAY_WORDS_FILE = new URL('../../../thesaurus/everyday-words.json', import.meta.url);
/**
 * The class words people search by for the catalogue's words (a catalogue word to the broader
 * terms it answers: ramen to "noodles", keyboard to "computer"), which everyday-words.json leaves
 * out by design. Written by another helper the same way, from the catalogue's words alone
 * (thesaurus/README.md).
 */
export const BROADER_WORDS_FILE = new URL('../../../thesaurus/broader-words.json', import.meta.url);

/**
 * A term as it is looked up: its words as a query reads them (search-query.ts), in lower case,
 * Lucene's stop words left out ("the big apple" is "big apple", "halley's comet" "halley comet"),
 * and in American spelling as the index reads them ("grey ghost" is "gray ghost").
 */
export function termKey(text: string): string {
  return wordsOf(text.toLowerCase())
    .filter((word) => !STOP_WORDS.has(word))
    .map(inAmericanSpelling)
    .join(' ');
}

type Entries = Readonly<Record<string, readonly string[]>>;

/** The regular English plural of a term's last word ("noodle" noodles, "hot dog" hot dogs, "berry" berries). */
function pluralOf(key: string): string {
  return key.replace(/\p{L}+$/u, (word) =>
    /(s|x|z|ch|sh)$/.test(word) ? `${word}es` : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`,
  );
}

/** A file's entries read the other way round: typed term to the catalogue words it stands for. */
function byTypedTerm(entries: Entries): Map<string, string[]> {
  const byTerm = new Map<string, string[]>();
  for (const [catalogueWord, terms] of Object.entries(entries)) {
    for (const term of terms) {
      const key = termKey(term);
      // A phrase that its small words make what it is ("no people", "on fire", "at ease") cannot be
      // told from its one word once they are gone (queries lose them too): it is left out.
      if (key === '' || (!key.includes(' ') && term.trim().includes(' '))) continue;
      // A word said twice ("nom nom", "yum yum") is typed as often as the word once, or its plural ("noms").
      // Only as written, two words of letters: "d&d" and "1-1" read as "d d" and "1 1" are no such word.
      const written = term.trim().toLowerCase().split(/\s+/);
      const doubled = written.length === 2 && written[0] === written[1] && /^\p{L}{2,}$/u.test(written[0]!);
      for (const form of doubled ? [key, written[0]!] : [key]) {
        const words = byTerm.get(form) ?? [];
        if (!words.includes(catalogueWord)) words.push(catalogueWord);
        byTerm.set(form, words);
      }
    }
  }
  return byTerm;
}

/** The thesaurus: what people type for the catalogue's words, and the class words they search them by. */
export function everydayWords(entries: Entries, broader: Entries = {}): EverydayWords {
  const same = byTypedTerm(entries);
  const kinds = byTypedTerm(broader);
  const keys = [...new Set([...same.keys(), ...kinds.keys()])];
  // A term the files list only in the plural is found typed in the singular too ("noodle" as
  // "noodles" had found nothing, review); the other way round, queries read a plural as its
  // singular already (query-meaning.ts).
  const entry = (byTerm: Map<string, string[]>, typed: string) => {
    const key = termKey(typed);
    return byTerm.get(key) ?? byTerm.get(pluralOf(key)) ?? [];
  };
  return {
    lookUp: (typed) => entry(same, typed),
    kindsOf: (typed) => entry(kinds, typed),
    longest: Math.max(1, ...keys.map((key) => key.split(' ').length)),
    words: keys.filter((key) => !key.includes(' ')),
  };
}

export const NO_EVERYDAY_WORDS: EverydayWords = everydayWords({});

const readEntries = (file: URL | string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;

export function readEverydayWords(file: URL | string = EVERYDAY_WORDS_FILE, broader: URL | string = BROADER_WORDS_FILE): EverydayWords {
  return everydayWords(readEntries(file), readEntries(broader));
}
