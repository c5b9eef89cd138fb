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
  /** The catalogue's words (tags and categories), read again every refreshMs. */
  loadWords: () => Promise<string[]>;
  refreshMs: number;
  logger: Logger;
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

/**
 * Loads the sentence model and the catalogue's words once at start (searches wait for it, so the
 * first answers already mean the same as the later ones), then rereads the words in the
 * background. Without the model (not fetched, or failing to load), search keeps to the words typed
 * and the log says so once.
 */
export function createSearchMeaning({ modelDir, loadWords, refreshMs, logger, ...options }: SearchMeaningOptions): SearchMeaning {
  let known = new Map<string, Float32Array>();
  let model: SentenceModel | null = null;
  let vocabulary: Vocabulary | null = null;
  let expandQuery: ReturnType<typeof createQueryExpansion> | null = null;

  async function refresh(): Promise<void> {
    if (model === null) return;
    const started = performance.now();
    vocabulary = await buildVocabulary(model, await loadWords(), known);
    logger.info('search meaning: catalogue words ready', { words: vocabulary.entries.length, ms: Math.round(performance.now() - started) });
  }

  const ready = (async () => {
    try {
      model = await sharedModel(modelDir);
      known = wordVectors.get(model) ?? known;
      wordVectors.set(model, known);
      expandQuery = createQueryExpansion(model, options);
      await refresh();
    } catch (error) {
      logger.warn('search meaning is off: search matches the words typed only', {
        modelDir,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  })();

  const timer = setInterval(() => {
    refresh().catch((error: unknown) =>
      logger.warn('search meaning: the catalogue words could not be read again; keeping the last ones', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }, refreshMs);
  timer.unref();

  return {
    async expand(text) {
      await ready;
      return expandQuery !== null && vocabulary !== null ? expandQuery(text, vocabulary) : null;
    },
    // The model stays loaded for the process (it is shared); only the refresh stops.
    async close() {
      clearInterval(timer);
      await ready;
    },
  };
}
