import type { Logger } from '../../infra/logger.js';
import type { SearchQuery } from '../search-query.js';
import { type MeaningOptions, createQueryExpansion } from './query-meaning.js';
import { type EverydayWords, readEverydayWords } from './everyday-words.js';
import { type SentenceModel, loadSentenceModel } from '../../infra/sentence-model.js';
import { type Vocabulary, buildVocabulary } from '../../infra/nearest-words.js';
import { type WordClasses, loadWordClasses } from '../../infra/word-classes.js';

export interface MeaningOfQuery {
  /** The query in the catalogue's words, or null when it gains none (or meaning is off). */
  query: SearchQuery | null;
  /**
   * The catalogue cannot hold what the query asks for: some group of it has no word of the
   * catalogue's (its own, a misspelling of one, one near in meaning), and occurs nowhere in its
   * text either ("giraffe on the savanna", "pink flamingo").
   */
  nothing: boolean;
}

export interface SearchMeaning {
  expand(text: SearchQuery): Promise<MeaningOfQuery>;
  close(): Promise<void>;
}

/** Whether each word matches some wallpaper as a search would match it typed. */
export type WordsOccur = (words: readonly string[], timeoutMs: number) => Promise<boolean[]>;

export interface SearchMeaningOptions extends MeaningOptions {
  modelDir: string;
  /** The catalogue's words (tags and categories), read again every refreshMs; given up on after timeoutMs. */
  loadWords: (timeoutMs?: number) => Promise<string[]>;
  refreshMs: number;
  logger: Logger;
  /** Asked of words that are none of the catalogue's words; without it, such words never empty a search. */
  wordsOccur?: WordsOccur;
  /** How long a word found absent is believed: as long as a cached response may be (RESPONSE_CACHE_CHECK_MS). */
  absentMs?: number;
  /** What WordNet says of words (read once per process unless given): without it, no word empties a search. */
  wordClasses?: WordClasses;
  /** What people type for the catalogue's words: thesaurus/everyday-words.json unless given (tests). */
  everydayWords?: EverydayWords;
  /** FIRST_READ_MS and RETRY_MS unless given (tests). */
  firstReadMs?: number;
  retryMs?: number;
}

// One model per directory in a process, whatever number of apps it builds (tests build many).
const models = new Map<string, Promise<SentenceModel>>();
const wordVectors = new WeakMap<SentenceModel, Map<string, Float32Array>>();

function sharedModel(dir: string): Promise<SentenceModel> {
  let model = models.get(dir);
  if (model === undefined) {
    model = loadSentenceModel(dir);
    model.catch(() => models.delete(dir));
    models.set(dir, model);
  }
  return model;
}

const AS_TYPED: MeaningOfQuery = { query: null, nothing: false };
// One reading of WordNet per process, as for the model.
let sharedClasses: Promise<WordClasses> | null = null;
function sharedWordClasses(): Promise<WordClasses> {
  sharedClasses ??= loadWordClasses();
  sharedClasses.catch(() => (sharedClasses = null));
  return sharedClasses;
}

export const noMeaning: SearchMeaning = { expand: () => Promise.resolve(AS_TYPED), close: () => Promise.resolve() };

// Searches wait for the model and the catalogue's words at start (normally 0.3 s and 0.4 s for 530
// words, all local but the read), so the first answers mean what later ones do. The read of the
// words is what could hang: at start it is given up on after this long, so an Elasticsearch that
// does not answer costs the first searches this much once, not a request timeout more (measured
// with Elasticsearch stopped: a first search took 9.6 s against the 5 s budget before this bound,
// 5.0 s after).
const FIRST_READ_MS = 1000;
// Words that could not be read at start are tried again this soon, not at the next refresh.
const RETRY_MS = 10_000;
// Whether a word occurs is asked with a budget of its own, before the search and on top of its
// budget: a hung Elasticsearch costs a search with such a word this much more, once per word for
// absentMs, since a word not answered for is taken to occur for that long (later searches neither
// wait again nor change their answer page by page).
const OCCURS_TIMEOUT_MS = 200;
const OCCURS_MEMO = 10_000;

/**
 * Loads the sentence model and the catalogue's words at start, then rereads the words in the
 * background. Without the model (not fetched, or failing to load), search keeps to the words typed
 * and the log says so once; without the words (Elasticsearch not answering), until they are read.
 */
export function createSearchMeaning({
  modelDir,
  loadWords,
  refreshMs,
  logger,
  firstReadMs = FIRST_READ_MS,
  retryMs = RETRY_MS,
  everydayWords,
  wordsOccur,
  absentMs = 1000,
  wordClasses: givenClasses,
  ...options
}: SearchMeaningOptions): SearchMeaning {
  let known = new Map<string, Float32Array>();
  let model: SentenceModel | null = null;
  let vocabulary: Vocabulary | null = null;
  let expandQuery: ReturnType<typeof createQueryExpansion> | null = null;
  let retry: NodeJS.Timeout | undefined;
  let classes: WordClasses | null = null;

  async function refresh(timeoutMs?: number): Promise<void> {
    if (model === null) return;
    const started = performance.now();
    vocabulary = await buildVocabulary(model, await loadWords(timeoutMs), known);
    logger.info('search meaning: catalogue words ready', { words: vocabulary.entries.length, ms: Math.round(performance.now() - started) });
  }

  function refreshOrWarn(retryIfNone: boolean, timeoutMs?: number): Promise<void> {
    return refresh(timeoutMs).catch((error: unknown) => {
      logger.warn('search meaning: the catalogue words could not be read; searches match the words typed until they are', {
        error: error instanceof Error ? error.message : String(error),
      });
      if (retryIfNone && vocabulary === null) {
        retry = setTimeout(() => void refreshOrWarn(true), retryMs);
        retry.unref();
      }
    });
  }

  const ready = (async () => {
    // Both read at once: about 0.3 s each.
    const readingClasses = givenClasses === undefined ? sharedWordClasses() : Promise.resolve(givenClasses);
    const loadingModel = sharedModel(modelDir);
    try {
      classes = await readingClasses;
    } catch (error) {
      logger.warn('search meaning: WordNet could not be read; no word empties a search, and real words may be read as misspellings', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    try {
      model = await loadingModel;
      known = wordVectors.get(model) ?? known;
      wordVectors.set(model, known);
      const dictionary = classes;
      expandQuery = createQueryExpansion(
        model,
        options,
        everydayWords ?? readEverydayWords(),
        dictionary === null ? undefined : (word) => dictionary.knows(word),
      );
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

  // Words found to occur, per set of catalogue words: a word that occurred still does after an
  // import in all but rare cases, and then the search only goes on as it did before this rule. Any
  // other answer stands for absentMs only (as long as a cached response does): an import or a
  // reindex may bring the word, and from then on searches must find it.
  const occurring = new WeakMap<Vocabulary, Set<string>>();
  const settled = new Map<string, { absent: boolean; until: number }>();
  // Questions in flight, per word: searches asking at once share one answer.
  const asking = new Map<string, Promise<boolean>>();

  function occurringIn(words: Vocabulary): Set<string> {
    const found = occurring.get(words) ?? new Set<string>();
    occurring.set(words, found);
    return found;
  }

  /** Whether a word is known to be absent (true), to occur (false), or not known now (undefined). */
  function answerFor(word: string, words: Vocabulary): boolean | undefined {
    if (occurringIn(words).has(word)) return false;
    const answer = settled.get(word);
    return answer !== undefined && answer.until > Date.now() ? answer.absent : undefined;
  }

  /** Asks Elasticsearch about words in one request; a failure or a timeout counts as occurring. */
  function ask(batch: readonly string[], words: Vocabulary, occur: WordsOccur): void {
    const answered = occur(batch, OCCURS_TIMEOUT_MS).catch(() => batch.map(() => null));
    batch.forEach((word, i) => {
      const absent = answered.then((answers) => {
        const occurs = answers[i];
        const found = occurringIn(words);
        if (occurs === true) {
          if (found.size >= OCCURS_MEMO) found.clear();
          found.add(word);
        } else {
          if (settled.size >= OCCURS_MEMO) settled.clear();
          settled.set(word, { absent: occurs === false, until: Date.now() + absentMs });
        }
        asking.delete(word);
        return occurs === false;
      });
      asking.set(word, absent);
    });
  }

  /**
   * Whether some group of strangers names a thing the catalogue holds nowhere. Only words that
   * name a pictured thing count (WordNet's nouns of animals, plants, made things, places…): a word
   * that describes ("beautiful sunset"), an abstract one ("sunset vibes") or one WordNet does not
   * know ("sunset 2024", "bosque") leaves the search to the others; a thing the catalogue does not
   * hold ("giraffe", "pink flamingo") means it has nothing to show.
   */
  async function absent(strangers: string[][], words: Vocabulary): Promise<boolean> {
    const dictionary = classes;
    const occur = wordsOccur;
    if (strangers.length === 0 || dictionary === null || occur === undefined) return false;
    const things: string[][] = [];
    for (const group of strangers) if ((await Promise.all(group.map((word) => dictionary.namesThing(word)))).every(Boolean)) things.push(group);
    if (things.length === 0) return false;
    const unique = [...new Set(things.flat())];
    const toAsk = unique.filter((word) => answerFor(word, words) === undefined && !asking.has(word));
    if (toAsk.length > 0) ask(toAsk, words, occur);
    const absentWords = new Set<string>();
    for (const word of unique) if (answerFor(word, words) ?? (await asking.get(word)) ?? false) absentWords.add(word);
    return things.some((group) => group.every((word) => absentWords.has(word)));
  }

  return {
    async expand(text) {
      await ready;
      const words = vocabulary;
      if (expandQuery === null || words === null) return AS_TYPED;
      const { query, strangers } = await expandQuery(text, words);
      return { query, nothing: await absent(strangers, words) };
    },
    // The model stays loaded for the process (it is shared); only the rereading stops. A load still
    // in flight is not waited for: it may be waiting on an Elasticsearch that does not answer.
    close() {
      clearInterval(timer);
      clearTimeout(retry);
      return Promise.resolve();
    },
  };
}
