import { inTime } from '../../infra/in-time.js';
import { share } from '../../infra/shared-result.js';
import { typoWords, withWordsMeant } from '../store/build-queries.js';
import type { Page, WallpaperRepository } from '../store/repository.js';
import type { Mistyped, SearchParams } from '../params.js';
import type { SearchQuery } from '../search-query.js';
import { singularOf } from './query-meaning.js';
import type { SearchMeaning } from './search-meaning.js';
import type { WordOccurrences } from './word-occurrences.js';

// How much better the word meant must fit the query's other words than the word typed. Any better:
// the search's own reading waits for 0.2 (real-word-typos.ts), as there a wrong reading displaces
// results; a suggestion displaces nothing. The typos people make of things the catalogue lacks
// land at 0.01 to 0.16 ("cannon at sunset" canyon 0.01, "bedroom widow" window 0.15:
// bench/results/real-word-typos.md).
const SUGGESTION_MARGIN = 0.0001;
// What a suggestion's words can be (the contract's pattern): the parser folds Latin letters to
// these, and the catalogue's words are written so.
const SAID = /^[a-z0-9]+$/;
// A reading is counted with every group required in titles, which hold a few words: a longer query's
// reading finds none there, and counting it cost 1.2x a 200-character search (helper-89).
const MOST_GROUPS = 4;
// How long a page waits for its suggestion. Looking for one takes a few milliseconds (its count 1-3 ms,
// bench/results/corrections.md); a page does not wait out a stalled or swamped Elasticsearch's
// timeout (5 s) for a line of meta: past this it goes without, as when looking fails.
export const SUGGESTION_BUDGET_MS = 250;

/** What suggesting another reading asks of the language and the catalogue's words. */
export type SuggestionSense = Pick<SearchMeaning, 'knows' | 'misspelt' | 'ownWord' | 'namesThing' | 'expand'>;

/**
 * A repository whose searches suggest another reading ("did you mean") when a real word of the query
 * is one the catalogue holds nowhere: that word in place of one a single edit from it that fits the
 * query's other words better in meaning, that the catalogue names its things by (a word of its tags
 * or category names) and that names a thing ("cannon at sunset": canyon). Such a search finds
 * nothing (the word names a thing the catalogue lacks) or only wallpapers without that word, which
 * it left out ("tier in the snow": snowy wallpapers; tiger was meant). The answer stays what was asked:
 * helper-88 swept 660 searches for things the catalogue lacks ("cattle at night", "bride at night")
 * and most readings were other things (castle, bridge), which an answer replaced would have served
 * as if asked, to clients that walk results without reading meta. The suggestion is made when some
 * wallpapers have every group of the reading in their titles (what they are of, not what a
 * description happens to say), and says how many (bench/results/corrections.md). A word the
 * search itself already read as another (with-typos.ts, "dessert dunes") gets no suggestion when
 * its answer found something: that answer serves the reading.
 *
 * Only the first page of a search asks; a query of one group (nothing to weigh a word against) or
 * of more than MOST_GROUPS, a word in quotes, and a search whose words Elasticsearch did not say
 * occur get none; a page that found something gets none for a reading it shows first, or for a word
 * the search found catalogue words for (helper-89's review, bench/results/corrections.md). Most searches
 * hold every word somewhere and stop at the remembered answer of which words occur. A failure while
 * looking for a suggestion, or looking longer than SUGGESTION_BUDGET_MS, leaves the answer as it
 * was: an error never changes a search, and a slow suggestion never holds it up.
 */
export function withSuggestion(
  repository: WallpaperRepository,
  occurrences: WordOccurrences,
  sense: SuggestionSense,
  budgetMs = SUGGESTION_BUDGET_MS,
): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const page = await repository.search(params);
      const groups = params.text.groups.length;
      if (groups < 2 || groups > MOST_GROUPS || params.page !== 1 || params.position !== undefined) return page;
      const deadline = performance.now() + budgetMs;
      const suggestion = await inTime(
        suggest(params, page, deadline).catch(() => null),
        budgetMs,
        () => null,
      );
      return suggestion === null ? page : share({ ...page, suggestion });
    },
  };

  async function suggest(params: SearchParams, page: Page, deadline: number) {
    const found = page.total > 0;
    const words = typoWords(params.text).filter((word) => sense.knows(word) === true);
    if (words.length === 0) return null;
    const answers = await occurrences.of(words);
    if (answers.includes(null)) return null;
    const lacking = words.filter((_, i) => answers[i] === false);
    if (lacking.length === 0) return null;
    const weighed = await sense.misspelt(params.text, lacking, SUGGESTION_MARGIN);
    // A page that found something serves what the search read (the same weighing at its own margin,
    // remembered). One that found nothing did not: the word named a thing the catalogue lacks, which
    // the search answers with nothing, whatever it read ("cannon at sunset").
    const readBySearch = new Set(found ? (await sense.misspelt(params.text, lacking)).map(({ typed }) => typed) : []);
    // Nor was a word left out that the search found catalogue words for ("roof" rooftops, "ireland"
    // island): its page answers it, rightly or not, and another reading of it was wrong (helper-89).
    const understood = found ? await understoodOf(params.text, lacking) : new Set<string>();
    const said = new Set(params.text.groups.flatMap((group) => group.flatMap(({ text }) => text.split(' '))));
    const corrections: Mistyped[] = [];
    for (const mistyped of weighed) {
      const { typed, meant } = mistyped;
      // A word the query already says ("tier OR tiger in the snow") or another correction says
      // ("seal seat sunset", sea twice) is no reading of its own.
      if (readBySearch.has(typed) || understood.has(typed) || said.has(meant) || corrections.some((c) => c.meant === meant)) continue;
      if (await reads(mistyped)) corrections.push(mistyped);
    }
    if (corrections.length === 0) return null;
    // A page that found something may serve the reading already, through the typo it looks for in a
    // word that matches nothing ("fern volley": Fern Valley, 20 of 20): saying it again says nothing.
    if (found && page.items.length > 0 && corrections.every(({ meant }) => inTitle(page.items[0]!.title, meant))) return null;
    // Counted alone: the reading's first page is not asked for, nor its facets. Within what is left of
    // the budget: a count the page no longer waits for must not hold a request to Elasticsearch for
    // its whole timeout, which a stalled node had filled with such counts (helper-91).
    const left = Math.floor(deadline - performance.now());
    if (left <= 0) return null;
    const { facets: _facets, include: _include, ...asked } = params;
    const reading = withWordsMeant(params.text, corrections);
    const read = await repository.search({ ...asked, text: reading, whole: true, page: 1, per_page: 1, budgetMs: left });
    return read.total === 0 ? null : { corrections, total: read.total };
  }

  /** Of the words, those whose group the search also looked for in the catalogue's words (query-meaning.ts). */
  async function understoodOf(text: SearchQuery, words: readonly string[]): Promise<Set<string>> {
    const { query } = await sense.expand(text);
    if (query === null) return new Set();
    return new Set(
      words.filter((word) => {
        const at = text.groups.findIndex((group) => group.some((term) => term.text.split(' ').includes(word)));
        return at >= 0 && (query.groups[at]?.length ?? 0) > (text.groups[at]?.length ?? 0);
      }),
    );
  }

  /** Whether a word may be suggested for another: one the catalogue names a thing by ("lamb" is no street lamp, "moor" no mood). */
  async function reads({ typed, meant }: Mistyped): Promise<boolean> {
    return SAID.test(typed) && SAID.test(meant) && sense.ownWord(meant) === true && (await sense.namesThing(meant));
  }
}

/** Whether a title holds a word, in either number ("Fern Valleys" holds valley, "Rose Gold" roses). */
export function inTitle(title: string, word: string): boolean {
  const one = singularOf(word);
  return title
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .some((held) => held === word || singularOf(held) === one);
}
