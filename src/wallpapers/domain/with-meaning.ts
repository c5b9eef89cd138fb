import type { WallpaperRepository } from '../store/repository.js';
import type { SearchMeaning } from './search-meaning.js';

/** A repository whose searches also look for what the query means (SearchParams.meaning). */
export function withMeaning(repository: WallpaperRepository, meaning: SearchMeaning): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const expanded = await meaning.expand(params.text);
      return repository.search(expanded === null ? params : { ...params, meaning: expanded });
    },
  };
}
