import createClient from 'openapi-fetch';
import { ApiError, toApiError } from './errors.js';
import { type PacingOptions, pacedFetch } from './paced-fetch.js';
import { sleepUnless } from './stoppable.js';
import type { components, operations, paths } from './schema.js';

export { ApiError, CursorExpired, QuotaExhausted } from './errors.js';
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
// An optional one may also be given as undefined (left out), also under exactOptionalPropertyTypes:
// `{ category: chosen }` with `chosen` possibly undefined had not compiled there (helper-110).
type Lists<Q> = {
  [K in keyof Q]: (NonNullable<Q[K]> extends (infer Item)[] ? OneOrMany<Item> : Q[K]) | (undefined extends Q[K] ? undefined : never);
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
  cursor?: string | undefined;
  /** At the end of the feed, stop (true) or wait `pollMs` and ask again (default). */
  untilEnd?: boolean | undefined;
  pollMs?: number | undefined;
  signal?: AbortSignal | undefined;
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

/** What every call takes beside its query. */
export interface CallOptions {
  /** Ends the call at once, waits and retries included, with the signal's reason. */
  signal?: AbortSignal;
}

export interface WalkOptions extends CallOptions {
  /** Sees each page as it comes, its meta with it: `meta.next_cursor` is where a walk stopped part way resumes. */
  onPage?: (page: WallpaperList) => void;
}

/** The page size of a walk from the start that names none: the API's largest. */
export const WALK_PAGE = 100;

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
 * left undefined or null is left out, in a list too, not sent as the text "undefined" or "null"
 * (`tags: null` had asked for wallpapers tagged "null": none). As the Python client does with None.
 */
function asLists<Raw>(query: object): Raw {
  const given = (value: unknown) => value !== undefined && value !== null;
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => given(value))
      .map(([name, value]): [string, unknown] => {
        if (!LIST_PARAMETERS.has(name)) return [name, value];
        return [name, (Array.isArray(value) ? value : [value]).filter(given)];
      })
      .filter(([name, value]) => !LIST_PARAMETERS.has(name) || (value as unknown[]).length > 0),
  ) as Raw;
}

/** A cursor that leads back to a page already read would be followed for ever. */
const looping = () => new ApiError(200, 'unexpected_response', 'The API went back to a page it had given before: the walk would never end');

/**
 * A page as a walk reads it: `data` a list of objects each with a wallpaper id (a positive whole
 * number), `meta` an object, the next cursor text or null.
 */
function checkedPage<P extends { data: unknown; meta: unknown }>(page: P, cursor: unknown): P {
  const items = Array.isArray(page.data) ? (page.data as unknown[]) : null;
  const wallpaperId = (item: unknown) => {
    const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
    return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1;
  };
  if (
    items === null ||
    !items.every(wallpaperId) ||
    typeof page.meta !== 'object' ||
    page.meta === null ||
    (cursor !== null && typeof cursor !== 'string')
  )
    throw new ApiError(200, 'unexpected_response', 'The answer is not a page of the API (data with wallpaper ids, meta and a next cursor)');
  return page;
}

// What a walk remembers to tell one that goes round, at most: a walk of millions holds a bounded
// memory; a cycle longer than this goes unseen, as a server inventing new ids would anyway.
const RECENT = 1000;

/**
 * What a walk has been given, to tell one that goes round from one that goes on: a cursor given
 * before and, in the change feed (`feed`), a page given before under another cursor (a server that
 * ignores what it does not read in a cursor) or empty pages that say there is more, a few in a row.
 * A feed's page is known by its changes' ids and times, each change its own; a list's page may
 * rightly hold an item again (an import mid-walk lowers the downloads of one served, and the keyset
 * walk meets it again), so a list's walk is judged by its cursors only.
 */
function repeats({ feed }: { feed: boolean }) {
  let cursors = new Set<string>();
  let pages = new Set<string>();
  let empty = 0;
  return (cursor: string, items: readonly { id?: unknown; at?: unknown }[]): boolean => {
    empty = items.length === 0 ? empty + 1 : 0;
    let repeated = cursors.has(cursor);
    if (feed) {
      const page = items.map(({ id, at }) => `${String(id)}@${String(at)}`).join(' ');
      repeated ||= (items.length > 0 && pages.has(page)) || empty >= 3;
      if (pages.size >= RECENT) pages = new Set();
      pages.add(page);
    }
    if (cursors.size >= RECENT) cursors = new Set();
    cursors.add(cursor);
    return repeated;
  };
}

/** A key goes into a header: one that cannot is refused here, without showing it in the message. */
function checkedKey(apiKey: string): string {
  if (!/^[\x21-\x7e]+$/.test(apiKey)) throw new TypeError('apiKey must be printable ASCII without spaces or line breaks (the key is not shown)');
  return apiKey;
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
    headers: { Authorization: `Bearer ${checkedKey(apiKey)}` },
    // Lists are sent as the API reads them: category=space,nature.
    querySerializer: { array: { style: 'form', explode: false } },
  });

  /**
   * One call: sent under a signal of its own that follows the caller's and is let go after it, so
   * a signal that lives long (a follower's, polling for days) does not gather a listener per request.
   * A 2xx whose body is not the API's JSON (a captive portal's page, a cut answer, `null`) is an
   * ApiError too, not a SyntaxError or null handed on as data.
   */
  async function unwrap<T>(
    signal: AbortSignal | undefined,
    send: (signal: AbortSignal | undefined) => Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    const own = signal ? new AbortController() : null;
    const follow = () => own?.abort(signal?.reason);
    if (signal?.aborted) follow();
    else signal?.addEventListener('abort', follow, { once: true });
    try {
      const { data, error, response } = await send(own?.signal).catch((err: unknown) => {
        if (err instanceof SyntaxError) throw new ApiError(200, 'unexpected_response', 'The answer is not the JSON the API sends');
        throw err;
      });
      if (!response.ok || data === undefined || data === null) throw toApiError(response.status, error);
      return data;
    } finally {
      signal?.removeEventListener('abort', follow);
    }
  }

  const list = (query: ListQuery = {}, { signal }: CallOptions = {}) =>
    unwrap(signal, (own) => http.GET('/v1/wallpapers', { params: { query: asLists<RawListQuery>(query) }, signal: own }));
  const search = (query: SearchQuery, { signal }: CallOptions = {}) =>
    unwrap(signal, (own) => http.GET('/v1/search', { params: { query: asLists<RawSearchQuery>(query) }, signal: own }));

  /**
   * Every result from the first page (or the `page` or `cursor` given: a walk resumed) to the last,
   * following meta.next_cursor. A random order's later pages are sent with the walk's seed, the
   * one asked or the one the API picked (meta.seed): the cursor carries it too, but an API
   * instance older than that asks for it.
   */
  async function* walk<Q extends { page?: number; cursor?: string; seed?: string; per_page?: number }>(
    query: Q,
    fetchPage: (q: Q, options: CallOptions) => Promise<WallpaperList>,
    { onPage, ...options }: WalkOptions,
  ): AsyncGenerator<WallpaperListItem> {
    const { page, cursor: from, ...rest } = query;
    // Where the walk starts, asked of its first page only: it had been dropped, so `page: 3`
    // walked from page 1 (helper-107).
    const start = { ...(page !== undefined ? { page } : {}), ...(from !== undefined ? { cursor: from } : {}) };
    // A walk from the start asks for pages of WALK_PAGE: each page is a request of the quota, and
    // the API's 20 had made a whole walk cost five times the requests (helper-147). A walk resumed
    // sends none: a cursor carries the page size it was issued for (an API older than that takes
    // its default, so pass the walk's `per_page` to it), and a page number counts pages of the API's.
    // Not with `ids`, which the API takes alone.
    const ofIds = 'ids' in rest && rest.ids !== undefined;
    const fresh = page === undefined && from === undefined && !ofIds;
    let size: { per_page?: number } = rest.per_page === undefined && fresh ? { per_page: WALK_PAGE } : {};
    let cursor: string | null = null;
    let seed = query.seed;
    const again = repeats({ feed: false });
    do {
      const fetched: WallpaperList = await fetchPage({ ...rest, ...size, ...(seed ? { seed } : {}), ...(cursor ? { cursor } : start) } as Q, options);
      const next = checkedPage(fetched, (fetched.meta as Partial<WallpaperList['meta']> | null)?.next_cursor ?? null);
      onPage?.(next);
      yield* next.data;
      seed ??= next.meta.seed;
      // A resumed walk's later pages name the size its first was served in, as the seed: an API
      // instance older than cursors that carry it takes the default otherwise, and refuses them.
      if (rest.per_page === undefined && size.per_page === undefined && !ofIds) size = { per_page: next.meta.per_page };
      cursor = next.meta.next_cursor ?? null;
      if (cursor && again(cursor, next.data)) throw looping();
    } while (cursor);
  }

  const changesPage = (query: ChangesQuery = {}, { signal }: CallOptions = {}) =>
    unwrap(signal, (own) => http.GET('/v1/changes', { params: { query: asLists<RawChangesQuery>(query) }, signal: own }));

  /** The change feed, page after page; at its end, polls (or stops with `untilEnd`). */
  async function* follow({ cursor, untilEnd = false, pollMs = 60_000, signal, ...query }: FollowOptions = {}): AsyncGenerator<FollowedChange> {
    // Pages with more after them: one given again leads back to a page read before. At the end of
    // the feed the same cursor comes back until a change comes: that is its tail.
    const again = repeats({ feed: true });
    while (!signal?.aborted) {
      // The signal stops the following: a page in flight is dropped, and the cursor kept before it still holds.
      let page: ChangeList;
      try {
        page = await changesPage({ ...query, ...(cursor ? { cursor } : {}) }, { signal });
      } catch (err) {
        if (signal?.aborted) return;
        throw err;
      }
      const asked = cursor;
      checkedPage(page, (page.meta as Partial<ChangeList['meta']> | null)?.next_cursor ?? undefined);
      cursor = page.meta.next_cursor;
      if (page.meta.has_more && (cursor === asked || again(cursor, page.data))) throw looping();
      for (const [i, change] of page.data.entries()) yield { change, cursor: i === page.data.length - 1 ? cursor : asked };
      if (page.meta.has_more) continue;
      if (untilEnd) return;
      await sleepUnless(pollMs, signal);
    }
  }

  return {
    wallpapers: {
      list,
      get: (id: number, { signal }: CallOptions = {}) =>
        unwrap(signal, (own) => http.GET('/v1/wallpapers/{id}', { params: { path: { id } }, signal: own })),
      /** The wallpapers most like wallpaper `id`, best first: one page of `per_page` (at most 100). */
      similar: (id: number, query: SimilarQuery = {}, { signal }: CallOptions = {}) =>
        unwrap(signal, (own) =>
          http.GET('/v1/wallpapers/{id}/similar', { params: { path: { id }, query: asLists<RawSimilarQuery>(query) }, signal: own }),
        ),
      /** `for await (const w of client.wallpapers.all({ category: 'space' }))` walks a whole listing. */
      all: (query: ListQuery = {}, options: WalkOptions = {}) => walk(query, list, options),
    },
    search: {
      query: search,
      all: (query: SearchQuery, options: WalkOptions = {}) => walk(query, search, options),
      suggest: (q: string, limit?: number, { signal }: CallOptions = {}) =>
        unwrap(signal, (own) => http.GET('/v1/search/suggest', { params: { query: { q, ...(limit === undefined ? {} : { limit }) } }, signal: own })),
    },
    changes: {
      /** One page of the feed: `{ data, meta: { next_cursor, has_more } }`. */
      page: changesPage,
      /** `for await (const { change, cursor } of client.changes.follow({ cursor: saved }))` keeps a copy in step. */
      follow,
    },
    usage: ({ signal }: CallOptions = {}) => unwrap(signal, (own) => http.GET('/v1/usage', { signal: own })),
    /** The underlying openapi-fetch client, for anything not wrapped here. */
    raw: http,
  };
}

export type WallpaperClient = ReturnType<typeof createWallpaperClient>;
