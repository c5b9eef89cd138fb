import type { Client, estypes } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import { type ResponseCacheOptions, withResponseCache } from '../cache/response-cache.js';
import type { ResponseCacheConfig } from '../config.js';
import { translateEsError } from '../infra/es-errors.js';
import type { Logger } from '../logger.js';
import { SOURCE, buildListRequest, buildSearchRequest } from './build-queries.js';
import type { ListParams, SearchParams } from './param-schemas.js';
import { type Wallpaper, toWallpaper } from './wallpaper.js';

export interface Page {
  items: Wallpaper[];
  total: number;
}

export interface WallpaperRepository {
  list(params: ListParams): Promise<Page>;
  search(params: SearchParams): Promise<Page>;
  getById(id: number): Promise<Wallpaper | null>;
}

const GET_RESPONSE_FILTER = ['found', '_source'];

function toPage(response: estypes.SearchResponse<Wallpaper>): Page {
  const total = response.hits.total;
  // filter_path drops hits.hits altogether when nothing matched.
  return {
    items: (response.hits.hits ?? []).map((hit) => toWallpaper(hit._source as Wallpaper)),
    total: typeof total === 'number' ? total : (total?.value ?? 0),
  };
}

function isDocumentMissing(err: unknown): boolean {
  return (
    err instanceof errors.ResponseError &&
    err.statusCode === 404 &&
    (err.body as { found?: boolean } | undefined)?.found === false
  );
}

/** Reads the catalogue behind `alias`; with `cache`, recent results are kept in process (see withResponseCache). */
export function createWallpaperRepository(
  es: Client,
  alias: string,
  logger: Logger,
  cache?: ResponseCacheConfig & Pick<ResponseCacheOptions, 'onLookup'>,
): WallpaperRepository {
  const repository = elasticsearchRepository(es, alias, logger);
  return cache ? withResponseCache(repository, { es, alias, logger, ...cache }) : repository;
}

function elasticsearchRepository(es: Client, alias: string, logger: Logger): WallpaperRepository {
  async function run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw translateEsError(err, logger, operation);
    }
  }

  return {
    list: (params) => run('list', async () => toPage(await es.search<Wallpaper>(buildListRequest(alias, params)))),
    search: (params) => run('search', async () => toPage(await es.search<Wallpaper>(buildSearchRequest(alias, params)))),
    getById: (id) =>
      run('get', async () => {
        try {
          const doc = await es.get<Wallpaper>({ index: alias, id: String(id), _source: SOURCE, filter_path: GET_RESPONSE_FILTER });
          return doc.found && doc._source ? toWallpaper(doc._source) : null;
        } catch (err) {
          if (isDocumentMissing(err)) return null;
          throw err;
        }
      }),
  };
}
