import type Router from '@koa/router';
import { compileParams } from '../http/query-validator.js';
import { createRouter } from '../http/router.js';
import { invalidRequest, notFound } from '../http/http-error.js';
import {
  type IdParams,
  type ListParams,
  type Paging,
  type SearchParams,
  idParamsSchema,
  listParamsSchema,
  searchParamsSchema,
} from './params.js';
import { exceedsResultWindow } from './build-queries.js';
import type { Page, WallpaperRepository } from './es-repository.js';

const parseList = compileParams<ListParams>(listParamsSchema);
const parseSearch = compileParams<SearchParams>(searchParamsSchema);
const parseId = compileParams<IdParams>(idParamsSchema, 'path');

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

// A frozen page is a cached one, shared by every hit on the same parameters: its envelope is
// built and frozen once, so the serialized form can be kept with it (see conditionalGet).
const sharedEnvelopes = new WeakMap<Page, Envelope>();

function envelope(result: Page, { page, per_page }: Paging): Envelope {
  const shared = sharedEnvelopes.get(result);
  if (shared) return shared;
  const { items, total } = result;
  const built = {
    data: items,
    meta: { current_page: page, per_page, total_items: total, total_pages: Math.ceil(total / per_page) },
  };
  if (Object.isFrozen(result)) sharedEnvelopes.set(result, Object.freeze(built));
  return built;
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
    ctx.body = envelope(await repository.search(params), params);
  });

  return router;
}
