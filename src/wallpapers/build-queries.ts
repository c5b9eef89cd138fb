import type { estypes } from '@elastic/elasticsearch';
import type { Filters, ListParams, Paging, SearchParams } from './params.js';

/** Documented order of the list: newest first, ties by id descending (matches the index sort). */
export const LIST_SORT: estypes.Sort = [{ created_at: { order: 'desc' } }, { id: { order: 'desc' } }];

/** Relevance first; equal scores fall back to popularity, then id for a total order. */
export const SEARCH_SORT: estypes.Sort = ['_score', { downloads: { order: 'desc' } }, { id: { order: 'asc' } }];

export function filterClauses({ category, resolution }: Filters): estypes.QueryDslQueryContainer[] {
  const clauses: estypes.QueryDslQueryContainer[] = [];
  if (category !== undefined) clauses.push({ term: { category } });
  if (resolution !== undefined) clauses.push({ term: { resolution } });
  return clauses;
}

/**
 * The whole stored document: copying it costs Elasticsearch less than parsing and filtering
 * each one, and toWallpaper keeps the nine spec fields (width and height stay behind).
 */
export const SOURCE = true;

/** Only the total and the documents come back: less for Elasticsearch to write and for the client to parse. */
export const SEARCH_RESPONSE_FILTER = ['hits.total.value', 'hits.hits._source'];

// The shard request cache skips requests with size > 0 unless asked. Asked, a repeated page or
// search costs only its fetch phase; entries are dropped whenever a refresh changes the index.
export const REQUEST_CACHE = true;

/** What one search asks, whether it goes alone (_search) or in a batch (_msearch). */
export type SearchBody = Required<Pick<estypes.MsearchMultisearchBody, 'from' | 'size' | 'track_total_hits' | '_source' | 'sort' | 'query'>>;

/** A single get, as a client would send it straight to Elasticsearch. */
export function buildGetRequest(alias: string, id: number): estypes.GetRequest {
  return { index: alias, id: String(id), _source: SOURCE, filter_path: ['found', '_source'] };
}

/** A single search, as a client would send it straight to Elasticsearch. */
function searchRequest(alias: string, body: SearchBody): estypes.SearchRequest {
  return { index: alias, filter_path: SEARCH_RESPONSE_FILTER, request_cache: REQUEST_CACHE, ...body };
}

function window({ page, per_page }: Paging) {
  return { from: (page - 1) * per_page, size: per_page };
}

export function listBody(params: ListParams): SearchBody {
  const filters = filterClauses(params);
  return {
    ...window(params),
    track_total_hits: true,
    _source: SOURCE,
    sort: LIST_SORT,
    query: filters.length > 0 ? { bool: { filter: filters } } : { match_all: {} },
  };
}

export function buildListRequest(alias: string, params: ListParams): estypes.SearchRequest {
  return searchRequest(alias, listBody(params));
}

export function buildSearchQuery(q: string, filters: Filters): estypes.QueryDslQueryContainer {
  return {
    bool: {
      must: [
        {
          bool: {
            should: [
              { multi_match: { query: q, fields: ['title^3', 'description'], type: 'best_fields' } },
              // Typo tolerance at a lower weight, so exact matches rank above near misses.
              {
                multi_match: {
                  query: q,
                  fields: ['title^3', 'description'],
                  type: 'best_fields',
                  fuzziness: 'AUTO',
                  prefix_length: 1,
                  max_expansions: 20,
                  boost: 0.5,
                },
              },
            ],
            minimum_should_match: 1,
          },
        },
      ],
      filter: filterClauses(filters),
    },
  };
}

export function searchBody(params: SearchParams): SearchBody {
  return {
    ...window(params),
    track_total_hits: true,
    _source: SOURCE,
    sort: SEARCH_SORT,
    query: buildSearchQuery(params.q, params),
  };
}

export function buildSearchRequest(alias: string, params: SearchParams): estypes.SearchRequest {
  return searchRequest(alias, searchBody(params));
}
