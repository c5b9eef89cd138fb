import type { Logger } from '../../infra/logger.js';
import type { SearchQuery } from '../search-query.js';
import { type MeaningOptions, createQueryExpansion } from './query-meaning.js';
import { type SentenceModel, loadSentenceModel } from '../../infra/sentence-model.js';
import { type Vocabulary, buildVocabulary } from '../../infra/nearest-words.js';

export interface SearchMeaning {
  /** The query in the catalogue's words, or null when it gains none (or meaning is off). */
  expand(text: SearchQuery): Promise<SearchQuery | null>;
  close(): Promise<void>;
}

export interface SearchMeaningOptions extends MeaningOptions {
  modelDir: string;
  /** The catalogue's words (tags and categories), read again every refreshMs; given up on after timeoutMs. */
  loadWords: (timeoutMs?: number) => Promise<string[]>;
  refreshMs: number;
  logger: Logger;
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

export const noMeaning: SearchMeaning = { expand: () => Promise.resolve(null), close: () => Promise.resolve() };

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
  ...options
}: SearchMeaningOptions): SearchMeaning {
  let known = new Map<string, Float32Array>();
  let model: SentenceModel | null = null;
  let vocabulary: Vocabulary | null = null;
  let expandQuery: ReturnType<typeof createQueryExpansion> | null = null;
  let retry: NodeJS.Timeout | undefined;

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
    try {
      model = await sharedModel(modelDir);
      known = wordVectors.get(model) ?? known;
      wordVectors.set(model, known);
      expandQuery = createQueryExpansion(model, options);
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

  return {
    async expand(text) {
      await ready;
      return expandQuery !== null && vocabulary !== null ? expandQuery(text, vocabulary) : null;
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
