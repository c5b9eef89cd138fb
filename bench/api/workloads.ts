import { Random, pick, pickWeighted } from '../../src/catalogue/generation/prng.js';
import { SCREEN_SIZES } from '../../src/catalogue/generation/screen-sizes.js';
import { type CategoryVocabulary, MOODS, VOCABULARY } from '../../src/catalogue/generation/vocabulary.js';
import { COLOR_NAMES } from '../../src/wallpapers/colors.js';
import { CATEGORIES } from '../../src/wallpapers/categories.js';
import type { Facet, ListParams, SearchParams, SuggestParams } from '../../src/wallpapers/params.js';
import type { Scenario } from './options.js';

/** `cursor`: the page is asked by this cursor (its position is in params, for the direct query). */
export type RequestSpec =
  | { kind: 'list'; params: ListParams; cursor?: string }
  | { kind: 'search'; params: Omit<SearchParams, 'text'> }
  | { kind: 'suggest'; params: SuggestParams }
  | { kind: 'get'; id: number }
  | { kind: 'ids'; ids: number[] };

/** The request sequence a scenario replays, in order, cycling. */
export type Workload = RequestSpec[];

const PER_PAGE = 20;
const DEEP_PAGE = 400;

// Resolutions as often as the catalogue holds them, so filters select realistic shares.
function resolution(random: Random): string {
  const { width, height } = pickWeighted(random, SCREEN_SIZES);
  return `${width}x${height}`;
}

const words = (phrases: readonly string[]) => phrases.flatMap((phrase) => phrase.toLowerCase().split(' '));

// Keeps the first letter, as the fuzzy clause does (prefix_length 1), and swaps two letters after it.
function typo(random: Random, word: string): string {
  const at = 1 + Math.floor(random.next() * (word.length - 2));
  return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

/** What people type: one word (half), an adjective and a subject (a third), a misspelt word (the rest). */
export function searchQuery(random: Random): string {
  const vocabulary = VOCABULARY[pick(random, CATEGORIES)] as CategoryVocabulary;
  const roll = random.next();
  if (roll < 0.5) return pick(random, words(random.next() < 0.6 ? vocabulary.subjects : vocabulary.adjectives));
  if (roll < 0.85) return `${pick(random, words(vocabulary.adjectives))} ${pick(random, words(vocabulary.subjects))}`;
  const long = words(vocabulary.subjects).filter((word) => word.length >= 5);
  return typo(random, pick(random, long.length > 0 ? long : ['mountain']));
}

/** What someone has typed so far: the first 1 to 6 letters of a word of a title, now and then with a second word begun. */
export function suggestPrefix(random: Random): string {
  const vocabulary = VOCABULARY[pick(random, CATEGORIES)] as CategoryVocabulary;
  const word = pick(random, words(random.next() < 0.6 ? vocabulary.subjects : vocabulary.adjectives));
  const typed = word.slice(0, 1 + Math.floor(random.next() * Math.min(6, word.length)));
  if (random.next() < 0.15 && typed === word) return `${word} ${pick(random, words(vocabulary.subjects)).slice(0, 2)}`;
  return typed;
}

function filtered(random: Random): ListParams {
  const roll = random.next();
  const category = roll < 0.8 ? pick(random, CATEGORIES) : undefined;
  const size = roll >= 0.3 ? resolution(random) : undefined;
  return { page: 1, per_page: PER_PAGE, ...(category ? { category: [category] } : {}), ...(size ? { resolution: [size] } : {}) };
}

function randomId(random: Random, docs: number): number {
  return 1 + Math.floor(random.next() * docs);
}

function times<T>(count: number, make: () => T): T[] {
  return Array.from({ length: count }, make);
}

/** A mixed universe of distinct requests, in popularity order (rank 0 is the most requested). */
function zipfUniverse(random: Random, docs: number, size: number): RequestSpec[] {
  return times(size, (): RequestSpec => {
    const roll = random.next();
    const page = 1 + Math.floor(Math.pow(random.next(), 3) * 20);
    if (roll < 0.35) {
      const params = random.next() < 0.4 ? { ...filtered(random), page } : { page, per_page: PER_PAGE };
      return { kind: 'list', params };
    }
    if (roll < 0.55) return { kind: 'get', id: randomId(random, docs) };
    const filters = random.next() < 0.2 ? { category: [pick(random, CATEGORIES)] } : {};
    return { kind: 'search', params: { q: searchQuery(random), page: page <= 3 ? page : 1, per_page: PER_PAGE, ...filters } };
  });
}

/** Draws `count` requests with P(rank k) proportional to 1 / (k + 1)^exponent. */
export function zipfSample<T>(random: Random, universe: readonly T[], count: number, exponent = 1): T[] {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 0; k < universe.length; k++) cumulative.push((total += 1 / Math.pow(k + 1, exponent)));
  return times(count, () => {
    const target = random.next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    return universe[low] as T;
  });
}

// A rotator's shuffles: a few hundred seeds, each read a page or three deep, sometimes filtered.
function randomPage(random: Random): ListParams {
  const seed = `s${Math.floor(random.next() * 300)}`;
  const page = 1 + Math.floor(Math.pow(random.next(), 2) * 3);
  const base = random.next() < 0.3 ? filtered(random) : { page: 1, per_page: PER_PAGE };
  return { ...base, page, sort: 'random', seed };
}

// A filter menu: facets of a filtered list or a search, with size and shape filters now and then.
const MENU: readonly Facet[] = ['category', 'resolution', 'orientation', 'ratio'];
function facetedPage(random: Random): RequestSpec {
  const shape = random.next() < 0.5 ? { orientation: random.next() < 0.7 ? ('landscape' as const) : ('portrait' as const) } : {};
  const size = random.next() < 0.3 ? { min_resolution: '2560x1440' } : {};
  const params = { ...filtered(random), ...shape, ...size, facets: MENU };
  if (random.next() < 0.3) return { kind: 'search', params: { ...params, q: searchQuery(random) } };
  return { kind: 'list', params };
}

// Three shapes of one request, to weigh the colour and tag filters against the category filter
// they sit beside in a client's menu: the first three pages of a list filtered by one of them.
const COLOR_ASKED = [...COLOR_NAMES, '#1e3a5f', '#f2c14e', '#2f6b35', '#d9824a', '#b8c4c8', '#7b3fb5'];
const TAG_WORDS = [...new Set([...CATEGORIES, ...MOODS, ...Object.values(VOCABULARY).flatMap((v) => v.subjects.map((s) => s.toLowerCase()))])];
function describedPage(random: Random, filter: 'category' | 'color' | 'tags'): ListParams {
  const page = 1 + Math.floor(random.next() * 3);
  if (filter === 'category') return { page, per_page: PER_PAGE, category: [pick(random, CATEGORIES)] };
  if (filter === 'color') return { page, per_page: PER_PAGE, color: [pick(random, COLOR_ASKED)] };
  return { page, per_page: PER_PAGE, tags: times(1 + Math.floor(random.next() * 3), () => pick(random, TAG_WORDS)) };
}

// A client resolving a favourites list: 20 to 100 ids, a few of them gone.
function idList(random: Random, docs: number): number[] {
  const count = 20 + Math.floor(random.next() * 81);
  return [...new Set(times(count, () => (random.next() < 0.05 ? docs + 1 + Math.floor(random.next() * 1000) : randomId(random, docs))))];
}

export interface WorkloadSizes {
  filtered: number;
  gets: number;
  searches: number;
  suggestions: number;
  zipfUniverse: number;
  zipfRequests: number;
}

export const FULL_SIZES: WorkloadSizes = { filtered: 1000, gets: 5000, searches: 2000, suggestions: 2000, zipfUniverse: 2000, zipfRequests: 20000 };
export const SMOKE_SIZES: WorkloadSizes = { filtered: 50, gets: 100, searches: 50, suggestions: 50, zipfUniverse: 50, zipfRequests: 200 };

/** Deterministic for (scenario, docs, seed). */
export function buildWorkload(scenario: Scenario, docs: number, seed: number, sizes: WorkloadSizes = FULL_SIZES): Workload {
  const random = new Random(seed, docs);
  switch (scenario) {
    case 'list-page1':
      return [{ kind: 'list', params: { page: 1, per_page: PER_PAGE } }];
    case 'list-filtered':
      return times(sizes.filtered, () => ({ kind: 'list', params: filtered(random) }));
    case 'list-deep':
      return [{ kind: 'list', params: { page: DEEP_PAGE, per_page: PER_PAGE } }];
    case 'get-random':
      return times(sizes.gets, () => ({ kind: 'get', id: randomId(random, docs) }));
    case 'search-mix':
      return times(sizes.searches, () => ({ kind: 'search', params: { q: searchQuery(random), page: 1, per_page: PER_PAGE } }));
    case 'suggest-mix':
      return times(sizes.suggestions, () => ({ kind: 'suggest', params: { q: suggestPrefix(random), limit: 5 } }));
    case 'zipf-mix':
      return zipfSample(random, zipfUniverse(random, docs, sizes.zipfUniverse), sizes.zipfRequests);
    case 'random-mix':
      return times(sizes.filtered, () => ({ kind: 'list', params: randomPage(random) }));
    case 'facets-mix':
      return times(sizes.filtered, () => facetedPage(random));
    case 'ids-mix':
      return times(sizes.filtered, () => ({ kind: 'ids', ids: idList(random, docs) }));
    case 'list-category':
      return times(sizes.filtered, () => ({ kind: 'list', params: describedPage(random, 'category') }));
    case 'list-color':
      return times(sizes.filtered, () => ({ kind: 'list', params: describedPage(random, 'color') }));
    case 'list-tags':
      return times(sizes.filtered, () => ({ kind: 'list', params: describedPage(random, 'tags') }));
    case 'cursor-deep':
      throw new Error('cursor-deep needs the catalogue to place its cursors: use cursorWorkload');
  }
}

/** One request kind at a given page: the latency-vs-size and latency-vs-depth series. */
export function seriesWorkload(kind: 'list' | 'get' | 'search', docs: number, seed: number, page = 1): Workload {
  const random = new Random(seed, docs + 7);
  if (kind === 'list') return [{ kind, params: { page, per_page: PER_PAGE } }];
  if (kind === 'get') return times(2000, () => ({ kind, id: randomId(random, docs) }));
  return times(500, () => ({ kind, params: { q: searchQuery(random), page, per_page: PER_PAGE } }));
}

export function apiPath(spec: RequestSpec): string {
  if (spec.kind === 'get') return `/v1/wallpapers/${spec.id}`;
  if (spec.kind === 'ids') return `/v1/wallpapers?ids=${spec.ids.join(',')}`;
  const query = new URLSearchParams();
  const cursor = spec.kind === 'list' ? spec.cursor : undefined;
  for (const [name, value] of Object.entries(spec.params)) {
    if (value === undefined || name === 'position' || (cursor !== undefined && name === 'page')) continue;
    query.set(name, String(value));
  }
  if (cursor !== undefined) query.set('cursor', cursor);
  const path = { list: '/v1/wallpapers', search: '/v1/search', suggest: '/v1/search/suggest' }[spec.kind];
  return `${path}?${query}`;
}

export function specKey(spec: RequestSpec): string {
  if (spec.kind === 'get') return `get ${spec.id}`;
  if (spec.kind === 'ids') return `ids ${spec.ids.join(',')}`;
  return `${spec.kind} ${JSON.stringify(spec.params)}`;
}
