import type Router from '@koa/router';
import type { Context } from 'koa';
import { createRouter } from '../../http/router.js';
import { notFound } from '../../http/http-error.js';
import type { Shared } from '../../infra/shared-result.js';
import type { ListParams, SearchParams } from '../params.js';
import type { Page, WallpaperRepository } from '../store/repository.js';
import { changeList, readChangesRequest } from './change-feed.js';
import type { CursorCodec } from './cursor.js';
import { foundEnvelope, nextLinkQuery, pageEnvelope, setNextLink, similarEnvelope, suggestionList } from './page-envelope.js';
import { type PreparedQuery, createPreparedQueries } from './prepared-queries.js';
import { type PageRequest, readDetailRequest, readListRequest, readSearchRequest, readSimilarRequest, readSuggestRequest } from './request-rules.js';

export interface WallpaperRoutesOptions {
  repository: WallpaperRepository;
  maxResultWindow: number;
  cursors: CursorCodec;
}

// The prepared-query memo of each route (see createPreparedQueries). Only first pages without a
// picked seed are kept, so a cursor walk never crowds out the hot queries.
const PREPARED = { maxEntries: 1000, maxQueryLength: 1024, admitWhenFull: 1 / 16 } as const;

type Prepared = PreparedQuery<PageRequest>;

/** The catalogue's routes: each reads its request (request-rules), asks the repository, answers (page-envelope). */
export function wallpaperRoutes({ repository, maxResultWindow, cursors }: WallpaperRoutesOptions): Router {
  const router = createRouter();
  const rules = { cursors, maxResultWindow };

  // Catalogue pages change only when the catalogue is reloaded; a minute of private caching is safe.
  // Not so the feed, which says so itself.
  router.use(async (ctx, next) => {
    await next();
    if (ctx.status === 200 && !ctx.response.get('Cache-Control')) {
      ctx.set('Cache-Control', 'private, max-age=60');
      ctx.vary('Authorization');
    }
  });

  const listPrepared = createPreparedQueries<PageRequest>(PREPARED);
  const searchPrepared = createPreparedQueries<PageRequest>(PREPARED);

  function prepared(memo: typeof listPrepared, ctx: Context, request: PageRequest, fromCursor: boolean): Prepared {
    const entry = { request, linkQuery: nextLinkQuery(ctx.querystring, request.pickedSeed, request.carriedPerPage) };
    if (!fromCursor && request.pickedSeed === undefined) memo.keep(ctx.querystring, entry);
    return entry;
  }

  async function servePage<P extends ListParams>(ctx: Context, { request, linkQuery }: Prepared, load: (params: P) => Promise<Shared<Page>>) {
    const body = pageEnvelope(await load(request.params as P), request, cursors);
    setNextLink(ctx, body.meta.next_cursor, linkQuery);
    ctx.body = body;
  }

  const list = (params: ListParams) => repository.list(params);
  const search = (params: SearchParams) => repository.search(params);

  router.get('/wallpapers', async (ctx) => {
    const known = listPrepared.get(ctx.querystring);
    if (known) return servePage(ctx, known, list);
    const read = readListRequest(ctx, rules);
    if ('ids' in read) {
      ctx.body = foundEnvelope(await repository.getByIds(read.ids), read.ids.length);
      return;
    }
    return servePage(ctx, prepared(listPrepared, ctx, read.page, read.fromCursor), list);
  });

  router.get('/wallpapers/:id', async (ctx) => {
    const { id } = readDetailRequest(ctx);
    const wallpaper = await repository.getById(id);
    if (!wallpaper) throw notFound(`Wallpaper ${id} not found`);
    ctx.body = wallpaper;
  });

  router.get('/wallpapers/:id/similar', async (ctx) => {
    const { id, per_page, include } = readSimilarRequest(ctx);
    const page = await repository.similar(id, per_page);
    if (!page) throw notFound(`Wallpaper ${id} not found`);
    ctx.body = similarEnvelope(page, per_page, include);
  });

  router.get('/changes', async (ctx) => {
    const request = readChangesRequest(ctx, cursors);
    const body = changeList(await repository.changes(request.after, request.per_page), request, cursors);
    if (body.meta.has_more) setNextLink(ctx, body.meta.next_cursor, nextLinkQuery(ctx.querystring, undefined));
    // A tail read must see a change as soon as it is recorded: revalidate every time (ETags still spare the body).
    ctx.set('Cache-Control', 'no-cache');
    ctx.vary('Authorization');
    ctx.body = body;
  });

  router.get('/search', async (ctx) => {
    const known = searchPrepared.get(ctx.querystring);
    if (known) return servePage(ctx, known, search);
    const { page, fromCursor } = readSearchRequest(ctx, rules);
    return servePage(ctx, prepared(searchPrepared, ctx, page, fromCursor), search);
  });

  router.get('/search/suggest', async (ctx) => {
    const params = readSuggestRequest(ctx);
    ctx.body = suggestionList((await repository.suggest(params)).texts, params);
  });

  return router;
}
