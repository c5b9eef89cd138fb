import { parametersSchema } from '../openapi/parameters.js';

export const listParamsSchema = parametersSchema('/v1/wallpapers', 'get', 'query');
export const searchParamsSchema = parametersSchema('/v1/search', 'get', 'query');
export const idParamsSchema = parametersSchema('/v1/wallpapers/{id}', 'get', 'path');

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
