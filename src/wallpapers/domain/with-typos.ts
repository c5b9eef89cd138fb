import type { WallpaperRepository } from '../store/repository.js';
import { typoWords } from '../store/build-queries.js';
import type { SearchMeaning } from './search-meaning.js';
import type { WordOccurrences } from './word-occurrences.js';

/**
 * What the typo rule asks of the language: whether a word is one, and whether a real one was
 * mistyped; `ready`, when given, settles once `knows` can say (it answers undefined before).
 */
export type WordSense = Pick<SearchMeaning, 'knows' | 'misspelt'> & Partial<Pick<SearchMeaning, 'ready'>>;

const NO_SENSE: WordSense = { knows: () => undefined, misspelt: () => Promise.resolve([]) };

/**
 * A repository whose searches look for a typo only in words that match no wallpaper as typed
 * (SearchParams.occurring). A word of the language that occurs is taken as meant; any other is
 * tried with a typo or two. A word Elasticsearch did not answer for is tried with them, as if it
 * did not occur: a search is never narrowed by an error.
 */
export function withTypos(repository: WallpaperRepository, occurrences: WordOccurrences, sense: WordSense = NO_SENSE): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      // The first searches after start wait for the language, as those that read meaning do: asked
      // before, `knows` said nothing of "tier", which was then looked for as a typo of tiger, and the
      // first answer to "tier in the snow" differed from every later one.
      await sense.ready;
      // A word the language does not know is never taken as meant, even where the index's stemmer
      // reads it as one that occurs ("rainly" as rain, when "rainy" was meant): its typo is looked
      // for, unasked. Without WordNet, occurring is enough.
      const words = typoWords(params.text).filter((word) => sense.knows(word) !== false);
      if (words.length === 0) return repository.search(params);
      const answers = await occurrences.of(words);
      const occurring = words.filter((_, i) => answers[i] === true);
      // A real word the catalogue lacks ("roof", "lost") is tried with a typo, but may well be meant:
      // a match of every group through its typo gets no tier of its own (store/build-queries.ts),
      // unless the other words say which word was meant ("dessert dunes": real-word-typos.ts). An
      // Elasticsearch that did not answer whether words occur is not asked about their neighbours.
      const known = words.filter((word, i) => answers[i] !== true && sense.knows(word) === true);
      const meant = known.length > 0 && !answers.includes(null) ? await sense.misspelt(params.text, known) : [];
      return repository.search({
        ...params,
        ...(occurring.length > 0 ? { occurring } : {}),
        ...(known.length > 0 ? { known } : {}),
        ...(meant.length > 0 ? { meant } : {}),
      });
    },
  };
}
