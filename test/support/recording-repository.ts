import type { SearchParams } from '../../src/wallpapers/params.js';
import type { WallpaperRepository } from '../../src/wallpapers/store/repository.js';

/** A repository that records the searches it is handed, and finds nothing. */
export function recordingRepository(): WallpaperRepository & { seen: SearchParams[] } {
  const seen: SearchParams[] = [];
  const repository = {
    search: (params: SearchParams) => {
      seen.push(params);
      return Promise.resolve({ items: [], total: 0 });
    },
  } as unknown as WallpaperRepository;
  return Object.assign(repository, { seen });
}
