import type { SearchParams } from '../params.js';
import { isSizesGroup, wordsBesideSizes } from '../search-query.js';
import type { WallpaperRepository } from '../store/repository.js';

/**
 * A repository whose searches with a size beside words that find nothing find the wallpapers of
 * that size. Beside words a size ranks what they find and finds nothing on its own
 * (build-queries.ts): `1920x1080 lake` is the lakes, not every wallpaper of that size. But the
 * words beside a size are often about the screen or the file rather than the picture, and the
 * catalogue holds none of them (`IMG_1920x1080.jpg`, `1920x1080 resolution`, `1920x1080 aspect ratio`,
 * `1920x1080 壁纸`): there the size is all the query asks, as a word is in `lake xyzzy`
 * (helper-169). Not when the search reads a thing the catalogue lacks (`1920x1080 unicorn`: nothing).
 *
 * Whether the words find nothing is asked of the whole catalogue, with no filter nor exclusion: a
 * filter that leaves them nothing leaves nothing (`1920x1080 lake&category=space`, as `lake` with
 * it), and so does hiding what they found (`exclude_ids`), where the size's wallpapers had come
 * instead and a facet's count had disagreed with the page its value gave (helper-170). A page with
 * wallpapers shows they find some; an empty one asks, with a count of one page.
 */
export function withSizesFound(repository: WallpaperRepository): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      if (params.nothing || params.whole || !wordsBesideSizes(params.text.groups)) return repository.search(params);
      const page = await repository.search(params);
      if (page.items.length > 0) return page;
      const { total } = await repository.search(wordsAnywhere(params));
      return total > 0 ? page : repository.search(sizesAlone(params));
    },
  };
}

/** The search of its words over the whole catalogue, exclusions, filters and order aside: a first page of one, for its count. */
function wordsAnywhere({ q, text, meaning, subject, occurring, known, meant, budgetMs }: SearchParams): SearchParams {
  return {
    q,
    text: { ...text, excluded: [] },
    page: 1,
    per_page: 1,
    ...(meaning ? { meaning: { ...meaning, excluded: [] } } : {}),
    ...(subject ? { subject } : {}),
    ...(occurring ? { occurring } : {}),
    ...(known ? { known } : {}),
    ...(meant ? { meant } : {}),
    ...(budgetMs !== undefined ? { budgetMs } : {}),
  };
}

/** The search of its sizes alone: their wallpapers, with its filters, exclusions and order. */
function sizesAlone(params: SearchParams): SearchParams {
  const { meaning: _meaning, subject: _subject, ...rest } = params;
  return { ...rest, text: { ...params.text, groups: params.text.groups.filter(isSizesGroup) } };
}
