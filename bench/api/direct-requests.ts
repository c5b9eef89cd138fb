import type { estypes } from '@elastic/elasticsearch';
import type { SearchParams, SuggestParams } from '../../src/wallpapers/params.js';
import { readSearchText } from '../../src/wallpapers/search-query.js';
import { SOURCE, buildListRequest, firstSuggestSize, searchBody, suggestBody } from '../../src/wallpapers/store/build-queries.js';

// The API's requests as a client would send them straight to Elasticsearch, one at a time: what
// the benchmark measures the API against, and what the tests compare its batched reads with.

export function buildGetRequest(alias: string, id: number): estypes.GetRequest {
  return { index: alias, id: String(id), _source: SOURCE, filter_path: ['found', '_source'] };
}

/**
 * A list's request with a search's body (the same index, response filter and cache settings), for
 * `q` read as the API's edge reads it.
 */
export function buildSearchRequest(alias: string, params: Omit<SearchParams, 'text'>): estypes.SearchRequest {
  return { ...buildListRequest(alias, params), ...searchBody({ ...params, text: readSearchText(params.q) }) };
}

export function buildSuggestRequest(alias: string, params: SuggestParams): estypes.SearchRequest {
  return { index: alias, filter_path: ['suggest.*.options._source.title'], ...suggestBody(params.q, firstSuggestSize(params.limit)) };
}
