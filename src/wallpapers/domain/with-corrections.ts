import { share } from '../../infra/shared-result.js';
import { typoWords, withWordsMeant } from '../store/build-queries.js';
import type { WallpaperRepository } from '../store/repository.js';
import type { SearchMeaning } from './search-meaning.js';
import type { WordOccurrences } from './word-occurrences.js';

// How much better the word meant must fit the query's other words than the word typed, for a search
// that found nothing as typed. Any better: the search's own reading waits for 0.2 (real-word-typos.ts),
// as there a wrong reading would displace results, here it only fills an empty page and says so.
// The typos people make of things the catalogue lacks land at 0.01 to 0.16 ("cannon at sunset"
// canyon, "ford in iceland" fjord, "bedroom widow" window: bench/results/corrections.md).
const CORRECTION_MARGIN = 0.0001;
// What meta.corrections says a word can be (the contract's pattern): the parser folds Latin letters
// to these, and the catalogue's words are written so.
const SAID = /^[a-z0-9]+$/;

/** What reading a search again asks of the language and the catalogue's words. */
export type CorrectionSense = Pick<SearchMeaning, 'knows' | 'misspelt' | 'ownWord'>;

/**
 * A repository whose searches that find nothing as typed are read again with each real word the
 * catalogue lacks in place of the word one typo from it that occurs and fits the query's other
 * words better ("cannon at sunset": canyon), and answered with what that finds, saying so
 * (Page.corrections), as a search engine shows results for what it believes was meant. A query of
 * one group has nothing to weigh a word against, and stays as typed; so does a search whose
 * reading finds nothing too. Only empty searches pay for it: a page that found something is
 * answered as it came.
 */
export function withCorrections(repository: WallpaperRepository, occurrences: WordOccurrences, sense: CorrectionSense): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const page = await repository.search(params);
      if (page.total > 0 || params.text.groups.length < 2) return page;
      const words = typoWords(params.text).filter((word) => sense.knows(word) === true);
      if (words.length === 0) return page;
      const answers = await occurrences.of(words);
      // An Elasticsearch that did not say whether a word occurs is not read around: an error never
      // changes a search.
      if (answers.includes(null)) return page;
      const lacking = words.filter((_, i) => answers[i] === false);
      const weighed = lacking.length === 0 ? [] : await sense.misspelt(params.text, lacking, CORRECTION_MARGIN);
      // A word the catalogue names things by, not one its descriptions happen to hold: "lamb in the
      // meadow" was read as the street lamps of car scenes, "steak on slate" as steaming ramen.
      const meant = weighed.filter(({ typed, meant: word }) => sense.ownWord(word) === true && SAID.test(typed) && SAID.test(word));
      if (meant.length === 0) return page;
      // Answered with the wallpapers matching every group of the reading: one that only some words
      // find says nothing of what was meant ("frog in the rain" read as fog found the rain alone).
      const read = await repository.search({ ...params, text: withWordsMeant(params.text, meant), whole: true });
      return read.total === 0 ? page : share({ ...read, corrections: meant });
    },
  };
}
