/** What a list, a search and a get ask for, once the edge has validated the request. */
export interface Paging {
  page: number;
  per_page: number;
}

export interface Filters {
  category?: string;
  resolution?: string;
}

export type ListParams = Paging & Filters;
export type SearchParams = Paging & Filters & { q: string };
export interface IdParams {
  id: number;
}

export interface SuggestParams {
  q: string;
  limit: number;
}
