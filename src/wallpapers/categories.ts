import { componentSchema } from '../openapi/document.js';

/**
 * The catalogue's closed set of categories (the spec leaves it open), read
 * from the OpenAPI document. Filters with any other value are rejected with
 * the allowed values listed.
 */
export const CATEGORIES: readonly string[] = Object.freeze([...(componentSchema('Category')['enum'] as string[])]);

export type Category = string;

// Words people type for a category other than its name: its singular, and the few other words
// for the same thing.
const OTHER_WORDS: Readonly<Record<string, readonly string[]>> = {
  cityscapes: ['city', 'cities', 'cityscape'],
  games: ['game', 'gaming', 'video games'],
  minimalist: ['minimal', 'minimalism', 'minimalistic'],
  movies: ['movie', 'film', 'films'],
  sports: ['sport'],
  technology: ['tech'],
};

/** The category a word of a query names, by its name, its singular or another word for it; undefined for none. */
export const CATEGORY_NAMED: ReadonlyMap<string, Category> = new Map(
  CATEGORIES.flatMap((category) => [
    [category, category] as const,
    ...(category.endsWith('s') ? [[category.slice(0, -1), category] as const] : []),
    ...(OTHER_WORDS[category] ?? []).map((word) => [word, category] as const),
  ]),
);
