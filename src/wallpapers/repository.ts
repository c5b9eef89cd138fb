import type { Shared } from '../infra/shared.js';
import type { ListParams, SearchParams, SuggestParams } from './params.js';
import type { Wallpaper } from './wallpaper.js';

export interface Page {
  items: readonly Wallpaper[];
  total: number;
}

/** Titles completing what was typed, best first, without repeats. */
export interface Suggestions {
  texts: readonly string[];
}

/**
 * Where the HTTP edge reads wallpapers from. Results are shared between requests (coalesced
 * reads, cache hits), so they come frozen and marked as such; failures are domain errors
 * (errors.ts). Implemented on Elasticsearch (es-repository.ts), optionally behind the response
 * cache (cached-repository.ts), and in memory for the edge's own tests.
 */
export interface WallpaperRepository {
  list(params: ListParams): Promise<Shared<Page>>;
  search(params: SearchParams): Promise<Shared<Page>>;
  getById(id: number): Promise<Shared<Wallpaper> | null>;
  suggest(params: SuggestParams): Promise<Shared<Suggestions>>;
}
