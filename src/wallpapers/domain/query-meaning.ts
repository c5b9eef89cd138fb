import { colorNameOfWord } from '../colors.js';
import type { SearchQuery, Term } from '../search-query.js';
import { STOP_WORDS } from '../stop-words.js';
import type { SentenceModel } from '../../infra/sentence-model.js';
import { inAmericanSpelling, IRREGULAR_PLURALS, spellingsOf } from '../../infra/word-lists.js';
import { createSpelling, editDistance } from '../../infra/spelling.js';
import { type Vocabulary, cosine, memoisedVectors } from '../../infra/nearest-words.js';
import type { KindsOf } from '../../infra/word-classes.js';
import { type EverydayWords, NO_EVERYDAY_WORDS } from './everyday-words.js';

// A word read as more word pieces than this is not looked up in the model (lookUpForms).
const MAX_MEANING_PIECES = 10;

export interface MeaningOptions {
  /** Cosine similarity a catalogue word needs to stand in for a query word. */
  floor: number;
  /** Catalogue words at most per query word. */
  top: number;
}

/** What a query means in the catalogue's words. */
export interface QueryMeaning {
  /** Its groups, each word joined by the catalogue words it stands for; null when no word gained any. */
  query: SearchQuery | null;
  /**
   * The words of each group that has no word of the catalogue's for it: not one of its words, nor
   * a misspelling of one, nor near one in meaning. Unless such words occur in the catalogue's
   * text, it cannot hold what the query asks for (search-meaning.ts checks).
   */
  strangers: string[][];
  /**
   * The group the query is of, when it has several: the first that names a pictured thing ("a
   * nebula in purple", "a surfer riding a wave", "a lighthouse at sunset"); null when none does.
   * Not a sight (WordNet's events and phenomena: waves, a storm, smoke): read as subjects, they put
   * "Fractured Smoke" above the dragon of "smoke and a dragon" and abstract waves above the
   * lighthouse of "waves and a lighthouse" (review, bench/results/meaning-routes.md).
   */
  subject: Term[] | null;
  /** The exclusions as the search applies them, when they are more than those typed (see excludedAsSearched). */
  excluded?: Term[];
  /**
   * The groups as typed, with each phrase people type for a catalogue word one phrase group ("fall
   * leaves", "northern lights", "big apple", "night sky"), when the query holds one. Such a phrase
   * means what its words together do, not each of them: matched word by word as typed, "fall
   * leaves" put the 70 "… under Falling Petals" whose descriptions say "Leaves room … for desktop
   * icons" above every autumn wallpaper, as a query's words as typed rank above what they stand
   * for. So the thesaurus leaves out phrases that mean their words ("spring flowers" are flowers in
   * spring): listed, one would find only the catalogue words it names.
   */
  typed?: Term[][];
}

export type ExpandQuery = ((text: SearchQuery, vocabulary: Vocabulary) => Promise<QueryMeaning>) & {
  /**
   * Reads what the catalogue's words are by WordNet, and which of the thesaurus's words the index
   * reads as others far in meaning (`reading`, from readAlike, or read now), once per set of words,
   * so that no search waits for it; rejects when the index could not be read.
   */
  prepare(vocabulary: Vocabulary, reading?: Promise<ReadAlike>): Promise<void>;
  /** How the index reads the thesaurus's words beside the catalogue's entries (IndexReading), asked within timeoutMs. */
  readAlike(entries: readonly string[], timeoutMs?: number): Promise<ReadAlike>;
  /** The catalogue's single words a misspelt word may stand for (infra/spelling.ts), kept per set of words. */
  ownSpelling(vocabulary: Vocabulary, word: string): string[];
};

/** What a word stands for in the catalogue's words; `stranger` when it stands for none and is none of them. */
interface Lookup {
  terms: Term[];
  stranger: boolean;
}
const OWN: Lookup = { terms: [], stranger: false };

// Query words seen recently: a word's vector and what it stands for are the same every time.
const MEMO = 10_000;
// Words looked up per query, at most: a new word costs a few milliseconds of the model and the
// speller, and a query may hold 32 words; the rest mean what they say (as typos are looked for in
// the first three words only).
export const MAX_MEANING_WORDS = 4;
// Words in WordNet's longest compounds that a query is read for ("hot air balloon").
const MAX_COMPOUND = 3;
// A spelling guess is less sure than a word as typed: its meaning must be closer to count. At the
// plain floor, real words the model splits into pieces were read as others ("wombat" as combat,
// "flamingo" as flaming, "marlin" as merlin: 0.62-0.69); the misspellings worth reading land higher
// ("kittty": kitty, kitten 0.78; "automobil": automobile, cars 0.82).
const CORRECTED_FLOOR = 0.7;
const MAX_GUESSES = 3;
// A word people use for a catalogue word (everyday-words.ts) stands in for it this closely: above
// what the model gives all but near-spellings of a word (kitty~kitten 0.78, rooftop~rooftops 0.92),
// below a word as typed.
export const EVERYDAY_SIMILARITY = 0.9;
// A catalogue word that a class word people type holds ("dessert" macarons) stands in for it a
// little less closely than a word for the same thing: what is exactly it comes first.
export const BROADER_SIMILARITY = 0.8;
// The thesaurus holds short forms ("gto", "mobo") one edit from many short words: a word shorter than
// this is never read as a misspelling of one ("gato", Spanish for cat, is not "gto").
const MIN_EVERYDAY_GUESS = 5;
// The model places things near others they are often seen with: "shark" near whale (0.67),
// "snowman" near snow (0.64), "ships" near spaceship (0.73). For a word that names a pictured thing,
// a neighbour below this stands for it only where WordNet agrees (a synonym, a kind or a part of
// it); nearer ones are near-spellings and the thesaurus's kind of word ("rooftop" rooftops 0.92).
const UNCONFIRMED_FLOOR = 0.75;
// A kind or part of a thing by WordNet stands for it where the model places them this near, below
// the plain floor: "big cat" lion 0.47, tiger 0.50; "computer" keyboard 0.58. Lower, WordNet's rarer
// senses come through: an insect's "drone" (a bee, 0.40), a computer's "portal" (0.34).
const KIND_FLOOR = 0.42;

// A catalogue word's WordNet synonym among the catalogue's words stands for it from this near: "sunrise"
// dawn 0.66, morning 0.57, not its rarer aurora (0.53).
const SYNONYM_FLOOR = 0.55;

/** What WordNet says of words; without it, none of these rules apply. */
export interface Language {
  /** A word of the language, never read as a misspelling of another. */
  knows: (word: string) => boolean;
  namesThing: (word: string) => Promise<boolean>;
  /** Whether a query can be of it (WordClasses.namesSubject); namesThing's answer where not given. */
  namesSubject?: (word: string) => Promise<boolean>;
  /** Whether a picture may hold it as one figure in its scene (WordClasses.namesFigure); false where not given. */
  namesFigure?: (word: string) => Promise<boolean>;
  isCompound: (words: string) => boolean;
  kindsAmong: (words: readonly string[]) => Promise<KindsOf>;
  synonymsOf: (noun: string) => Promise<ReadonlySet<string>>;
}
/**
 * How the index reads words (store/catalogue-words.ts): the one term its analyzer makes of each, or
 * undefined where it makes none or several; given up on after timeoutMs.
 */
export type IndexReading = (words: readonly string[], timeoutMs?: number) => Promise<readonly (string | undefined)[]>;

const NONE: ReadonlySet<string> = new Set();

/** The thesaurus's single words the index reads as other words of the catalogue's, with those words. */
export type ReadAlike = ReadonlyMap<string, readonly string[]>;

// A word the thesaurus lists that the index reads as one of the catalogue's words is read as another
// word when that word is further in meaning than this from every word it is listed for (the sentence
// model's cosine similarity; as near as a synonym counts, SYNONYM_FLOOR): "fall" as falling (0.48
// from autumn), "deserted" as desert (0.32 from empty), "skier" as sky (0.21 from ski slope). Nearer,
// it is the same word in another form: "blossoming" blossom (0.60 from blooming), "surfing" surf
// (0.74), "films" film (0.81), "raining" rain (0.91). Measured on the demo catalogue's eleven such words.
const READ_ALIKE_CEILING = 0.55;
// And further by this much than the word itself is: a word the thesaurus lists for what the model
// places it far from is read as another word only when that word is further still. "desolation",
// listed for wasteland (0.23), is read as desolate (0.24), its own adjective, not another word
// (helper-143); "fall" is 0.64 from autumn and its reading, falling, 0.48.
const READ_ALIKE_MARGIN = 0.1;

const NO_LANGUAGE: Language = {
  synonymsOf: () => Promise.resolve(new Set()),
  knows: () => false,
  namesThing: () => Promise.resolve(false),
  isCompound: () => false,
  kindsAmong: () => Promise.resolve(() => Promise.resolve(new Set())),
};

/** A phrase with its last word singular ("sports venues" as "sports venue"). */
const lastSingular = (phrase: string): string => phrase.replace(/\S+$/, singularOf);

/** A phrase's words, matched where a title says them (Term.titled). */
const wordsInTitles = ({ text }: Term): Term => ({ text, phrase: false, titled: true });

/**
 * A plural's singular: an irregular one as listed ("mice" mouse, "people" person), else by the
 * regular rules ("kitties" kitty, "churches" church, "fortresses" fortress); else the word.
 */
export function singularOf(word: string): string {
  const irregular = IRREGULAR_PLURALS.get(word);
  if (irregular !== undefined) return irregular;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ch|sh|x|ss|z)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') ? word.slice(0, -1) : word;
}

/**
 * Each plain word of the query that is not one of the catalogue's words (its tags and category
 * names) gains the catalogue words it stands for: those people use it for (everyday-words.ts:
 * "noms" food, "lambo" supercar), or else the nearest in meaning ("kitty" finds kitten,
 * "automobile" cars). Neighbouring words that people use together for one catalogue word are read
 * as one ("northern lights" aurora, "the big apple" new york). A word neither knows is first
 * corrected to the nearest known word ("kittty" to kitty, "sakrua" to sakura). Phrases keep their
 * words as typed. `query` is null when no word gained anything: the query means what it says.
 */
export function createQueryExpansion(
  model: SentenceModel,
  options: MeaningOptions,
  everyday: EverydayWords = NO_EVERYDAY_WORDS,
  language: Language = NO_LANGUAGE,
  readAsIndexed?: IndexReading,
): ExpandQuery {
  const isWord = language.knows;
  const modelSpelling = createSpelling(model.words);
  const everydaySpelling = createSpelling(everyday.words);
  const modelWords = new Set(model.words);
  const guessed = new Map<string, string[]>();

  /**
   * The words a misspelt one may have meant, the model's and the everyday ones, remembered. A word
   * of the language is not a misspelling, though the model may not know it whole: "flamingo" is not
   * "flaming", "wombat" not "combat".
   */
  function guesses(word: string): string[] {
    let found = guessed.get(word);
    if (found === undefined) {
      found =
        modelWords.has(word) || isWord(word)
          ? []
          : [
              ...new Set([
                ...modelSpelling(word).slice(0, MAX_GUESSES),
                ...(word.length >= MIN_EVERYDAY_GUESS ? everydaySpelling(word).slice(0, MAX_GUESSES) : []),
              ]),
            ];
      if (guessed.size >= MEMO) guessed.clear();
      guessed.set(word, found);
    }
    return found;
  }

  /** The catalogue words people use a term for, the catalogue still using them. */
  function everydayTerms(typedForms: readonly string[], vocabulary: Vocabulary): Term[] {
    const said = new Set(typedForms.flatMap((form) => everyday.lookUp(form)).filter((word) => vocabulary.has(word)));
    const kinds = new Set(typedForms.flatMap((form) => everyday.kindsOf(form)).filter((word) => vocabulary.has(word) && !said.has(word)));
    return [
      ...[...said].map((word) => ({ text: word, phrase: word.includes(' '), similarity: EVERYDAY_SIMILARITY })),
      ...[...kinds].map((word) => ({ text: word, phrase: word.includes(' '), similarity: BROADER_SIMILARITY })),
    ];
  }
  const vectorOf = memoisedVectors(model);

  /** The forms a word is looked up by: as typed, and a plural's singular ("kitties", "kitty"). */
  function forms(word: string): string[] {
    const singular = singularOf(word);
    return singular === word || singular.length < 3 ? [word] : [word, singular];
  }

  /**
   * The forms whose neighbours a word means: a plural whose singular names a pictured thing means
   * what its singular does. The model places a plural nearer its class ("dogs" by animals, "dog"
   * not), so "dogs" found every animal and "dog" the dogs; a plural whose singular is no thing
   * ("news", new) keeps both forms.
   */
  async function meaningForms(typedForms: string[]): Promise<string[]> {
    const singular = typedForms[1];
    return singular !== undefined && (await language.namesThing(singular)) ? [singular] : typedForms;
  }

  /**
   * The catalogue words nearest the forms of a word in meaning, at `floor` or closer; for a word that
   * names a pictured thing, those WordNet does not confirm only when very near. And the catalogue
   * words WordNet relates to it (its kinds and parts, what it is a kind of), where the model places
   * them at KIND_FLOOR or closer. A compound's own words count like any other: a red fox is a fox,
   * a full moon a moon (leaving them out emptied such searches; review).
   */
  async function nearest(words: readonly string[], vocabulary: Vocabulary, floor = options.floor): Promise<Map<string, number>> {
    const best = new Map<string, number>();
    const keep = (entry: string, similarity: number) => best.set(entry, Math.max(best.get(entry) ?? 0, similarity));
    const kindsOf = await lookupsOf(vocabulary).kinds;
    const kinds = new Set((await Promise.all(words.map((word) => kindsOf(word)))).flatMap((found) => [...found]));
    const confirmed = (await language.namesThing(words[0]!)) ? UNCONFIRMED_FLOOR : 0;
    for (const word of words) {
      const vector = await vectorOf(word);
      for (const { entry, similarity } of vocabulary.nearest(vector, Math.max(floor, options.floor), options.top)) {
        if (similarity >= confirmed || kinds.has(entry)) keep(entry, similarity);
      }
      for (const kind of kinds) {
        const kindVector = vocabulary.vectorOf(kind);
        const similarity = kindVector === undefined ? 0 : cosine(vector, kindVector);
        if (similarity >= KIND_FLOOR) keep(kind, similarity);
      }
    }
    return best;
  }

  // What a word stands for, per set of catalogue words: the same on every request until the words
  // are read again, and worth keeping (a lookup compares the word with every catalogue word).
  interface Lookups {
    terms: Map<string, Lookup>;
    /** The catalogue's single words a misspelling may stand for. */
    ownSpelling: (word: string) => string[];
    /** The catalogue's words WordNet puts under a noun (Language.kindsAmong). */
    kinds: Promise<KindsOf>;
    /** Its entries of several words written as one ("close-up" closeup, "tall grass" tallgrass). */
    together: ReadonlySet<string>;
    /** The thesaurus's words the index reads as another word of the catalogue's (readAlike). */
    readAlike?: Promise<ReadonlySet<string>>;
  }
  const found = new WeakMap<Vocabulary, Lookups>();

  function lookupsOf(vocabulary: Vocabulary): Lookups {
    let lookups = found.get(vocabulary);
    if (lookups === undefined) {
      const ownWords = [...new Set(vocabulary.entries.flatMap((entry) => entry.split(/[\s-]+/)))];
      const kinds = language.kindsAmong(vocabulary.entries).catch(() => () => Promise.resolve(new Set<string>()));
      const together = new Set(vocabulary.entries.filter((entry) => /[\s-]/.test(entry)).map((entry) => entry.replace(/[\s-]+/g, '')));
      lookups = { terms: new Map(), ownSpelling: createSpelling(ownWords), kinds, together };
      found.set(vocabulary, lookups);
    }
    return lookups;
  }

  /**
   * A word means what its American spelling means, as the index reads one as the other: the model
   * places "colour" near game words and "color" near flowers, so each had found different pictures.
   */
  async function alternatives(term: Term, vocabulary: Vocabulary): Promise<Lookup> {
    const typed = inAmericanSpelling(term.text.toLowerCase());
    const { terms: known, ownSpelling } = lookupsOf(vocabulary);
    let terms = known.get(typed);
    if (terms === undefined) {
      terms = await lookUp(typed, vocabulary, ownSpelling);
      if (known.size >= MEMO) known.clear();
      known.set(typed, terms);
    }
    return terms;
  }

  /** Of a word's forms, those the catalogue holds as words of its own, in either spelling ("harbor" is its harbour). */
  function ownForms(typedForms: readonly string[], vocabulary: Vocabulary): string[] {
    return [...new Set(typedForms.flatMap(spellingsOf))].filter((form) => vocabulary.has(form));
  }

  /**
   * What a word stands for, and the plural of it that the catalogue holds where it holds the word in
   * no other form ("alp", tagged "alps"). The index's stemmer keeps a few plurals apart from their
   * singulars (KStem's dictionary holds "alps"), so the word as typed matched nothing, and WordNet's
   * alp being a thing emptied every search for it. Only for a word that otherwise stands for
   * nothing: one with neighbours keeps them (`fall` had gained the waterfalls of a tag "falls",
   * helper-98), and other words the catalogue holds only as plurals ("flower", "cloud") have theirs
   * among their neighbours already.
   */
  async function lookUp(typed: string, vocabulary: Vocabulary, ownSpelling: Lookups['ownSpelling']): Promise<Lookup> {
    const found = await lookUpForms(typed, vocabulary, ownSpelling);
    if (!found.stranger) return found;
    const plurals = pluralsHeld(typed, vocabulary).filter((plural) => !found.terms.some(({ text }) => text === plural));
    if (plurals.length === 0) return found;
    return { terms: [...plurals.map((text) => ({ text, phrase: false, similarity: EVERYDAY_SIMILARITY })), ...found.terms], stranger: false };
  }

  /** The catalogue's words that are regular plurals of a word none of whose forms it holds. */
  function pluralsHeld(typed: string, vocabulary: Vocabulary): string[] {
    if (ownForms(forms(typed), vocabulary).length > 0) return [];
    const plurals = [`${typed}s`, `${typed}es`, ...(/[^aeiou]y$/.test(typed) ? [`${typed.slice(0, -1)}ies`] : [])];
    return plurals.filter((plural) => singularOf(plural) === typed && vocabulary.has(plural));
  }

  async function lookUpForms(typed: string, vocabulary: Vocabulary, ownSpelling: Lookups['ownSpelling']): Promise<Lookup> {
    // A word of the catalogue's own means itself: it already matches as typed, and other words for it
    // would cost every such search a wider query for little (one query of 72 in the judged set). So
    // does a misspelling of one (a word the model does not know, an edit or two from one of the
    // catalogue's): the search's own typo matching finds it, without the model.
    const typedForms = forms(typed);
    const own = ownForms(typedForms, vocabulary);
    if (own.length > 0) return synonymsInCatalogue(own, vocabulary);
    // A colour means itself: the search finds it in the pictures' pixels (store/build-queries.ts).
    // The model places every colour near the others, and read "yellow", which no tag holds, as
    // red and blue (red pandas first; helper-120).
    if (colorNameOfWord(typed) !== null) return OWN;
    const said = everydayTerms(typedForms, vocabulary);
    // A word for the same thing settles it; a class word's catalogue words join the model's own
    // ("wood" holds a wooden table, and is still near oak trees).
    if (said.some(({ similarity }) => similarity === EVERYDAY_SIMILARITY)) return { terms: said, stranger: false };
    const compound = typed.includes(' ');
    if (!compound && !modelWords.has(typed) && ownSpelling(typed).length > 0) return OWN;
    // More pieces than an English word has (a made-up string, a hash) places nowhere the model could
    // say, and its runs block the event loop: four 48-character ones cost a search 67 ms of the
    // API's CPU against 3.5 ms (helper-118). The longest words people type are 8 ("bioluminescent"
    // 4, "antidisestablishmentarianism" 8).
    if (model.pieces(typed) > MAX_MEANING_PIECES) return { terms: [], stranger: true };
    // A word's own neighbours come first; its spelling guesses only where the model places it near
    // no catalogue word surely (below CORRECTED_FLOOR). A word with no neighbour takes the first guess
    // read as a catalogue word; one with some, only a guess one edit away whose reading lands nearer
    // than the word itself: "bloms" is blooms (flowers), not the Dolomites (0.65). Reading every
    // unknown word through its guesses first respelt far more: "starscape" as seascape (ocean),
    // "moonscape", and words no guess can reach ("海", "zürich") lost their neighbours; a thesaurus
    // word two edits away replaced a word's neighbours ("moonscape", moon 0.70, as townscape; review,
    // bench/results/meaning-routes.md).
    let near = await nearest(await meaningForms(typedForms), vocabulary);
    const nearness = Math.max(0, ...near.values());
    if (nearness < CORRECTED_FLOOR && !compound) {
      const guess = await bestGuess(typed, vocabulary, nearness);
      if (guess?.said.length) return { terms: guess.said, stranger: false };
      if (guess) near = guess.near;
    }
    const terms = [...near]
      .filter(([entry]) => !said.some(({ text }) => text === entry))
      .sort((a, b) => b[1] - a[1])
      .slice(0, options.top)
      .map(([entry, similarity]) => ({ text: entry, phrase: entry.includes(' '), similarity }));
    const found = [...said, ...terms];
    return { terms: found, stranger: found.length === 0 };
  }

  /** A word of two words of the language, each of three letters or more ("lightscape", "sailway", "moonscape"). */
  function isCoinage(word: string): boolean {
    for (let i = 3; i <= word.length - 3; i++) if (isWord(word.slice(0, i)) && isWord(word.slice(i))) return true;
    return false;
  }

  /**
   * Of a misspelt word's first few guesses (a short non-word can be one edit from dozens of words,
   * each a model run), the one read nearest a catalogue word, when nearer than `than`: a word people
   * use for one (everyday-words.ts) at EVERYDAY_SIMILARITY, else its neighbours at CORRECTED_FLOOR.
   * Where the word has neighbours (`than` above 0), only guesses one edit away count, and none for
   * a word made of two words: that is a coinage whose neighbours are its meaning ("sailway" is
   * not railway, "timelight" not spotlight; review). The first guess wins a tie.
   */
  async function bestGuess(typed: string, vocabulary: Vocabulary, than: number): Promise<{ said: Term[]; near: Map<string, number> } | null> {
    if (than > 0 && isCoinage(typed)) return null;
    let best: { said: Term[]; near: Map<string, number>; nearness: number } | null = null;
    const candidates = than === 0 ? guesses(typed) : guesses(typed).filter((corrected) => editDistance(typed, corrected, 1) <= 1);
    for (const corrected of candidates) {
      const said = everydayTerms(forms(corrected), vocabulary);
      const near = said.length > 0 ? new Map<string, number>() : await nearest(forms(corrected), vocabulary, CORRECTED_FLOOR);
      const nearness = Math.max(0, ...said.map(({ similarity }) => similarity!), ...near.values());
      if (nearness > (best?.nearness ?? than)) best = { said, near, nearness };
      // With no neighbour of its own, the first guess that reads as anything settles it, as before.
      if (than === 0 && best !== null) break;
    }
    return best;
  }

  /**
   * A catalogue word's synonyms by WordNet that are catalogue words too, and for a word that names
   * a thing, the catalogue's words for kinds of it, where the model agrees (SYNONYM_FLOOR):
   * "sunrise" finds the ocean pictures worded "at dawn", "bird" the eagles and owls after its birds
   * (it had found the 41 minimal birds alone), "valley" the canyons. Kinds only, each of which is
   * one: not its parts (a stage is no theatre, a tree no forest), nor what it is a kind or one of
   * (Saturn's "planet"), nor a named one (word-classes.ts's kindsOnly). Not the model's own neighbours: it places opposites close
   * ("sunrise" sunset 0.74, above dawn 0.66).
   */
  async function synonymsInCatalogue(own: readonly string[], vocabulary: Vocabulary): Promise<Lookup> {
    const best = new Map<string, number>();
    const kindsOf = await lookupsOf(vocabulary).kinds;
    for (const word of own) {
      const synonyms = [...(await language.synonymsOf(word))];
      const kinds = (await language.namesThing(word)) ? [...(await kindsOf(word, { kindsOnly: true }))] : [];
      // Both were embedded with the catalogue's words: no model run for a word of the catalogue.
      const vector = vocabulary.vectorOf(word)!;
      for (const other of [...synonyms, ...kinds]) {
        if (!vocabulary.has(other) || own.includes(other) || singularOf(other) === word) continue;
        const similarity = cosine(vector, vocabulary.vectorOf(other)!);
        if (similarity >= SYNONYM_FLOOR) best.set(other, Math.max(best.get(other) ?? 0, similarity));
      }
    }
    const terms = [...best]
      .sort((a, b) => b[1] - a[1])
      .slice(0, options.top)
      .map(([text, similarity]) => ({ text, phrase: text.includes(' '), similarity }));
    return terms.length === 0 ? OWN : { terms, stranger: false };
  }

  const plainWord = (group: readonly Term[]) => group.length === 1 && !group[0]!.phrase && !group[0]!.quoted && !group[0]!.text.includes(' ');

  /**
   * A phrase people type for a catalogue word, as typed or with its unknown words respelt (those
   * `mayRespell` allows): the catalogue words it stands for. `together`: its words were typed with
   * nothing but spaces between them (SearchQuery.spaced), or joined.
   */
  function everydayPhrase(words: readonly string[], mayRespell: readonly boolean[], vocabulary: Vocabulary, together: boolean): Term[] {
    const typed = words.join(' ').toLowerCase();
    // In the plural too, as a word is read ("sports venues" as "sports venue"; "sea turtles" is the
    // catalogue's own): the files list a phrase once, and "sports venues" had found nothing at all,
    // its "venues" a thing the catalogue lacks. The other words singular only where the phrase reads
    // nothing so and they stand together, with no word between to say how ("mountains lake" as
    // "mountain lake"): "roses in the garden" would read as the list's "rose garden" and "sunflowers
    // in a field" as "sunflower field", and lose the wallpapers that have those very titles
    // (helper-164). The last word as typed first: every word singular, "cities lights" had read as
    // the city of light, Paris, where "city lights" are the cityscapes (helper-167).
    const singular = lastSingular(typed);
    if (vocabulary.has(typed) || vocabulary.has(singular)) return [];
    const said = everydayTerms(singular === typed ? [typed] : [typed, singular], vocabulary);
    if (said.length > 0 || !together) return saidOrRespelt(said, words, mayRespell, vocabulary);
    const leading = words.map((word, i) => (i < words.length - 1 ? forms(word.toLowerCase()).at(-1)! : word.toLowerCase()));
    for (const reading of new Set([leading.join(' '), lastSingular(leading.join(' '))])) {
      const read = everydayTerms([reading], vocabulary);
      if (read.length > 0) return read;
    }
    return saidOrRespelt(said, words, mayRespell, vocabulary);
  }

  /** What a phrase as typed says, or when it says nothing, what it does with its unknown words respelt (those `mayRespell` allows). */
  function saidOrRespelt(said: Term[], words: readonly string[], mayRespell: readonly boolean[], vocabulary: Vocabulary): Term[] {
    if (said.length > 0 || !mayRespell.some(Boolean)) return said;
    const respelt = words.map((word, i) => {
      const lower = word.toLowerCase();
      return !mayRespell[i] || modelWords.has(lower) || vocabulary.has(lower) ? lower : (guesses(lower)[0] ?? lower);
    });
    return everydayTerms([respelt.join(' ')], vocabulary);
  }

  /**
   * What a joined term ("mountain-lake", "northern-lights") stands for: what the same words typed
   * apart do (joinPhrases), a misspelt word respelt too ("mountian-lake" reads as "mountian lake"
   * does, alpine lake). Respelling one counts as a word looked up, and only where the words as
   * typed stand for nothing and one of them is unknown.
   */
  function joinedTermStandsFor(words: readonly string[], vocabulary: Vocabulary, budget: { left: number }): Term[] {
    const asTyped = everydayPhrase(words, [], vocabulary, true);
    const unknown = words.map((word) => !modelWords.has(word) && !vocabulary.has(word));
    if (asTyped.length > 0 || budget.left <= 0 || !unknown.some(Boolean)) return asTyped;
    budget.left--;
    return everydayPhrase(words, unknown, vocabulary, true);
  }

  /**
   * Neighbouring plain words people type together for one catalogue word become one group: the
   * phrase as typed, or the catalogue words it stands for. The longest such run wins. `spaced`:
   * the neighbouring words typed with nothing but spaces between them (SearchQuery.spaced).
   */
  function joinPhrases(
    groups: readonly Term[][],
    vocabulary: Vocabulary,
    spaced: ReadonlySet<string>,
  ): { groups: Term[][]; joined: boolean; compounds: Set<number>; typed: Term[][] | null } {
    const compounds = new Set<number>();
    // Respelling costs a scan of the known words, so only the words whose meaning is looked up (the
    // first few) are respelt: 32 unknown words had cost a search 50-120 ms of the process's time.
    let respellable = MAX_MEANING_WORDS;
    const mayRespell = groups.map((group) => plainWord(group) && respellable-- > 0);
    const out: Term[][] = [];
    const typed: Term[][] = [];
    let everydayPhrases = false;
    let joined = false;
    for (let i = 0; i < groups.length; i++) {
      const start = i;
      let merged: Term[] | null = null;
      // A phrase people type for a catalogue word, which its words as typed match only together.
      let together: Term | null = null;
      let run = 0;
      const longest = Math.max(everyday.longest, MAX_COMPOUND);
      while (i + run < groups.length && plainWord(groups[i + run]!) && run < longest + 2) run++;
      for (let n = run; n >= 2 && merged === null; n--) {
        const words = groups.slice(i, i + n).map((group) => group[0]!.text);
        const key = words.filter((word) => !STOP_WORDS.has(word.toLowerCase()));
        if (key.length < 2 || key.length > longest || STOP_WORDS.has(words[0]!.toLowerCase())) continue;
        const sideBySide = words.every((word, k) => k === 0 || spaced.has(`${words[k - 1]!} ${word}`.toLowerCase()));
        const said = key.length <= everyday.longest ? everydayPhrase(words, mayRespell.slice(i, i + n), vocabulary, sideBySide) : [];
        if (said.length > 0) {
          together = { text: words.join(' '), phrase: true };
          merged = [together, wordsInTitles(together), ...said];
        } else if (n === key.length && key.length <= MAX_COMPOUND && isCompound(key.join(' ').toLowerCase(), vocabulary)) {
          // One thing of several words ("ice cream", "big cat"): looked up whole, for what it is, not word by word.
          compounds.add(out.length);
          merged = [{ text: words.join(' '), phrase: true }];
        } else continue;
        i += n - 1;
      }
      out.push(merged ?? [...groups[i]!]);
      // A compound's words as typed are the thing's own ("big cat" matches a big cat word by word).
      typed.push(...(together === null ? groups.slice(start, i + 1).map((group) => [...group]) : [[together, wordsInTitles(together)]]));
      everydayPhrases ||= together !== null;
      joined ||= merged !== null;
    }
    return { groups: out, joined, compounds, typed: everydayPhrases ? typed : null };
  }

  /**
   * A noun of WordNet's of several words, none of the catalogue's ("snow leopard" is one: it means
   * itself). Not one led by a colour: WordNet lists pairs such as "blue sky" and "red sea", but a
   * colour and a thing is how people describe a picture, searched word by word, the colour's and
   * the thing's own meanings kept; a thing the catalogue does not hold ("pink flamingo") is still
   * found absent by its noun alone.
   */
  function isCompound(words: string, vocabulary: Vocabulary): boolean {
    return (
      colorNameOfWord(words.split(' ')[0]!) === null &&
      !forms(words)
        .flatMap(spellingsOf)
        .some((form) => vocabulary.has(form)) &&
      language.isCompound(words)
    );
  }

  /**
   * What a term of a query stands for; null when it is not looked up: phrases, words standing in for
   * others, and plain words past the first few (`budget`). A quoted word stands for itself alone. One
   * word of parts ("b&w", "high-tech") is looked up as people write it, never by the model.
   */
  async function standsFor(term: Term, vocabulary: Vocabulary, budget: { left: number }, compound: boolean): Promise<Lookup | null> {
    // A compound ("big cat") is a phrase looked up whole, within the same budget as a word.
    if (compound) return budget.left-- > 0 ? alternatives({ text: term.text, phrase: false }, vocabulary) : null;
    // A word in quotes means itself, exactly: it stands for no other word, and is a stranger when it is
    // none of the catalogue's, so that a thing the catalogue holds nowhere finds nothing quoted as it
    // does unquoted (`"giraffe" tower` had found every tower). One of its entries written as one word
    // is its own (`"closeup"` close-up, `"tallgrass"` tall grass: helper-93), and so is the plural
    // it holds of a word in no other form (`"alp"` alps, `"sport"` its sports, see lookUp).
    if (term.quoted) {
      const { together } = lookupsOf(vocabulary);
      const typed = term.text.toLowerCase();
      const typedForms = forms(typed);
      const plurals = pluralsHeld(typed, vocabulary).map((text) => ({ text, phrase: false, similarity: EVERYDAY_SIMILARITY }));
      const own = ownForms(typedForms, vocabulary).length > 0 || typedForms.flatMap(spellingsOf).some((form) => together.has(form));
      return { terms: plurals, stranger: !own && plurals.length === 0 };
    }
    if (term.phrase || term.similarity !== undefined) return null;
    const typed = term.text.toLowerCase();
    if (typed.includes(' ')) return { terms: joinedTermStandsFor(typed.split(' '), vocabulary, budget), stranger: false };
    if (budget.left-- <= 0) return null;
    return alternatives(term, vocabulary);
  }

  /**
   * The first group that names a pictured thing, when there are several groups (see
   * QueryMeaning.subject), its word as typed marked when it names a figure (Term.figure).
   */
  async function subjectOf(groups: readonly Term[][]): Promise<Term[] | null> {
    if (groups.length < 2) return null;
    const names = (word: string) => (language.namesSubject ?? language.namesThing)(word);
    for (const group of groups) {
      const head = group[0]!;
      const typed = head.text.toLowerCase();
      // A phrase WordNet does not know is of its last word, as a compound is ("mountain lake" is a
      // lake, "rose garden" a garden): without a subject, "mountains lake at night" had ranked the
      // "Roadster at Night" above every alpine lake (helper-167).
      const word = head.phrase && typed.includes(' ') && !(await names(typed)) ? typed.slice(typed.lastIndexOf(' ') + 1) : typed;
      if (head.quoted || !(await names(word))) continue;
      return (await language.namesFigure?.(word)) ? [{ ...head, figure: true }, ...group.slice(1)] : group;
    }
    return null;
  }

  /**
   * An excluded word excludes the plural the catalogue holds of it, as searching for it finds that
   * plural: `climber -alp` had kept the Alps that `alp` finds (helper-98). The same list when none.
   */
  function excludedAsSearched(typed: readonly Term[], vocabulary: Vocabulary): Term[] {
    const plurals = typed
      .filter((term) => !term.phrase && !term.text.includes(' '))
      .flatMap((term) => pluralsHeld(term.text.toLowerCase(), vocabulary))
      .filter((plural, i, all) => all.indexOf(plural) === i && !typed.some(({ text }) => text.toLowerCase() === plural));
    return plurals.length === 0 ? (typed as Term[]) : [...typed, ...plurals.map((text) => ({ text, phrase: false }))];
  }

  /**
   * The groups with each word as typed that names a pictured thing marked (Term.thing): a cat in a
   * description's corner is a detail, while a quality a description gives ("cold", "aerial") is the
   * picture's, and a word for it in a title is no better an answer (helper-130). So is a word the
   * thesaurus lists for a catalogue word that names a pictured thing (a stand-in at
   * EVERYDAY_SIMILARITY): it names that thing, and `running` is the runners, not the "traces of light
   * running along the paths" of a description, which it had ranked first (helper-135). Not for a
   * catalogue word that names none: `aerial` (above), `macro` (close-up) and `flat lay` are how a
   * picture was taken, which its description says (helper-137). And so is a word the thesaurus lists
   * that the index reads as another of the catalogue's words far in meaning from what it is listed for (farInMeaning: `fall`, not falling).
   */
  async function withThingsMarked(groups: readonly Term[][], vocabulary: Vocabulary): Promise<Term[][]> {
    const namesThing = (term: Term) => language.namesThing(term.text.toLowerCase());
    const alike = (await lookupsOf(vocabulary).readAlike?.catch(() => NONE)) ?? NONE;
    return Promise.all(
      groups.map(async (group) => {
        const listed = group.filter(({ similarity }) => similarity === EVERYDAY_SIMILARITY);
        const listsThing = (await Promise.all(listed.map(namesThing))).some(Boolean);
        const marked = async (term: Term): Promise<Term> =>
          term.similarity === undefined &&
          !term.quoted &&
          !term.titled &&
          (listsThing || alike.has(term.text.toLowerCase()) || (await namesThing(term)))
            ? { ...term, thing: true }
            : term;
        return Promise.all(group.map(marked));
      }),
    );
  }

  /**
   * The single words the thesaurus lists that the index reads as other words of the catalogue's
   * (its stemmer makes "fall" of the "falling" of falling petals, "deserted" of desert, "blossoming"
   * of blossom), with those words; none of the words they are listed for. Read from the catalogue's
   * entries, so that it can be asked while their vectors are made.
   */
  async function readAlike(entries: readonly string[], timeoutMs?: number): Promise<ReadAlike> {
    if (readAsIndexed === undefined) return new Map();
    const ownWords = [...new Set(entries.flatMap((entry) => entry.split(/[\s-]+/)))];
    const own = new Set(ownWords);
    const held = new Set(entries);
    const listedWords = everyday.words.filter((word) => /^\p{L}+$/u.test(word) && !own.has(word));
    const read = await readAsIndexed([...ownWords, ...listedWords], timeoutMs);
    const ownByTerm = new Map<string, string[]>();
    ownWords.forEach((word, i) => {
      const term = read[i];
      if (term !== undefined) ownByTerm.set(term, [...(ownByTerm.get(term) ?? []), word]);
    });
    const alike = new Map<string, string[]>();
    listedWords.forEach((word, i) => {
      const term = read[ownWords.length + i];
      const others = term === undefined ? [] : (ownByTerm.get(term) ?? []);
      const listedOwn = new Set(listedFor(word, held).flatMap((entry) => entry.split(/[\s-]+/)));
      if (others.length > 0 && listedOwn.size > 0 && !others.some((other) => listedOwn.has(other))) alike.set(word, others);
    });
    return alike;
  }

  /** The catalogue's entries the thesaurus lists a word for. */
  const listedFor = (word: string, held: { has(entry: string): boolean }) =>
    [...everyday.lookUp(word), ...everyday.kindsOf(word)].filter((entry) => held.has(entry));

  /**
   * Of the words read alike, those whose every reading is far in meaning from all the word is
   * listed for (READ_ALIKE_CEILING): the index reads them as another word ("fall", "deserted"), not
   * as the same word in another form ("blossoming" is blossom, "raining" rain).
   */
  async function farInMeaning(vocabulary: Vocabulary, alike: ReadAlike): Promise<ReadonlySet<string>> {
    const far = new Set<string>();
    const nearest = (vector: Float32Array, listed: readonly Float32Array[]) => Math.max(...listed.map((other) => cosine(vector, other)));
    for (const [word, others] of alike) {
      const listed = listedFor(word, vocabulary).flatMap((entry) => vocabulary.vectorOf(entry) ?? []);
      if (listed.length === 0) continue;
      const bound = Math.min(READ_ALIKE_CEILING, nearest(await vectorOf(word), listed) - READ_ALIKE_MARGIN);
      let near = false;
      for (const other of others) if (nearest(await vectorOf(other), listed) >= bound) near = true;
      if (!near) far.add(word);
    }
    return far;
  }

  // Ready before the vocabulary is used: rejects when the index could not be read (search-meaning.ts
  // reads it so that a failure reads nothing alike).
  const prepare = async (vocabulary: Vocabulary, reading?: Promise<ReadAlike>) => {
    const lookups = lookupsOf(vocabulary);
    lookups.readAlike ??= (reading ?? readAlike(vocabulary.entries)).then((alike) => farInMeaning(vocabulary, alike));
    await Promise.all([lookups.kinds, lookups.readAlike]);
  };
  return Object.assign(
    async (text: SearchQuery, vocabulary: Vocabulary): Promise<QueryMeaning> => {
      if (vocabulary.entries.length === 0) return { query: null, strangers: [], subject: null };
      const phrased = joinPhrases(text.groups, vocabulary, new Set(text.spaced));
      let gained = phrased.joined;
      const groups: Term[][] = [];
      const strangers: string[][] = [];
      const budget = { left: MAX_MEANING_WORDS };
      for (const [index, group] of phrased.groups.entries()) {
        const expanded = [...group];
        // A group is a stranger when every one of its terms is a word looked up and found to be one.
        let strangerWords: string[] | null = [];
        for (const term of group) {
          const found = await standsFor(term, vocabulary, budget, phrased.compounds.has(index));
          if (found?.stranger) strangerWords?.push(term.text.toLowerCase());
          else strangerWords = null;
          for (const alternative of found?.terms ?? []) {
            if (expanded.some(({ text: known }) => known === alternative.text)) continue;
            expanded.push(alternative);
            gained = true;
          }
        }
        if (strangerWords !== null && strangerWords.length > 0) strangers.push(strangerWords);
        groups.push(expanded);
      }
      const excluded = excludedAsSearched(text.excluded, vocabulary);
      return {
        query: gained ? { groups: await withThingsMarked(groups, vocabulary), excluded } : null,
        strangers,
        subject: await subjectOf(groups),
        ...(excluded === text.excluded ? {} : { excluded }),
        ...(phrased.typed === null ? {} : { typed: phrased.typed }),
      };
    },
    { prepare, readAlike, ownSpelling: (vocabulary: Vocabulary, word: string) => lookupsOf(vocabulary).ownSpelling(word) },
  );
}
