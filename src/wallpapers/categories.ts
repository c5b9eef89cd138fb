// The spec leaves the category set open; this is the catalogue's closed set.
// Filters with any other value are rejected with the allowed values listed.
export const CATEGORIES = [
  'abstract',
  'animals',
  'anime',
  'architecture',
  'cars',
  'cityscapes',
  'fantasy',
  'flowers',
  'food',
  'games',
  'landscapes',
  'minimalist',
  'movies',
  'music',
  'nature',
  'ocean',
  'space',
  'sports',
  'technology',
] as const;

export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
