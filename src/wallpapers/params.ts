import type { Orientation } from './aspect-ratio.js';
import type { Tone } from './colors.js';
import type { SearchQuery, Term } from './search-query.js';

/** What a list, a search and a get ask for, once the edge has validated the request. */
export interface Paging {
  page: number;
  per_page: number;
}

/** Filters combine with AND; the values of one list filter with OR. */
export interface Filters {
  category?: readonly string[];
  resolution?: readonly string[];
  ratio?: readonly string[];
  orientation?: Orientation;
  min_resolution?: string;
  /** Any of these tags (lower-case). */
  tags?: readonly string[];
  exclude_tags?: readonly string[];
  exclude_ids?: readonly number[];
  /** Any of these colours: a name of NAMED_COLORS or a '#rrggbb', normalised at the edge. */
  color?: readonly string[];
  tone?: Tone;
}

export type SortOrder = 'newest' | 'oldest' | 'downloads' | 'relevance' | 'random';
export type Facet = 'category' | 'resolution' | 'orientation' | 'ratio' | 'tags' | 'color' | 'tone';
/** What list items carry beyond the nine fields: `dimensions` is width, height, ratio and orientation; `colors` brings `tone`. */
export type Include = 'tags' | 'colors' | 'dimensions';

export interface Ordering {
  /** Absent: newest for a list, relevance for a search (the schema's defaults). */
  sort?: SortOrder;
  /** Set whenever sort is random: the client's seed, or one the edge picked. */
  seed?: string;
}

/** Where a cursor walk continues: the index it began on and the sort values of the last hit served. */
export interface Position {
  index: string;
  after: readonly (string | number)[];
  /**
   * The total its last page counted. A deep walk goes by it instead of counting again (walkTotal);
   * imports into the walk's index can change it since, which a full last page reads on to see.
   */
  total?: number;
  /** How many results of the walk come before the position. */
  depth?: number;
  /** A sort=random walk along the seed's key (shuffle.ts), not by score: `after` is the key and the id. */
  shuffled?: boolean;
  /** The relevance scoring the walk's scores come from (build-queries.ts, RANKING); absent in a cursor of a build before it. */
  ranking?: number;
  /**
   * Where such a walk started (its first wallpaper's key and id): it runs from there to the top of
   * the key, then from the bottom up to there. A walk begun before walks had starts began at the
   * seed's offset.
   */
  start?: readonly [key: number, id: number];
}

export interface PageOptions {
  /** Continue after this position instead of reading page `page`. */
  position?: Position;
  facets?: readonly Facet[];
  include?: readonly Include[];
  /**
   * The most the page's reads may take, when less than the Elasticsearch timeout: a read for
   * something optional (domain/with-suggestion.ts) is given up at its budget, not left holding one
   * of the few requests to Elasticsearch in flight after its caller has stopped waiting.
   */
  budgetMs?: number;
}

export type ListParams = Paging & Filters & Ordering & PageOptions;

/** A real word typed for another, and that other ("dessert", desert). */
export interface Mistyped {
  typed: string;
  meant: string;
}

export type SearchParams = ListParams & {
  /** The text as the client sent it: it names the search in cache keys and cursors. */
  q: string;
  /** What `q` looks for, read from it once at the edge (see readSearchText). */
  text: SearchQuery;
  /** The same in the catalogue's words, when they add any (domain/query-meaning.ts): ranked below `text`. */
  meaning?: SearchQuery;
  /** The catalogue cannot hold what `text` asks for (domain/search-meaning.ts): the search finds nothing. */
  nothing?: true;
  /** Words of `text` that match some wallpaper as typed, so no typo is looked for in them (domain/with-typos.ts). */
  occurring?: readonly string[];
  /** Words of `text` the language knows but no wallpaper holds ("roof"): a typo is looked for in them, but a match of every group through it gets no tier of its own (domain/with-typos.ts). */
  known?: readonly string[];
  /** Of the `known`, those the other words say were typed for another word, and that word ("dessert" desert: domain/real-word-typos.ts): a match of every group through it is a tier. */
  meant?: readonly Mistyped[];
  /** What the query is of, when it says more (domain/query-meaning.ts): among partial matches, those matching it come first. */
  subject?: Term[];
  /** Only wallpapers whose titles match every group of `text` as typed (inflections, spellings and accents too), ranked as the search ranks them (domain/with-suggestion.ts). */
  whole?: true;
};
export interface IdParams {
  id: number;
}

export interface SuggestParams {
  q: string;
  limit: number;
}
