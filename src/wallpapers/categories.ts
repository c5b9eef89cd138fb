import { componentSchema } from '../openapi/document.js';

/**
 * The catalogue's closed set of categories (the spec leaves it open), read
 * from the OpenAPI document. Filters with any other value are rejected with
 * the allowed values listed.
 */
export const CATEGORIES: readonly string[] = Object.freeze([...(componentSchema('Category')['enum'] as string[])]);

export type Category = string;
