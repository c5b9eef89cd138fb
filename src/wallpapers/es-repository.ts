import { type Client, type estypes, errors } from '@elastic/elasticsearch';
import { type ResponseCacheOptions, withResponseCache } from './cached-repository.js';
import { ELASTICSEARCH_READ_DEFAULTS, type ElasticsearchBatchingConfig, type ResponseCacheConfig } from '../config.js';
import { EsItemError, type EsFailure, translateEsError } from '../infra/es-errors.js';
import { QueueFullError, createNaturalBatcher } from '../infra/natural-batcher.js';
import type { Logger } from '../infra/logger.js';
import { REQUEST_CACHE, SOURCE, type SearchBody, listBody, searchBody } from './build-queries.js';
import type { ListParams, SearchParams } from './params.js';
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

export interface BatchingOptions extends ElasticsearchBatchingConfig {
  /** A read's whole time budget, waiting for a free call included (the client's request timeout). */
  timeoutMs: number;
  onBatch?: (operation: 'mget' | 'msearch', size: number) => void;
}

export const DEFAULT_BATCHING: BatchingOptions = { ...ELASTICSEARCH_READ_DEFAULTS };

export interface RepositoryOptions {
  cache?: ResponseCacheConfig & Pick<ResponseCacheOptions, 'onLookup'>;
  batching?: BatchingOptions;
}

// Every item keeps a field, so filtering never drops one and positions still match the request.
const MGET_RESPONSE_FILTER = ['docs._id', 'docs.found', 'docs._source', 'docs.error.type'];
const MSEARCH_RESPONSE_FILTER = [
  'responses.status',
  'responses.error.type',
  'responses.error.root_cause.type',
  'responses.error.root_cause.reason',
  'responses.hits.total.value',
  'responses.hits.hits._source',
];

interface MgetItem {
  _id: string;
  found?: boolean;
  _source?: Wallpaper;
  error?: { type?: string };
}

interface MsearchItem {
  status?: number;
  error?: EsFailure;
  hits?: { total?: { value: number }; hits?: { _source: Wallpaper }[] };
}

// Results are frozen: requests coalesced into one call (and cache hits) share the same object,
// so its envelope and serialized bytes are built once for all of them (see conditionalGet).
function toPage(item: MsearchItem): Page | Error {
  if (item.error || (item.status !== undefined && item.status !== 200)) return new EsItemError(item.status ?? 500, item.error);
  return Object.freeze({
    // filter_path drops hits.hits altogether when nothing matched.
    items: Object.freeze((item.hits?.hits ?? []).map((hit) => Object.freeze(toWallpaper(hit._source)))) as Wallpaper[],
    total: item.hits?.total?.value ?? 0,
  });
}

function toDocument(item: MgetItem | undefined, id: string): Wallpaper | null | Error {
  if (!item || item._id !== id) return new Error(`multi-get answered ${item?._id ?? 'nothing'} for ${id}`);
  // A document-level failure has no status of its own: a missing index or a shard that could not answer.
  if (item.error) return new EsItemError(503, item.error);
  return item.found && item._source ? Object.freeze(toWallpaper(item._source)) : null;
}

/**
 * Reads the catalogue behind `alias`. Gets go out as multi-gets and lists and searches as
 * multi-searches, naturally batched (see createNaturalBatcher): alone when Elasticsearch has a
 * free slot, together under load, so a busy API pays Elasticsearch's per-call cost once per
 * batch instead of once per request. With `cache`, recent results are kept in process (see
 * withResponseCache).
 */
export function createWallpaperRepository(es: Client, alias: string, logger: Logger, options: RepositoryOptions = {}): WallpaperRepository {
  const repository = elasticsearchRepository(es, alias, logger, options.batching ?? DEFAULT_BATCHING);
  return options.cache ? withResponseCache(repository, { es, alias, logger, ...options.cache }) : repository;
}

function elasticsearchRepository(es: Client, alias: string, logger: Logger, batching: BatchingOptions): WallpaperRepository {
  const { maxInFlight, maxBatchSize, maxQueued, onBatch } = batching;
  const limits = {
    maxInFlight,
    maxBatchSize,
    maxQueued,
    budgetMs: batching.timeoutMs,
    expired: () => new errors.TimeoutError('no Elasticsearch answer within the request timeout'),
  };

  const get = createNaturalBatcher<string, Wallpaper | null>({
    ...limits,
    overloaded: () => new QueueFullError('get'),
    keyOf: (id) => id,
    onBatch: (size) => onBatch?.('mget', size),
    run: async (ids, remainingMs) => {
      const response = await es.mget<Wallpaper>(
        { index: alias, ids, _source: SOURCE, filter_path: MGET_RESPONSE_FILTER },
        { requestTimeout: remainingMs },
      );
      const docs = (response.docs ?? []) as MgetItem[];
      return ids.map((id, position) => toDocument(docs[position], id));
    },
  });

  const search = createNaturalBatcher<SearchBody, Page>({
    ...limits,
    overloaded: () => new QueueFullError('search'),
    keyOf: (body) => JSON.stringify(body),
    onBatch: (size) => onBatch?.('msearch', size),
    run: async (bodies, remainingMs) => {
      const searches = bodies.flatMap((body): estypes.MsearchRequestItem[] => [{ request_cache: REQUEST_CACHE }, body]);
      const response = await es.msearch<Wallpaper>({ index: alias, searches, filter_path: MSEARCH_RESPONSE_FILTER }, { requestTimeout: remainingMs });
      const items = (response.responses ?? []) as MsearchItem[];
      return bodies.map((_, position) => {
        const item = items[position];
        return item ? toPage(item) : new Error(`multi-search answered ${items.length} of ${bodies.length}`);
      });
    },
  });

  async function run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw translateEsError(err, logger, operation);
    }
  }

  return {
    list: (params) => run('list', () => search(listBody(params))),
    search: (params) => run('search', () => search(searchBody(params))),
    getById: (id) => run('get', () => get(String(id))),
  };
}
