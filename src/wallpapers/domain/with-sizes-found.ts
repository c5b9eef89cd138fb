import type { SearchParams } from '../params.js';
import { namesSizesOnly } from '../search-query.js';
import { wordsBesideSizes } from '../store/build-queries.js';
import type { WallpaperRepository } from '../store/repository.js';

/**
 * A repository whose searches with a size beside words that find nothing find the wallpapers of
 * that size. Beside words a size ranks what they find and finds nothing on its own
 * (build-queries.ts): `1920x1080 lake` is the lakes, not every wallpaper of that size. But the
 * words beside a size are often about the screen or the file rather than the picture, and the
 * catalogue holds none of them (`IMG_1920x1080.jpg`, `1920x1080 resolution`, `oppo 1080x2400`,
 * `1920x1080 壁纸`): there the size is all the query asks, as a word is in `lake xyzzy`
 * (helper-169). Not when the search reads a thing the catalogue lacks (`1920x1080 unicorn`: nothing).
 *
 * A page with wallpapers shows the words found some. An empty one is either past the last of what
 * they find or all of it: a page counted as empty says so, and otherwise (a cursor's page carries
 * its walk's count) a count of the search's first page does. So a walk of the size's wallpapers
 * asks that count on each page, and one of what the words find once, at its end.
 */
export function withSizesFound(repository: WallpaperRepository): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      if (params.nothing || params.whole || !wordsBesideSizes(params.text.groups)) return repository.search(params);
      const page = await repository.search(params);
      if (page.items.length > 0) return page;
      const found = page.total === 0 ? 0 : (await repository.search(firstPageCounted(params))).total;
      return found > 0 ? page : repository.search(sizesAlone(params));
    },
  };
}

/** The search's first page of one wallpaper, in its own order, for its count. */
function firstPageCounted(params: SearchParams): SearchParams {
  const { position: _position, facets: _facets, include: _include, sort: _sort, ...rest } = params;
  return { ...rest, page: 1, per_page: 1 };
}

/** The search of its sizes alone: their wallpapers, with its filters, exclusions and order. */
function sizesAlone(params: SearchParams): SearchParams {
  const { meaning: _meaning, subject: _subject, ...rest } = params;
  return { ...rest, text: { ...params.text, groups: params.text.groups.filter((group) => group.every(namesSizesOnly)) } };
}
