import type { SearchParams } from '../../src/wallpapers/params.js';
import { readSearchText } from '../../src/wallpapers/search-query.js';

/** A search's parameters as the edge hands them down: `q` with what it was read to look for. */
export function searchParams(params: Omit<SearchParams, 'text'>): SearchParams {
  return { ...params, text: readSearchText(params.q) };
}
