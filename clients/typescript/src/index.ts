import createClient from 'openapi-fetch';
import { toApiError } from './errors.js';
import { type PacingOptions, pacedFetch } from './paced-fetch.js';
import type { components, operations, paths } from './schema.js';

export { ApiError, QuotaExhausted } from './errors.js';
export type { PacingOptions } from './paced-fetch.js';
export type { components, paths } from './schema.js';

export type Wallpaper = components['schemas']['Wallpaper'];
export type WallpaperDetail = components['schemas']['WallpaperDetail'];
export type WallpaperListItem = components['schemas']['WallpaperListItem'];
export type ColorShare = components['schemas']['ColorShare'];
export type WallpaperList = components['schemas']['WallpaperList'];
export type ChangeItem = components['schemas']['ChangeItem'];
export type ChangeList = components['schemas']['ChangeList'];
type OneOrMany<T> = T | T[];
// The list filters take one value or several: `{ category: 'space' }` or `{ color: ['blue', '#1e3a5f'] }`.
type Lists<Q> = {
  [K in keyof Q]: NonNullable<Q[K]> extends (infer Item)[] ? OneOrMany<Item> : Q[K];
};
type RawListQuery = NonNullable<operations['listWallpapers']['parameters']['query']>;
type RawSearchQuery = NonNullable<operations['searchWallpapers']['parameters']['query']>;
type RawSimilarQuery = NonNullable<operations['getSimilarWallpapers']['parameters']['query']>;
export type SimilarQuery = Lists<RawSimilarQuery>;
export type ListQuery = Lists<RawListQuery>;
export type SearchQuery = Lists<RawSearchQuery>;
type RawChangesQuery = NonNullable<operations['listChanges']['parameters']['query']>;
export type ChangesQuery = Lists<RawChangesQuery>;

export interface FollowOptions extends Omit<ChangesQuery, 'cursor'> {
  /** Where to resume: a cursor `follow` yielded before; from the start of the feed without one. */
  cursor?: string;
  /** At the end of the feed, stop (true) or wait `pollMs` and ask again (default). */
  untilEnd?: boolean;
  pollMs?: number;
  signal?: AbortSignal;
}

/**
 * A change, and the cursor to resume from once it is applied: the next page's cursor after the
 * last change of a page; before that, the cursor that asked for its page (undefined for the feed's
 * first page), so a resume asks that page again and gets at most a page's changes twice, never
 * none of them. Applying a change again is harmless: the feed is at least once.
 */
export interface FollowedChange {
  change: ChangeItem;
  cursor: string | undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** The contract's comma-separated parameters (a unit test of the repository holds this to the contract). */
export const LIST_PARAMETERS: ReadonlySet<string> = new Set([
  'category',
  'resolution',
  'ratio',
  'tags',
  'exclude_tags',
  'exclude_ids',
  'color',
  'facets',
  'include',
  'ids',
]);

/**
 * One value becomes a list of one, as the contract's comma-separated parameters expect; a value
 * left undefined is left out, not sent as the text "undefined".
 */
function asLists<Raw>(query: object): Raw {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, LIST_PARAMETERS.has(name) && !Array.isArray(value) ? [value] : value]),
  ) as Raw;
}

export interface ClientOptions extends PacingOptions {
  /** Where the API is, e.g. https://api.example.com (no trailing /v1). */
  baseUrl: string;
  apiKey: string;
  /** The fetch to send with (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * The Wallpaper Catalogue API: typed from its OpenAPI document, paced by its rate-limit headers,
 * retrying GETs on 503 and network errors, surfacing `{error, message, status}` as ApiError.
 */
export function createWallpaperClient({ baseUrl, apiKey, fetch: base = globalThis.fetch, ...pacing }: ClientOptions) {
  const http = createClient<paths>({
    baseUrl,
    fetch: pacedFetch(base, pacing),
    headers: { Authorization: `Bearer ${apiKey}` },
    // Lists are sent as the API reads them: category=space,nature.
    querySerializer: { array: { style: 'form', explode: false } },
  });

  async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok || data === undefined) throw toApiError(response.status, error);
    return data;
  }

  const list = (query: ListQuery = {}) => unwrap(http.GET('/v1/wallpapers', { params: { query: asLists<RawListQuery>(query) } }));
  const search = (query: SearchQuery) => unwrap(http.GET('/v1/search', { params: { query: asLists<RawSearchQuery>(query) } }));

  /**
   * Every result from the first page to the last, following meta.next_cursor. A random order's
   * later pages need the seed of the walk: the one asked, or the one the API picked (meta.seed).
   */
  async function* walk<Q extends { page?: number; cursor?: string; seed?: string }>(
    query: Q,
    fetchPage: (q: Q) => Promise<WallpaperList>,
  ): AsyncGenerator<WallpaperListItem> {
    const { page: _page, cursor: _cursor, ...rest } = query;
    let cursor: string | null = null;
    let seed = query.seed;
    do {
      const next: WallpaperList = await fetchPage({ ...rest, ...(seed ? { seed } : {}), ...(cursor ? { cursor } : {}) } as Q);
      yield* next.data;
      seed ??= next.meta.seed;
      cursor = next.meta.next_cursor ?? null;
    } while (cursor);
  }

  const changesPage = (query: ChangesQuery = {}) => unwrap(http.GET('/v1/changes', { params: { query: asLists<RawChangesQuery>(query) } }));

  /** The change feed, page after page; at its end, polls (or stops with `untilEnd`). */
  async function* follow({ cursor, untilEnd = false, pollMs = 60_000, signal, ...query }: FollowOptions = {}): AsyncGenerator<FollowedChange> {
    while (!signal?.aborted) {
      const page: ChangeList = await changesPage({ ...query, ...(cursor ? { cursor } : {}) });
      const asked = cursor;
      cursor = page.meta.next_cursor;
      for (const [i, change] of page.data.entries()) yield { change, cursor: i === page.data.length - 1 ? cursor : asked };
      if (page.meta.has_more) continue;
      if (untilEnd) return;
      await sleep(pollMs, signal);
    }
  }

  return {
    wallpapers: {
      list,
      get: (id: number) => unwrap(http.GET('/v1/wallpapers/{id}', { params: { path: { id } } })),
      /** The wallpapers most like wallpaper `id`, best first: one page of `per_page` (at most 100). */
      similar: (id: number, query: SimilarQuery = {}) =>
        unwrap(http.GET('/v1/wallpapers/{id}/similar', { params: { path: { id }, query: asLists<RawSimilarQuery>(query) } })),
      /** `for await (const w of client.wallpapers.all({ category: 'space' }))` walks a whole listing. */
      all: (query: ListQuery = {}) => walk(query, list),
    },
    search: {
      query: search,
      all: (query: SearchQuery) => walk(query, search),
      suggest: (q: string, limit?: number) =>
        unwrap(http.GET('/v1/search/suggest', { params: { query: { q, ...(limit === undefined ? {} : { limit }) } } })),
    },
    changes: {
      /** One page of the feed: `{ data, meta: { next_cursor, has_more } }`. */
      page: changesPage,
      /** `for await (const { change, cursor } of client.changes.follow({ cursor: saved }))` keeps a copy in step. */
      follow,
    },
    usage: () => unwrap(http.GET('/v1/usage')),
    /** The underlying openapi-fetch client, for anything not wrapped here. */
    raw: http,
  };
}

export type WallpaperClient = ReturnType<typeof createWallpaperClient>;
