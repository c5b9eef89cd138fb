import type { SearchParams } from '../params.js';
import type { Term } from '../search-query.js';
import { OFFER_WORDS, WALLPAPER_WORDS } from '../query-filler.js';
import type { WallpaperRepository } from '../store/repository.js';
import type { WordOccurrences } from './word-occurrences.js';

/**
 * A repository whose searches that only ask for wallpapers (SearchQuery.wallpapersAsked:
 * "wallpaper", "hd wallpapers", "4k-wallpaper") look only for those of their words asking for
 * wallpapers that occur in the catalogue: searched as typed, the others would find nothing, as no
 * wallpaper pictures a wallpaper. When none occurs, every wallpaper matches.
 * One that asks for a shape ("iphone wallpapers", "4k": query-filler.ts's shapeAsked) finds every
 * wallpaper of that shape. "hq" occurs: "hq-wallpaper" looks for hq, and "hq-screen", whose words
 * both occur, for both. Words of the offer ("free",
 * "download") are never looked for: "free download" matches every wallpaper. A word Elasticsearch
 * did not answer for counts as occurring, as elsewhere: a search is never changed by an error.
 */
export function withWallpapersAsked(repository: WallpaperRepository, occurrences: WordOccurrences): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      if (!params.text.wallpapersAsked) return repository.search(params);
      // A shape or sharpness asked ("iphone wallpapers", "4k") is what such a query wants: every
      // wallpaper, those of that shape first, or those at least that sharp, not those whose text
      // happens to say the word ("4k" had found the 525 described as sharp enough for a 4K monitor,
      // of 1,197 at least that sharp; helper-120).
      if (params.text.shape) return repository.search(everyWallpaper(params));
      const words = [...new Set(params.text.groups.flat().flatMap(({ text }) => text.toLowerCase().split(' ')))].filter((word) =>
        WALLPAPER_WORDS.has(word),
      );
      // Words of the offer ("free", "download") are absent whatever the catalogue says (query-filler.ts).
      const asked = words.filter((word) => !OFFER_WORDS.has(word));
      const answers = asked.length === 0 ? [] : await occurrences.of(asked);
      const absent = new Set([...words.filter((word) => OFFER_WORDS.has(word)), ...asked.filter((_, i) => answers[i] === false)]);
      if (absent.size === 0) return repository.search(params);
      if (absent.size === words.length) return repository.search(everyWallpaper(params));
      return repository.search({ ...params, text: { ...params.text, groups: withoutWords(params.text.groups, absent) } });
    },
  };
}

/** The groups without the words given: a term left without a word goes, and so does a group left without a term. */
function withoutWords(groups: readonly Term[][], absent: ReadonlySet<string>): Term[][] {
  return groups
    .map((group) =>
      group.flatMap((term) => {
        const text = term.text
          .split(' ')
          .filter((word) => !absent.has(word.toLowerCase()))
          .join(' ');
        return text === '' ? [] : [{ ...term, text }];
      }),
    )
    .filter((group) => group.length > 0);
}

/**
 * Every wallpaper, exclusions and filters applied. Every one scores alike unless tags or colours are
 * asked for, which relevance ranks; then its relevance is the downloads order, and read as that,
 * Elasticsearch skips by the field's points instead of scoring the whole catalogue (1M
 * wallpapers: 13 ms against 39). Every page of a walk decides alike, so its cursors agree. Should
 * the catalogue come to hold one of the words mid-walk, a walk read in the downloads order is
 * refused as expired (its cursor holds no score: build-queries.ts's continuesFrom); one ranked by
 * relevance goes on ranked by the words that now occur, as any relevance walk across an import.
 */
export function everyWallpaper(params: SearchParams): SearchParams {
  const { sort, tags, color } = params;
  // An orientation or a screen's ratios asked rank too (the upright first for "iphone wallpapers").
  const { orientation, ratios } = params.text.shape ?? {};
  const ranked = (tags?.length ?? 0) > 0 || (color?.length ?? 0) > 0 || orientation !== undefined || ratios !== undefined;
  return {
    ...params,
    text: { groups: [], excluded: params.text.excluded, every: true, ...(params.text.shape ? { shape: params.text.shape } : {}) },
    sort: (sort ?? 'relevance') === 'relevance' && !ranked ? 'downloads' : sort,
  };
}
