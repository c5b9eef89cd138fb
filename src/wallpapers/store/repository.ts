import type { Shared } from '../../infra/shared-result.js';
import type { Facet, ListParams, Mistyped, Position, SearchParams, SuggestParams } from '../params.js';
import type { CataloguedWallpaper } from '../catalogued.js';
import type { Wallpaper, WallpaperDetail } from '../wallpaper.js';
import type { ChangePosition, FeedPosition } from './change-log.js';

export interface FacetCount {
  value: string;
  count: number;
}

export interface Page {
  /** As kept: the edge shows the nine fields, or what `include` asks (toListItem). */
  items: readonly CataloguedWallpaper[];
  total: number;
  /** Where the page ends, for a cursor: absent when the page is empty. */
  last?: Position;
  /**
   * Whether matches lie past a full cursor page whose walk has served as many as `total` says,
   * looked up by reading on: wallpapers the walk served and that were deleted since leave the
   * count below what it served, and a deep walk goes by the count its cursor carries.
   */
  more?: boolean;
  /** Counts per value of each facet asked for. */
  facets?: Partial<Record<Facet, readonly FacetCount[]>>;
  /** A search of a word the catalogue holds nowhere: a reading of it with other words that finds some (domain/with-suggestion.ts). */
  suggestion?: Suggestion;
}

/** Words read in place of those typed, and how many wallpapers match every group of the query so read. */
export interface Suggestion {
  corrections: readonly Mistyped[];
  total: number;
}

/** The wallpapers of a list of ids, in the order asked, and the ids that do not exist. */
export interface Found {
  items: readonly Wallpaper[];
  missing: readonly number[];
}

/** Titles completing what was typed, best first, without repeats. */
export interface Suggestions {
  texts: readonly string[];
}

/** One change of the feed: a wallpaper as it now is, or gone. */
export type Change =
  { id: number; change: 'upsert'; at: string; wallpaper: CataloguedWallpaper } | { id: number; change: 'delete'; at: string; wallpaper?: undefined };

/** A page of the feed, and whether more changes follow it now. */
export interface ChangePage {
  items: readonly Change[];
  /** Where the page ends; absent when it is empty. */
  last?: ChangePosition;
  more: boolean;
  /**
   * The history it was read in: the record's, or the reader's own while the record's watermark
   * names none (a build before histories rewrote it); absent when neither has one.
   */
  history?: string;
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
  getById(id: number): Promise<Shared<WallpaperDetail> | null>;
  /** Distinct ids, at most 100, read in one call. */
  getByIds(ids: readonly number[]): Promise<Shared<Found>>;
  suggest(params: SuggestParams): Promise<Shared<Suggestions>>;
  /** The `perPage` wallpapers most like wallpaper `id`, best first (one page); null for an unknown id. */
  similar(id: number, perPage: number): Promise<Shared<Page> | null>;
  /**
   * Up to `perPage` changes after `after` (from the start when null), oldest first (see
   * change-log.ts); CursorExpired when `after` was read in a history the record no longer continues.
   */
  changes(after: FeedPosition | null, perPage: number): Promise<ChangePage>;
}
