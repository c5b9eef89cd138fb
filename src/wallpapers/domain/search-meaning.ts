import type { Logger } from '../../infra/logger.js';
import type { SearchQuery, Term } from '../search-query.js';
import { type IndexReading, type Language, type MeaningOptions, createQueryExpansion } from './query-meaning.js';
import { type EverydayWords, readEverydayWords } from './everyday-words.js';
import { type SentenceModel, loadSentenceModel } from '../../infra/sentence-model.js';
import { type Vocabulary, buildVocabulary, memoisedVectors } from '../../infra/nearest-words.js';
import { type WordClasses, loadWordClasses } from '../../infra/word-classes.js';
import { type AbsentThings, createAbsentThings } from './absent-things.js';
import type { WordOccurrences } from './word-occurrences.js';
import { type RealWordTypos, createRealWordTypos } from './real-word-typos.js';
import type { Mistyped } from '../params.js';
import { compoundsByWord, compoundsNotOf, withCompoundsApart } from './compounds-apart.js';

export interface MeaningOfQuery {
  /** The query in the catalogue's words, or null when it gains none (or meaning is off). */
  query: SearchQuery | null;
  /**
   * The catalogue cannot hold what the query asks for: some group of it names a pictured thing
   * that has no word of the catalogue's (its own, a misspelling of one, one near in meaning, one
   * people use for it) and occurs nowhere in its text either ("giraffe on the savanna", "pink
   * flamingo"); absent-things.ts.
   */
  nothing: boolean;
  /** What the query is of, when it says more (QueryMeaning.subject). */
  subject: Term[] | null;
  /** The exclusions as the search applies them, when they are more than those typed (QueryMeaning.excluded). */
  excluded?: Term[];
  /** The groups as typed, with the phrases people type for a catalogue word as phrases (QueryMeaning.typed). */
  typed?: Term[][];
}

export interface SearchMeaning {
  expand(text: SearchQuery): Promise<MeaningOfQuery>;
  /** Whether a word is one of the language's (WordNet's, inflections included); undefined before WordNet is read, or without it. */
  knows(word: string): boolean | undefined;
  /**
   * Of real words that no wallpaper matches as typed, those the query likely holds a typo of, with
   * the word meant (real-word-typos.ts: "dessert dunes", desert); none without the model or the
   * word occurrences. `margin`: how much better the word meant must fit the query's other words
   * (real-word-typos.ts's MISSPELT_MARGIN unless given).
   */
  misspelt(text: SearchQuery, words: readonly string[], margin?: number): Promise<Mistyped[]>;
  /**
   * Whether a word is one of the catalogue's own: a word of one of its tags ("reef" of "coral
   * reef") or category names, as the catalogue's words were last read; undefined before they are.
   */
  ownWord(word: string): boolean | undefined;
  /** Whether a word names a pictured thing (WordNet's: infra/word-classes.ts); false without WordNet. */
  namesThing(word: string): Promise<boolean>;
  /** Whether a word is a noun more than anything else (WordClasses.namesNoun); undefined before WordNet is read, or without it. */
  namesNoun(word: string, afterDeterminer?: boolean): boolean | undefined;
  /**
   * The catalogue's single words a word WordNet does not know may be a misspelling of, the closest
   * (an edit for 4 to 7 letters, two from 8: infra/spelling.ts); none for a word it knows, or before
   * the catalogue's words are read.
   */
  respelt(word: string): readonly string[];
  /** Settles once the model, WordNet and the catalogue's words are loaded, or given up on. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export interface SearchMeaningOptions extends MeaningOptions {
  modelDir: string;
  /** The catalogue's words (tags and categories), read again every refreshMs; given up on after timeoutMs. */
  loadWords: (timeoutMs?: number) => Promise<string[]>;
  /** How the index reads words (query-meaning.ts, IndexReading), read with the catalogue's words; without it, as if the stemmer read every word apart. */
  readAsIndexed?: IndexReading;
  refreshMs: number;
  logger: Logger;
  /**
   * Whether words occur (word-occurrences.ts, shared with the typo rule), asked of words that are
   * none of the catalogue's; without it, such words never empty a search.
   */
  occurrences?: WordOccurrences;
  /** What WordNet says of words (read once per process unless given): without it, no word empties a search. */
  wordClasses?: WordClasses;
  /** What people type for the catalogue's words: thesaurus/everyday-words.json unless given (tests). */
  everydayWords?: EverydayWords;
  /** FIRST_READ_MS and RETRY_MS unless given (tests). */
  firstReadMs?: number;
  retryMs?: number;
}

// What is read from disk once per process, whatever number of apps it builds (tests build many):
// the model per directory, and WordNet. A load that fails is tried again by the next app.
const loads = new Map<string, Promise<unknown>>();
const wordVectors = new WeakMap<SentenceModel, Map<string, Float32Array>>();

function oncePerProcess<T>(key: string, load: () => Promise<T>): Promise<T> {
  let loading = loads.get(key) as Promise<T> | undefined;
  if (loading === undefined) {
    loading = load();
    loading.catch(() => loads.delete(key));
    loads.set(key, loading);
  }
  return loading;
}
const sharedModel = (dir: string) => oncePerProcess(`model ${dir}`, () => loadSentenceModel(dir));
const sharedWordClasses = () => oncePerProcess('wordnet', () => loadWordClasses());

// The same array while the catalogue's words are not read: real-word-typos.ts keeps its memo while it is.
const NO_WORDS: readonly string[] = [];

const AS_TYPED: MeaningOfQuery = { query: null, nothing: false, subject: null };

export const noMeaning: SearchMeaning = {
  expand: () => Promise.resolve(AS_TYPED),
  knows: () => undefined,
  misspelt: () => Promise.resolve([]),
  ownWord: () => undefined,
  namesThing: () => Promise.resolve(false),
  namesNoun: () => undefined,
  respelt: () => NO_WORDS,
  ready: Promise.resolve(),
  close: () => Promise.resolve(),
};

// Searches wait for the model and the catalogue's words at start (normally 0.3 s and 0.4 s for 530
// words, all local but the read), so the first answers mean what later ones do. The read of the
// words is what could hang: at start it is given up on after this long, so an Elasticsearch that
// does not answer costs the first searches this much once, not a request timeout more (measured
// with Elasticsearch stopped: a first search took 9.6 s against the 5 s budget before this bound,
// 5.0 s after).
const FIRST_READ_MS = 1000;
// Words that could not be read at start are tried again this soon, not at the next refresh.
const RETRY_MS = 10_000;

/**
 * A read tried again until it answers, whose log says when it stops answering and when it answers
 * again, not at every try.
 */
function readOutage(logger: Logger, stopped: string, back: string, retryMs: number) {
  let down = false;
  return {
    get down() {
      return down;
    },
    failed(error: unknown) {
      if (!down) logger.warn(stopped, { error: error instanceof Error ? error.message : String(error), retryMs });
      down = true;
    },
    succeeded() {
      if (down) logger.info(back);
      down = false;
    },
  };
}

/**
 * Loads the sentence model and the catalogue's words at start, then rereads the words in the
 * background. Without the model (not fetched, or failing to load), search keeps to the words typed
 * and the log says so once; without the words (Elasticsearch not answering), until they are read.
 */
export function createSearchMeaning({
  modelDir,
  loadWords,
  readAsIndexed,
  refreshMs,
  logger,
  firstReadMs = FIRST_READ_MS,
  retryMs = RETRY_MS,
  everydayWords,
  occurrences,
  wordClasses: givenClasses,
  ...options
}: SearchMeaningOptions): SearchMeaning {
  let known = new Map<string, Float32Array>();
  let model: SentenceModel | null = null;
  let vocabulary: Vocabulary | null = null;
  let expandQuery: ReturnType<typeof createQueryExpansion> | null = null;
  let retry: NodeJS.Timeout | undefined;
  let absentThings: AbsentThings | null = null;
  let wordNet: WordClasses | null = null;
  let realWordTypos: RealWordTypos | null = null;

  // How the index reads words. When it cannot be asked: the last reading of the same words, or none
  // read as another, as the catalogue's words still serve (helper-141: a failed read had left search
  // with the words typed only); asked again RETRY_MS later, not at the next refresh (helper-143: a
  // slow first read had kept "fall" wrong for five minutes). The log says when reading stops and
  // when it comes back, not at every failed try.
  let lastReading: { words: string; read: readonly (string | undefined)[] } | undefined;
  const indexRead = readOutage(
    logger,
    'search meaning: how the index reads the thesaurus words could not be read; none is read as another word until it is',
    'search meaning: how the index reads the thesaurus words is read again',
    retryMs,
  );
  const readingOrNone: IndexReading | undefined =
    readAsIndexed &&
    ((words, timeoutMs) =>
      readAsIndexed(words, timeoutMs).then(
        (read) => {
          indexRead.succeeded();
          lastReading = { words: words.join('\n'), read };
          return read;
        },
        (error: unknown) => {
          indexRead.failed(error);
          return lastReading?.words === words.join('\n') ? lastReading.read : words.map(() => undefined);
        },
      ));

  // A refresh under way when the service closes arms no retry (helper-144).
  let closed = false;
  function retryLater(): void {
    if (retry !== undefined || closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      void refreshOrWarn(true);
    }, retryMs);
    retry.unref();
  }

  async function refresh(timeoutMs?: number): Promise<void> {
    if (model === null) return;
    const started = performance.now();
    const entries = await loadWords(timeoutMs);
    // One bound for what is asked of Elasticsearch: the words, then how the index reads them, asked
    // while the words' vectors are made.
    const left = timeoutMs === undefined ? undefined : Math.max(1, timeoutMs - (performance.now() - started));
    const reading = expandQuery?.readAlike(entries, left);
    const words = await buildVocabulary(model, entries, known);
    await expandQuery?.prepare(words, reading);
    // Said when the words change, not at every reread (a retry comes every RETRY_MS: helper-144).
    const changed = vocabulary === null || vocabulary.entries.join('\n') !== words.entries.join('\n');
    vocabulary = words;
    const fields = { words: vocabulary.entries.length, ms: Math.round(performance.now() - started) };
    if (changed) logger.info('search meaning: catalogue words ready', fields);
    else logger.debug('search meaning: catalogue words ready', fields);
    if (indexRead.down) retryLater();
  }

  // Said when reading the catalogue's words stops and when it comes back, not at every retry
  // (helper-145: every 10 s while Elasticsearch was down at start).
  const wordsRead = readOutage(
    logger,
    'search meaning: the catalogue words could not be read; searches match the words typed until they are',
    'search meaning: the catalogue words are read again',
    retryMs,
  );
  function refreshOrWarn(retryIfNone: boolean, timeoutMs?: number): Promise<void> {
    return refresh(timeoutMs).then(
      () => wordsRead.succeeded(),
      (error: unknown) => {
        wordsRead.failed(error);
        if (retryIfNone && vocabulary === null) retryLater();
      },
    );
  }

  const ready = (async () => {
    // Both read at once: about 0.3 s each.
    const readingClasses = givenClasses === undefined ? sharedWordClasses() : Promise.resolve(givenClasses);
    const loadingModel = sharedModel(modelDir);
    let language: Language | undefined;
    try {
      const classes = await readingClasses;
      language = classes;
      wordNet = classes;
      if (occurrences !== undefined) absentThings = createAbsentThings({ occurrences, namesThing: (word) => classes.namesThing(word) });
    } catch (error) {
      logger.warn('search meaning: WordNet could not be read; no word empties a search, and real words may be read as misspellings', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    try {
      model = await loadingModel;
      known = wordVectors.get(model) ?? known;
      wordVectors.set(model, known);
      expandQuery = createQueryExpansion(model, options, everydayWords ?? readEverydayWords(), language, readingOrNone);
      if (occurrences !== undefined) {
        const embedded = memoisedVectors(model);
        realWordTypos = createRealWordTypos({
          words: model.words,
          catalogueWords: () => vocabulary?.entries ?? NO_WORDS,
          // A catalogue word's vector is at hand; any other is embedded once, shared with meaning.
          vectorOf: (word) => {
            const known = vocabulary?.vectorOf(word);
            return known === undefined ? embedded(word) : Promise.resolve(known);
          },
          occurrences,
        });
      }
    } catch (error) {
      logger.warn('search meaning is off: search matches the words typed only', {
        modelDir,
        error: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    await refreshOrWarn(true, firstReadMs);
  })();
  const timer = setInterval(() => void refreshOrWarn(false), refreshMs);
  timer.unref();

  // The words of the catalogue's tags and category names, split as the vocabulary is reread.
  let ownWords: { of: Vocabulary; words: ReadonlySet<string> } | null = null;
  const ownWordsNow = (): ReadonlySet<string> | undefined => {
    if (vocabulary === null) return undefined;
    if (ownWords?.of !== vocabulary) ownWords = { of: vocabulary, words: new Set(vocabulary.entries.flatMap((entry) => entry.split(/[\s-]+/))) };
    return ownWords.words;
  };

  // The catalogue's compounds by the words they hold, as the vocabulary is reread.
  let compounds: { of: Vocabulary; byWord: ReadonlyMap<string, readonly string[]> } | null = null;
  const compoundsNow = (words: Vocabulary, classes: WordClasses) => {
    if (compounds?.of !== words) compounds = { of: words, byWord: compoundsByWord(words.entries, classes) };
    return compounds.byWord;
  };

  return {
    ready,
    knows: (word) => wordNet?.knows(word),
    ownWord: (word) => ownWordsNow()?.has(word),
    namesThing: async (word) => (wordNet === null ? false : wordNet.namesThing(word)),
    namesNoun: (word, afterDeterminer) => wordNet?.namesNoun(word, afterDeterminer),
    respelt: (word) =>
      vocabulary === null || expandQuery === null || wordNet === null || wordNet.knows(word) ? NO_WORDS : expandQuery.ownSpelling(vocabulary, word),
    async misspelt(text, words, margin) {
      if (words.length === 0) return [];
      await ready;
      return realWordTypos === null ? [] : realWordTypos(text, words, margin);
    },
    async expand(text) {
      await ready;
      const words = vocabulary;
      if (expandQuery === null || words === null) return AS_TYPED;
      const { strangers, ...meaning } = await expandQuery(text, words);
      const expanded = { ...meaning, nothing: absentThings !== null && (await absentThings(strangers, words)) };
      const classes = wordNet;
      if (classes === null) return expanded;
      const byWord = compoundsNow(words, classes);
      return withCompoundsApart(text, expanded, (word) => compoundsNotOf(word, byWord, classes));
    },
    // The model stays loaded for the process (it is shared); only the rereading stops. A load still
    // in flight is not waited for: it may be waiting on an Elasticsearch that does not answer.
    close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(retry);
      return Promise.resolve();
    },
  };
}
