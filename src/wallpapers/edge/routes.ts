import type Router from '@koa/router';
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { compileParams } from '../../http/query-validator.js';
import { createRouter } from '../../http/router.js';
import { invalidRequest, notFound } from '../../http/http-error.js';
import { type Shared, isShared, share } from '../../infra/shared-result.js';
import { parametersSchema } from '../../openapi/parameters.js';
import { type CursorCodec, queryDigest } from './cursor.js';
import type { IdParams, ListParams, Paging, SearchParams, SuggestParams } from '../params.js';
import { type PreparedQuery, createPreparedQueries } from './prepared-queries.js';
import type { Found, Page, WallpaperRepository } from '../store/repository.js';
import { parseSearchQuery, searchableGroups } from '../search-query.js';

type ListQuery = ListParams & { cursor?: string; ids?: number[] };
type SearchQuery = SearchParams & { cursor?: string };

// Validators compiled once from the OpenAPI document: defaults and bounds live there.
const parseList = compileParams<ListQuery>(parametersSchema('/v1/wallpapers', 'get', 'query'));
const parseSearch = compileParams<SearchQuery>(parametersSchema('/v1/search', 'get', 'query'));
const parseId = compileParams<IdParams>(parametersSchema('/v1/wallpapers/{id}', 'get', 'path'), 'path');
const parseSuggest = compileParams<SuggestParams>(parametersSchema('/v1/search/suggest', 'get', 'query'));

const HAS_WORD = /[\p{L}\p{N}]/u;
const SEED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Elasticsearch serves at most `maxResultWindow` hits past `from`; deeper pages are refused up front. */
export function exceedsResultWindow({ page, per_page }: Paging, maxResultWindow: number): boolean {
  return page * per_page > maxResultWindow;
}

export interface WallpaperRoutesOptions {
  repository: WallpaperRepository;
  maxResultWindow: number;
  cursors: CursorCodec;
}

function assertWithinWindow(paging: Paging, maxResultWindow: number): void {
  if (exceedsResultWindow(paging, maxResultWindow)) {
    throw invalidRequest(
      `Invalid query parameter 'page': page × per_page must not exceed ${maxResultWindow} ` +
        `(got page ${paging.page} × per_page ${paging.per_page}); continue with meta.next_cursor instead`,
    );
  }
}

/** A seed for sort=random when the client gave none: 12 characters of the seed parameter's alphabet. */
function pickSeed(): string {
  return [...randomBytes(12)].map((byte) => SEED_ALPHABET[byte % SEED_ALPHABET.length]).join('');
}

interface Meta {
  current_page: number;
  per_page: number;
  total_items: number;
  total_pages: number;
  next_cursor: string | null;
  seed?: string;
  facets?: Page['facets'];
  missing?: readonly number[];
}

interface Envelope {
  data: Page['items'];
  meta: Meta;
}

/** One page request after validation: what the repository is asked, and what its meta reports. */
interface PageRequest<P extends ListParams> {
  params: P;
  currentPage: number;
  digest: string;
  /** The seed the API picked, which the next page's link must carry. */
  pickedSeed?: string;
}

// A shared page is answered to every request with the same parameters: its envelope is built
// and shared once, so the serialized form is kept with it too (see conditionalGet). Requests
// whose queries differ only in spelling can share a page, so envelopes are kept per query.
const sharedEnvelopes = new WeakMap<Shared<Page>, Map<string, Shared<Envelope>>>();

function envelope(result: Shared<Page>, request: PageRequest<ListParams>, cursors: CursorCodec): Envelope {
  const key = `${request.digest} ${request.currentPage}`;
  const known = sharedEnvelopes.get(result)?.get(key);
  if (known) return known;
  const { items, total, last, facets } = result;
  const { per_page, seed } = request.params;
  const served = (request.currentPage - 1) * per_page + items.length;
  const next =
    last && items.length === per_page && served < total
      ? cursors.encode({ position: { ...last, total }, page: request.currentPage + 1, query: request.digest })
      : null;
  const built: Envelope = {
    data: items,
    meta: {
      current_page: request.currentPage,
      per_page,
      total_items: total,
      total_pages: Math.ceil(total / per_page),
      next_cursor: next,
      ...(request.params.sort === 'random' && seed !== undefined ? { seed } : {}),
      ...(facets ? { facets } : {}),
    },
  };
  if (!isShared(result)) return built;
  const shared = share(built);
  const forResult = sharedEnvelopes.get(result) ?? new Map<string, Shared<Envelope>>();
  forResult.set(key, shared);
  sharedEnvelopes.set(result, forResult);
  return shared;
}

/**
 * The next page's parameters but its cursor: this request's parameters as the client spelled them,
 * less `page` and `cursor`, plus the seed the API picked.
 */
function nextLinkQuery(querystring: string, pickedSeed: string | undefined): string {
  const query = new URLSearchParams(querystring);
  query.delete('page');
  query.delete('cursor');
  if (pickedSeed !== undefined) query.set('seed', pickedSeed);
  return query.toString();
}

/** The next page's address, path-absolute so a forged Host header never reaches it. */
function setNextLink(ctx: Context, body: Envelope, linkQuery: string): void {
  const cursor = body.meta.next_cursor;
  if (cursor === null) return;
  // A cursor is base64url and a dot: nothing in it needs escaping in a query.
  ctx.set('Link', `<${ctx.path}?${linkQuery}${linkQuery === '' ? '' : '&'}cursor=${cursor}>; rel="next"`);
}

// The prepared-query memo of each route (see createPreparedQueries). Only first pages without a
// picked seed are kept, so a cursor walk never crowds out the hot queries.
const PREPARED = { maxEntries: 1000, maxQueryLength: 1024, admitWhenFull: 1 / 16 } as const;

type Prepared = PreparedQuery<PageRequest<ListParams>>;

/**
 * The rules between parameters that a schema of independent parameters cannot say, then the
 * cursor: checked, bound to the query it was issued for, and turned into a position.
 */
function preparePage<P extends ListParams & { cursor?: string }>(
  route: string,
  raw: Record<string, unknown>,
  parsed: P,
  { cursors, maxResultWindow }: Pick<WallpaperRoutesOptions, 'cursors' | 'maxResultWindow'>,
): PageRequest<Omit<P, 'cursor'>> {
  const { cursor, ...params } = parsed;
  if (params.seed !== undefined && params.sort !== 'random') {
    throw invalidRequest("Invalid query parameter 'seed': only with sort=random");
  }
  let pickedSeed: string | undefined;
  if (params.sort === 'random' && params.seed === undefined) {
    if (cursor !== undefined)
      throw invalidRequest("Invalid query parameter 'seed': a cursor of sort=random needs the seed of its walk (the Link header has it)");
    pickedSeed = pickSeed();
    params.seed = pickedSeed;
  }
  const digest = queryDigest(route, params);
  if (cursor === undefined) {
    assertWithinWindow(params, maxResultWindow);
    return { params, currentPage: params.page, digest, pickedSeed };
  }
  if (raw['page'] !== undefined) {
    throw invalidRequest("Invalid query parameter 'page': cannot be combined with 'cursor', which already says which page comes next");
  }
  const state = cursors.decode(cursor);
  if (state.query !== digest) {
    throw invalidRequest(
      "Invalid query parameter 'cursor': it belongs to a different query; send it with the same parameters as the page it came from (its Link header has them), or start again without a cursor",
    );
  }
  const depth = (state.page - 1) * params.per_page;
  return { params: { ...params, position: { ...state.position, depth } }, currentPage: state.page, digest };
}

function foundEnvelope({ items, missing }: Found, asked: number): Envelope {
  return {
    data: items,
    meta: { current_page: 1, per_page: asked, total_items: items.length, total_pages: 1, next_cursor: null, missing },
  };
}

export function wallpaperRoutes({ repository, maxResultWindow, cursors }: WallpaperRoutesOptions): Router {
  const router = createRouter();

  // Catalogue pages change only when the catalogue is reloaded; a minute of private caching is safe.
  router.use(async (ctx, next) => {
    await next();
    if (ctx.status === 200) {
      ctx.set('Cache-Control', 'private, max-age=60');
      ctx.vary('Authorization');
    }
  });

  const listPrepared = createPreparedQueries<PageRequest<ListParams>>(PREPARED);
  const searchPrepared = createPreparedQueries<PageRequest<ListParams>>(PREPARED);

  function prepare(known: typeof listPrepared, route: 'list' | 'search', ctx: Context, parsed: ListQuery | SearchQuery): Prepared {
    const request = preparePage(route, ctx.query, parsed, { cursors, maxResultWindow });
    const prepared = { request, linkQuery: nextLinkQuery(ctx.querystring, request.pickedSeed) };
    if (parsed.cursor === undefined && request.pickedSeed === undefined) known.keep(ctx.querystring, prepared);
    return prepared;
  }

  async function servePage<P extends ListParams>(ctx: Context, { request, linkQuery }: Prepared, load: (params: P) => Promise<Shared<Page>>) {
    const body = envelope(await load(request.params as P), request, cursors);
    setNextLink(ctx, body, linkQuery);
    ctx.body = body;
  }

  router.get('/wallpapers', async (ctx) => {
    const known = listPrepared.get(ctx.querystring);
    if (known) return servePage(ctx, known, (params: ListParams) => repository.list(params));
    const parsed = parseList(ctx.query);
    if (parsed.ids !== undefined) {
      const others = Object.keys(ctx.query).filter((name) => name !== 'ids');
      if (others.length > 0)
        throw invalidRequest(`Invalid query parameter 'ids': cannot be combined with other parameters (got ${others.join(', ')})`);
      const ids = [...new Set(parsed.ids)];
      ctx.body = foundEnvelope(await repository.getByIds(ids), ids.length);
      return;
    }
    return servePage(ctx, prepare(listPrepared, 'list', ctx, parsed), (params: ListParams) => repository.list(params));
  });

  router.get('/wallpapers/:id', async (ctx) => {
    const { id } = parseId({ id: ctx.params['id'] });
    const wallpaper = await repository.getById(id);
    if (!wallpaper) throw notFound(`Wallpaper ${id} not found`);
    ctx.body = wallpaper;
  });

  router.get('/search', async (ctx) => {
    const known = searchPrepared.get(ctx.querystring);
    if (known) return servePage(ctx, known, (params: SearchParams) => repository.search(params));
    const parsed = parseSearch(ctx.query);
    if (searchableGroups(parseSearchQuery(parsed.q)).length === 0) {
      throw invalidRequest(
        "Invalid query parameter 'q': must contain a word to search for; only excluded words, operators (OR, -, quotes) or common words such as 'the' were given",
      );
    }
    return servePage(ctx, prepare(searchPrepared, 'search', ctx, parsed), (params: SearchParams) => repository.search(params));
  });

  router.get('/search/suggest', async (ctx) => {
    const params = parseSuggest(ctx.query);
    if (!HAS_WORD.test(params.q)) throw invalidRequest("Invalid query parameter 'q': must contain at least one letter or digit");
    const { texts } = await repository.suggest(params);
    ctx.body = suggestions(texts, params);
  });

  return router;
}

interface SuggestionList {
  data: { text: string }[];
  meta: { q: string; limit: number };
}

function suggestions(texts: readonly string[], { q, limit }: SuggestParams): SuggestionList {
  return { data: texts.map((text) => ({ text })), meta: { q, limit } };
}
