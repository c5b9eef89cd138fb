import type { WallpaperRepository } from '../store/repository.js';
import type { SearchMeaning } from './search-meaning.js';

/** A repository whose searches also look for what the query means (SearchParams.meaning). */
export function withMeaning(repository: WallpaperRepository, meaning: SearchMeaning): WallpaperRepository {
  return {
    ...repository,
    async search(params) {
      const { query, nothing, subject, excluded, typed } = await meaning.expand(params.text);
      return repository.search({
        ...params,
        text: { ...params.text, ...(typed === undefined ? {} : { groups: typed }), ...(excluded === undefined ? {} : { excluded }) },
        ...(query === null ? {} : { meaning: query }),
        ...(nothing ? { nothing } : {}),
        ...(subject === null ? {} : { subject }),
      });
    },
  };
}
