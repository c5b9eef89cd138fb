import { type Client, type estypes, errors } from '@elastic/elasticsearch';
import { ELASTICSEARCH_READ_DEFAULTS, type ElasticsearchBatchingConfig } from '../config.js';
import { Overloaded } from '../errors.js';
import { EsItemError, type EsFailure, translateEsError } from '../infra/es-errors.js';
import { type Logger, silentLogger } from '../infra/logger.js';
import { createNaturalBatcher } from '../infra/natural-batcher.js';
import { type Shared, share } from '../infra/shared.js';
import { REQUEST_CACHE, SOURCE, type SearchBody, listBody, searchBody, suggestBody } from './build-queries.js';
import type { SuggestParams } from './params.js';
import type { Page, Suggestions, WallpaperRepository } from './repository.js';
import { type Wallpaper, toWallpaper } from './wallpaper.js';

export interface BatchingOptions extends ElasticsearchBatchingConfig {
  /** A read's whole time budget, waiting for a free call included (the client's request timeout). */
  timeoutMs: number;
  onBatch?: (operation: 'mget' | 'msearch', size: number) => void;
}

export const DEFAULT_BATCHING: BatchingOptions = { ...ELASTICSEARCH_READ_DEFAULTS };

export interface EsRepositoryOptions {
  logger?: Logger;
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

// Requests coalesced into one call share the same result, so its envelope and serialized bytes
// are built once for all of them (see conditionalGet).
function toPage(item: MsearchItem): Shared<Page> | Error {
  if (item.error || (item.status !== undefined && item.status !== 200)) return new EsItemError(item.status ?? 500, item.error);
  return share({
    // filter_path drops hits.hits altogether when nothing matched.
    items: (item.hits?.hits ?? []).map((hit) => toWallpaper(hit._source)),
    total: item.hits?.total?.value ?? 0,
  });
}

interface SuggestItem {
  status?: number;
  error?: EsFailure;
  suggest?: Record<string, { options?: { _source?: { title?: string } }[] }[] | undefined>;
}

const MSUGGEST_RESPONSE_FILTER = [
  'responses.status',
  'responses.error.type',
  'responses.error.root_cause.type',
  'responses.error.root_cause.reason',
  'responses.suggest.*.options._source.title',
];

// Several inputs of one title, or equal titles of several wallpapers, can complete the same
// prefix: the answer keeps each title once, completions as typed before those through a typo.
function toSuggestions(item: SuggestItem, limit: number): Shared<Suggestions> | Error {
  if (item.error || (item.status !== undefined && item.status !== 200)) return new EsItemError(item.status ?? 500, item.error);
  const options = [...(item.suggest?.titles ?? []), ...(item.suggest?.typos ?? [])].flatMap((entry) => entry.options ?? []);
  const titles = options.map((option) => option._source?.title);
  const texts = [...new Set(titles.filter((title): title is string => typeof title === 'string'))].slice(0, limit);
  return share({ texts });
}

function toDocument(item: MgetItem | undefined, id: string): Shared<Wallpaper> | null | Error {
  if (!item || item._id !== id) return new Error(`multi-get answered ${item?._id ?? 'nothing'} for ${id}`);
  // A document-level failure has no status of its own: a missing index or a shard that could not answer.
  if (item.error) return new EsItemError(503, item.error);
  return item.found && item._source ? share(toWallpaper(item._source)) : null;
}

/**
 * Reads the catalogue behind `alias`. Gets go out as multi-gets and lists and searches as
 * multi-searches, naturally batched (see createNaturalBatcher): alone when Elasticsearch has a
 * free slot, together under load, so a busy API pays Elasticsearch's per-call cost once per
 * batch instead of once per request. Failures come out as domain errors (see translateEsError).
 */
export function createEsRepository(
  es: Client,
  alias: string,
  { logger = silentLogger, batching = DEFAULT_BATCHING }: EsRepositoryOptions = {},
): WallpaperRepository {
  const { maxInFlight, maxBatchSize, maxQueued, onBatch } = batching;
  const limits = {
    maxInFlight,
    maxBatchSize,
    maxQueued,
    budgetMs: batching.timeoutMs,
    expired: () => new errors.TimeoutError('no Elasticsearch answer within the request timeout'),
  };

  const overloaded = () => new Overloaded('The service is busy, please retry shortly');
  const get = createNaturalBatcher<string, Shared<Wallpaper> | null>({
    ...limits,
    overloaded,
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

  const search = createNaturalBatcher<SearchBody, Shared<Page>>({
    ...limits,
    overloaded,
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

  const suggest = createNaturalBatcher<SuggestParams, Shared<Suggestions>>({
    ...limits,
    overloaded,
    keyOf: ({ q, limit }) => JSON.stringify([q.trim(), limit]),
    onBatch: (size) => onBatch?.('msearch', size),
    run: async (requests, remainingMs) => {
      const searches = requests.flatMap((params): estypes.MsearchRequestItem[] => [{}, suggestBody(params)]);
      const response = await es.msearch({ index: alias, searches, filter_path: MSUGGEST_RESPONSE_FILTER }, { requestTimeout: remainingMs });
      const items = (response.responses ?? []) as SuggestItem[];
      return requests.map(({ limit }, position) => {
        const item = items[position];
        return item ? toSuggestions(item, limit) : new Error(`multi-search answered ${items.length} of ${requests.length}`);
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
    suggest: (params) => run('suggest', () => suggest(params)),
  };
}
