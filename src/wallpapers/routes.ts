import type Router from '@koa/router';
import { compileParams } from '../http/query-validator.js';
import { createRouter } from '../http/router.js';
import { invalidRequest, notFound } from '../http/http-error.js';
import { type Shared, isShared, share } from '../infra/shared.js';
import { parametersSchema } from '../openapi/parameters.js';
import type { IdParams, ListParams, Paging, SearchParams, SuggestParams } from './params.js';
import type { Page, WallpaperRepository } from './repository.js';
import { parseSearchQuery, searchableGroups } from './search-query.js';

// Validators compiled once from the OpenAPI document: defaults and bounds live there.
const parseList = compileParams<ListParams>(parametersSchema('/v1/wallpapers', 'get', 'query'));
const parseSearch = compileParams<SearchParams>(parametersSchema('/v1/search', 'get', 'query'));
const parseId = compileParams<IdParams>(parametersSchema('/v1/wallpapers/{id}', 'get', 'path'), 'path');
const parseSuggest = compileParams<SuggestParams>(parametersSchema('/v1/search/suggest', 'get', 'query'));

const HAS_WORD = /[\p{L}\p{N}]/u;

/** Elasticsearch serves at most `maxResultWindow` hits past `from`; deeper pages are refused up front. */
export function exceedsResultWindow({ page, per_page }: Paging, maxResultWindow: number): boolean {
  return page * per_page > maxResultWindow;
}

export interface WallpaperRoutesOptions {
  repository: WallpaperRepository;
  maxResultWindow: number;
}

function assertWithinWindow(paging: Paging, maxResultWindow: number): void {
  if (exceedsResultWindow(paging, maxResultWindow)) {
    throw invalidRequest(
      `Invalid query parameter 'page': page × per_page must not exceed ${maxResultWindow} ` +
        `(got page ${paging.page} × per_page ${paging.per_page}); narrow the query with filters`,
    );
  }
}

interface Envelope {
  data: Page['items'];
  meta: { current_page: number; per_page: number; total_items: number; total_pages: number };
}

// A shared page is answered to every request with the same parameters: its envelope is built
// and shared once, so the serialized form is kept with it too (see conditionalGet).
const sharedEnvelopes = new WeakMap<Shared<Page>, Shared<Envelope>>();

function envelope(result: Shared<Page>, { page, per_page }: Paging): Envelope {
  const known = sharedEnvelopes.get(result);
  if (known) return known;
  const { items, total } = result;
  const built = {
    data: items,
    meta: { current_page: page, per_page, total_items: total, total_pages: Math.ceil(total / per_page) },
  };
  if (!isShared(result)) return built;
  const shared = share(built);
  sharedEnvelopes.set(result, shared);
  return shared;
}

export function wallpaperRoutes({ repository, maxResultWindow }: WallpaperRoutesOptions): Router {
  const router = createRouter();

  // Catalogue pages change only when the catalogue is reloaded; a minute of private caching is safe.
  router.use(async (ctx, next) => {
    await next();
    if (ctx.status === 200) {
      ctx.set('Cache-Control', 'private, max-age=60');
      ctx.vary('Authorization');
    }
  });

  router.get('/wallpapers', async (ctx) => {
    const params = parseList(ctx.query);
    assertWithinWindow(params, maxResultWindow);
    ctx.body = envelope(await repository.list(params), params);
  });

  router.get('/wallpapers/:id', async (ctx) => {
    const { id } = parseId({ id: ctx.params['id'] });
    const wallpaper = await repository.getById(id);
    if (!wallpaper) throw notFound(`Wallpaper ${id} not found`);
    ctx.body = wallpaper;
  });

  router.get('/search', async (ctx) => {
    const params = parseSearch(ctx.query);
    assertWithinWindow(params, maxResultWindow);
    if (searchableGroups(parseSearchQuery(params.q)).length === 0) {
      throw invalidRequest(
        "Invalid query parameter 'q': must contain a word to search for; only excluded words, operators (OR, -, quotes) or common words such as 'the' were given",
      );
    }
    ctx.body = envelope(await repository.search(params), params);
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
