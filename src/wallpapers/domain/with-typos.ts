import type { WallpaperRepository } from '../store/repository.js';
import { typoWords } from '../store/build-queries.js';
import type { WordOccurrences } from './word-occurrences.js';

/**
 * A repository whose searches look for a typo only in words that match no wallpaper as typed
 * (SearchParams.occurring). A word of the language that occurs is taken as meant; any other is
 * tried with a typo or two. A word Elasticsearch did not answer for is tried with them, as if it
 * did not occur: a search is never narrowed by an error.
 */
export function withTypos(
  repository: WallpaperRepository,
  occurrences: WordOccurrences,
  knows: (word: string) => boolean | undefined = () => undefined,
): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      // A word the language does not know is never taken as meant, even where the index's stemmer
      // reads it as one that occurs ("rainly" as rain, when "rainy" was meant): its typo is looked
      // for, unasked. Without WordNet, occurring is enough.
      const words = typoWords(params.text).filter((word) => knows(word) !== false);
      if (words.length === 0) return repository.search(params);
      const answers = await occurrences.of(words);
      const occurring = words.filter((_, i) => answers[i] === true);
      // A real word the catalogue lacks ("roof", "lost") is tried with a typo, but may well be meant:
      // a match of every group through its typo gets no tier of its own (store/build-queries.ts).
      const known = words.filter((word, i) => answers[i] !== true && knows(word) === true);
      return repository.search({ ...params, ...(occurring.length > 0 ? { occurring } : {}), ...(known.length > 0 ? { known } : {}) });
    },
  };
}
