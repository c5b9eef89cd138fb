import type { ParamsSchema } from '../http/query-validator.js';
import { CATEGORIES } from './categories.js';
import { RESOLUTION_PATTERN } from './resolution.js';

export const MAX_PER_PAGE = 100;
export const MAX_QUERY_LENGTH = 200;

const page = { type: 'integer', minimum: 1, default: 1, description: 'Page number' } as const;
const perPage = {
  type: 'integer',
  minimum: 1,
  default: 20,
  clampMaximum: MAX_PER_PAGE,
  description: 'Items per page; values above 100 are served at 100',
} as const;
const category = { type: 'string', enum: CATEGORIES, description: 'Filter by category' } as const;
const resolution = {
  type: 'string',
  pattern: RESOLUTION_PATTERN,
  formatHint: '<width>x<height> in pixels, e.g. 1920x1080',
  description: 'Filter by exact resolution',
} as const;

export const listParamsSchema: ParamsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { page, per_page: perPage, category, resolution },
};

export const searchParamsSchema: ParamsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: {
    q: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'Search keywords' },
    page,
    per_page: perPage,
    category,
    resolution,
  },
};

export const idParamsSchema: ParamsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Wallpaper id' } },
};

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
