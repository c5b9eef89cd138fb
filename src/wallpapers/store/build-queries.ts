import type { estypes } from '@elastic/elasticsearch';
import type { Facet, Filters, ListParams, Mistyped, Position, SearchParams, SortOrder } from '../params.js';
import { formatResolution, parseResolution, sizeOfWord } from '../resolution.js';
import { type SearchQuery, type Term, isPlainWord, namesSizesOnly, wordsBesideSizes } from '../search-query.js';
import type { ShapeAsked } from '../query-filler.js';
import {
  COLOR_NAMES,
  HEX_CLOSENESS,
  MIN_SHARE,
  SHARE_TIERS,
  cellsNear,
  colorNameOfWord,
  colorNamesOf,
  readColor,
  tierTerm,
  toneOfWord,
} from '../colors.js';
import type { WallpaperDetail } from '../wallpaper.js';
import { CATEGORY_NAMED } from '../categories.js';
import { type KeyAndId, TOP_KEY, shuffleOf } from './shuffle.js';

/** Documented order of the list: newest first, ties by id descending (matches the index sort). */
export const LIST_SORT: estypes.Sort = [{ created_at: { order: 'desc' } }, { id: { order: 'desc' } }];

/** Relevance first; equal scores fall back to popularity, then id for a total order. */
export const SEARCH_SORT: estypes.Sort = ['_score', { downloads: { order: 'desc' } }, { id: { order: 'asc' } }];

// Every order ends with id, so it is total: pages never overlap or skip, and a cursor's position
// (the sort values of the last hit) is unique.
const SORTS: Record<SortOrder, estypes.Sort> = {
  newest: LIST_SORT,
  oldest: [{ created_at: { order: 'asc' } }, { id: { order: 'asc' } }],
  downloads: [{ downloads: { order: 'desc' } }, { id: { order: 'asc' } }],
  relevance: SEARCH_SORT,
  random: ['_score', { id: { order: 'asc' } }],
};
// A catalogue loaded before sort=random's keys is scored by a hash of seed and id.
const SCORED_RANDOM = SORTS.random;

/**
 * The version of relevance scoring. Raise it with any change that moves scores: a relevance walk's
 * position holds the score of its last hit, and read against other scores it repeated wallpapers
 * (a cursor of the build before, for "concert", gave page 1 again as page 2) or ended early
 * (helper-130). A walk begun on other scores ends with 410 instead, as docs/api.md says.
 */
export const RANKING = 2;

/**
 * Whether an order continues from a cursor's position: the sort values of one of its hits (all
 * numbers, whole but for a score), scored as this build scores (RANKING) when in relevance order,
 * or for sort=random a place along the seed's key. A cursor this build sealed always holds one; a
 * cursor kept across an upgrade that changed an order may not, and Elasticsearch would refuse its
 * values as a bad request.
 */
export function continuesFrom(sort: SortOrder, { after, shuffled, ranking }: Position): boolean {
  if (shuffled) return sort === 'random';
  if (sort === 'relevance' && ranking !== RANKING) return false;
  const fields = SORTS[sort] as readonly unknown[];
  return (
    after.length === fields.length && after.every((value, at) => (fields[at] === '_score' ? Number.isFinite(value) : Number.isSafeInteger(value)))
  );
}

type Clause = estypes.QueryDslQueryContainer;

const tier = (filter: Clause, boost: number): Clause => ({ constant_score: { filter, boost } });

// Filters on these fields can be faceted: each facet counts under every filter but its own (facetsBody).
const FACET_FIELDS: readonly Facet[] = ['category', 'resolution', 'orientation', 'ratio', 'tags', 'color', 'tone'];
// A facet lists at most this many values, most frequent first.
const FACET_SIZE: Record<Facet, number> = { category: 50, resolution: 50, orientation: 3, ratio: 20, tags: 50, color: COLOR_NAMES.length, tone: 2 };
// The indexed field each facet counts; named colours are kept flat beside the palette for it.
const FACET_INDEX_FIELD: Record<Facet, string> = {
  category: 'category',
  resolution: 'resolution',
  orientation: 'orientation',
  ratio: 'ratio',
  tags: 'tags',
  color: 'color_names',
  tone: 'tone',
};

function valuesClause(field: string, values: string | readonly string[]): Clause {
  if (typeof values === 'string' || values.length === 1) return { term: { [field]: typeof values === 'string' ? values : values[0]! } };
  return { terms: { [field]: [...values] } };
}

/**
 * Any of the colours asked: names through the named colours kept per wallpaper, hexes through the
 * cells their colours lie in (cellsNear: every colour kept there covers MIN_SHARE or more). A
 * catalogue indexed before palettes has neither field: it matches nothing until reindexed, rather
 * than failing.
 */
function colorFilter(colors: readonly string[]): Clause {
  const asked = colors.map(readColor);
  const names = asked.flatMap((color) => ('name' in color ? [color.name] : []));
  const cells = new Set(asked.flatMap((color) => ('lab' in color ? cellsNear(color.lab).map(({ cell }) => cell) : [])));
  const clauses: Clause[] = [
    ...(names.length > 0 ? [valuesClause('color_names', names)] : []),
    ...(cells.size > 0 ? [{ terms: { color_cells: [...cells] } }] : []),
  ];
  return clauses.length === 1 ? clauses[0]! : { bool: { should: clauses, minimum_should_match: 1 } };
}

function facetFilter(field: Facet, filters: Filters): Clause | null {
  const value = filters[field];
  if (value === undefined) return null;
  return field === 'color' ? colorFilter(value as readonly string[]) : valuesClause(FACET_INDEX_FIELD[field], value);
}

function minResolutionClauses({ min_resolution }: Filters): Clause[] {
  const at = min_resolution === undefined ? null : parseResolution(min_resolution);
  return at ? [{ range: { width: { gte: at.width } } }, { range: { height: { gte: at.height } } }] : [];
}

/** Filters no facet counts past: the minimum resolution, and what a client never wants to see again. */
function otherClauses(filters: Filters): Clause[] {
  const excluded: Clause[] = [
    ...(filters.exclude_tags ? [valuesClause('tags', filters.exclude_tags)] : []),
    ...(filters.exclude_ids ? [{ ids: { values: filters.exclude_ids.map(String) } }] : []),
  ];
  return [...minResolutionClauses(filters), ...(excluded.length > 0 ? [{ bool: { must_not: excluded } }] : [])];
}

export function filterClauses(filters: Filters): Clause[] {
  return [...FACET_FIELDS.map((field) => facetFilter(field, filters)).filter((c): c is Clause => c !== null), ...otherClauses(filters)];
}

// What sort=relevance adds for tags and colours asked for. Each tag matched is a tier of its own,
// above anything text scores (ALL_GROUPS and its sums stay below it), so "any of these tags"
// ranks by overlap first; the scores stay where a float still tells text scores apart. A colour
// adds up to COLOR_WEIGHT times the share of the picture it covers (the SHARE_TIERS step reached)
// and, for a hex, times how close it is (a Gaussian of the CIELAB distance, lightness included,
// scale HALF_CLOSE, at the middle of the RING-wide ring its cell's centre lies in); the best match
// counts, and each colour asked adds its own.
const TAG_TIER = 1_000_000;
const COLOR_WEIGHT = 1000;
const RING = 5;
const HALF_CLOSE = HEX_CLOSENESS.chroma / 2;

function closeness(distance: number): number {
  const middle = (Math.floor(distance / RING) + 0.5) * RING;
  return Math.exp(-Math.LN2 * (middle / HALF_CLOSE) ** 2);
}

/** Colours (cells or names) covering `share` or more: the plain terms for MIN_SHARE, tier terms above it. */
function sizedClause(keys: readonly string[], share: number, baseField: string, boost: number): Clause {
  const filter =
    share === MIN_SHARE
      ? valuesClause(baseField, keys)
      : valuesClause(
          'color_ranks',
          keys.map((key) => tierTerm(key, share)),
        );
  return tier(filter, boost);
}

function colorScore(color: string): Clause {
  const asked = readColor(color);
  if ('name' in asked) {
    return { dis_max: { queries: SHARE_TIERS.map((share) => sizedClause([asked.name], share, 'color_names', COLOR_WEIGHT * share)) } };
  }
  const rings = new Map<number, string[]>();
  for (const { cell, distance } of cellsNear(asked.lab)) {
    const weight = closeness(distance);
    const ring = rings.get(weight);
    if (ring) ring.push(cell);
    else rings.set(weight, [cell]);
  }
  const queries = [...rings].flatMap(([weight, cells]) =>
    SHARE_TIERS.map((share) => sizedClause(cells, share, 'color_cells', COLOR_WEIGHT * share * weight)),
  );
  return { dis_max: { queries } };
}

function relevanceClauses({ tags, color }: Filters): Clause[] {
  return [...(tags ?? []).map((tag) => tier({ term: { tags: tag } }, TAG_TIER)), ...(color ?? []).map(colorScore)];
}

/**
 * The whole kept document (CataloguedWallpaper): copying it costs Elasticsearch less than parsing
 * and filtering each one, and the edge shows what the contract asks.
 */
export const SOURCE = true;

/** Only the total, the documents and what a cursor needs come back. */
const SEARCH_RESPONSE_FILTER = ['hits.total.value', 'hits.hits._source', 'hits.hits._index', 'hits.hits.sort', 'aggregations'];

// The shard request cache skips requests with size > 0 unless asked. Asked, a repeated page or
// search costs only its fetch phase; entries are dropped whenever a refresh changes the index.
export const REQUEST_CACHE = true;

/** What one search asks, whether it goes alone (_search) or in a batch (_msearch). */
export type SearchBody = Required<Pick<estypes.MsearchMultisearchBody, 'size' | 'track_total_hits' | '_source' | 'sort' | 'query'>> &
  Pick<estypes.MsearchMultisearchBody, 'from' | 'search_after' | 'post_filter' | 'aggs'>;

// Every item keeps a field, so filtering never drops one and positions still match the request.
export const MGET_RESPONSE_FILTER = ['docs._id', 'docs.found', 'docs._source', 'docs.error.type'];

/** A list of ids in one multi-get, as the API sends it and as a client would send it straight to Elasticsearch. */
export function buildIdsRequest(alias: string, ids: readonly number[]): estypes.MgetRequest {
  return { index: alias, ids: ids.map(String), _source: SOURCE, filter_path: MGET_RESPONSE_FILTER };
}

/** The index a search reads: the one a cursor walk began on, or the live catalogue. */
export function searchIndex(alias: string, params: ListParams): string {
  return params.position?.index ?? alias;
}

/** A single search, as a client would send it straight to Elasticsearch (the catalogue checks of a copy send them). */
function searchRequest(alias: string, params: ListParams, body: SearchBody): estypes.SearchRequest {
  return { index: searchIndex(alias, params), filter_path: SEARCH_RESPONSE_FILTER, request_cache: REQUEST_CACHE, ...body };
}

function aggregations(facets: readonly Facet[], filters: Filters): Record<string, estypes.AggregationsAggregationContainer> {
  return Object.fromEntries(
    facets.map((facet) => {
      const others = FACET_FIELDS.filter((field) => field !== facet)
        .map((field) => facetFilter(field, filters))
        .filter((c): c is Clause => c !== null);
      const field = FACET_INDEX_FIELD[facet];
      const terms = { terms: { field, size: FACET_SIZE[facet], order: [{ _count: 'desc' as const }, { _key: 'asc' as const }] } };
      return [facet, { filter: others.length > 0 ? { bool: { filter: others } } : { match_all: {} }, aggs: { values: terms } }];
    }),
  );
}

// Where a cursor page starts in an order led by a field: Elasticsearch's search_after alone still
// walks every document before the position (page 10,000 of 1M at 100 a page cost 9 times page 1,
// measured), while a range on that field from the position skips them; search_after then settles
// ties exactly. The range has a cost of its own while it still matches most of the catalogue
// (2.7 times page 1 near the top), so it is used from RANGE_FROM_DEPTH results on, where the two
// cost the same (measured at 1M: bench/results/discovery).
const RANGE_FROM_DEPTH = 50_000;
const LEADING_FIELD: Partial<Record<SortOrder, { field: string; op: 'lte' | 'gte'; format?: string }>> = {
  newest: { field: 'created_at', op: 'lte', format: 'epoch_millis' },
  oldest: { field: 'created_at', op: 'gte', format: 'epoch_millis' },
  downloads: { field: 'downloads', op: 'lte' },
};

/** The total a walk's cursor carries, once the walk is deep enough that its pages do not count again. */
export function walkTotal({ position }: ListParams): number | undefined {
  return position && (position.depth ?? 0) >= RANGE_FROM_DEPTH ? position.total : undefined;
}

function fromPosition(sort: SortOrder, params: ListParams): Clause[] {
  const leading = LEADING_FIELD[sort];
  if (!leading || walkTotal(params) === undefined) return [];
  const { field, op, format } = leading;
  const position = params.position!;
  return [{ range: { [field]: { [op]: position.after[0], ...(format ? { format } : {}) } } }];
}

/**
 * Which read of a sort=random page a body is for (shuffled-pages.ts tells the story). Keyed reads
 * look at the seed's key (shuffle.ts) between `lowest` and `highest`: `after` a position by
 * search_after (or from the lowest), or from the `rank`-th key on, counting the keys between. A
 * walk's start bounds either by key, then by id where keys tie: from it on (`since`) or before it
 * (`until`). `count` is the total; `scored` is random_score, for a catalogue loaded before the keys.
 */
export type ShuffledRead =
  | { read: 'after'; after: readonly (string | number)[] | null; lowest: number; highest: number; size: number; counts?: boolean; until?: KeyAndId }
  | { read: 'rank'; from: number; lowest: number; highest: number; size: number; since?: KeyAndId; until?: KeyAndId }
  | { read: 'count' }
  | { read: 'scored' };

/**
 * Which read of a sort=oldest or sort=downloads page a body is for (windowed-pages.ts tells the
 * story): the page within a `window` of the order's leading field from the cursor's position (or
 * the first end) up to `end` (or the far end), which counts what it holds; how many such a window
 * would hold, counted alone (`held`); the total, counted apart (`count`).
 */
export type WindowRead = { read: 'window'; end: number | null } | { read: 'held'; end: number } | { read: 'count' };

/** A shuffled read of wallpapers, not of their count. */
type ShuffledHits = Exclude<ShuffledRead, { read: 'count' }>;

/**
 * A page in its whole order whose total is counted apart (`count`, see countBody), so that its
 * own read (`uncounted`) need not visit every match (es-repository.ts, searchPage).
 */
export type CountedRead = { read: 'uncounted' } | { read: 'count' };

/** Any read of a page but the single request a copy's checks send. */
export type PageRead = ShuffledRead | WindowRead | CountedRead;

/**
 * A page of sort=random as a single request, when no read is asked (a copy's checks): along the
 * seed's key from its offset, as a walk began before walks had starts. The API's own walks start
 * the seed's skip past the offset, which takes reads that know the count (shuffled-pages.ts).
 */
function firstRead(params: ListParams): ShuffledHits {
  const { position, page, per_page } = params;
  const { offset } = shuffleOf(params.seed ?? '');
  if (position) {
    return position.shuffled
      ? { read: 'after', after: position.after, lowest: Number(position.after[0]), highest: TOP_KEY, size: per_page }
      : { read: 'scored' };
  }
  if (page > 1) return { read: 'rank', from: (page - 1) * per_page, lowest: offset, highest: TOP_KEY, size: per_page };
  return { read: 'after', after: [offset, 0], lowest: offset, highest: TOP_KEY, size: per_page, counts: true };
}

// Unmapped: a catalogue loaded before the keys sorts every wallpaper as NO_KEY rather than failing,
// which is how a read learns it has to score (shuffled-pages.ts).
const shuffledSort = (field: string): estypes.Sort => [{ [field]: { order: 'asc', unmapped_type: 'integer' } }, { id: { order: 'asc' } }];

/**
 * The page and order around a query, and its filters: page numbers as from/size, or a cursor's
 * search_after; sort=random reads along the seed's key instead (`read`, see ShuffledRead). Facet
 * counts are a search of their own (facetsBody).
 */
function pageBody(params: ListParams, query: Clause | null, read?: PageRead): SearchBody {
  if (read?.read === 'count') return countBody(params, query);
  const sort = params.sort ?? (query === null ? 'newest' : 'relevance');
  if (read?.read === 'held') return countOf(withFilters(query, [...filterClauses(params), ...windowClauses(sort, params, read.end)]));
  const skip = read?.read === 'window' ? windowClauses(sort, params, read.end) : fromPosition(sort, params);
  const inQuery = [...filterClauses(params), ...skip];
  // Optional clauses: they order what the filters let through and never restrict it.
  const boosts = sort === 'relevance' ? relevanceClauses(params) : [];
  const filtered = withFilters(query, inQuery, boosts);
  if (sort === 'random') return shuffledBody(params, filtered, (read as ShuffledHits | undefined) ?? firstRead(params));
  return {
    ...(params.position ? { search_after: [...params.position.after] } : { from: (params.page - 1) * params.per_page }),
    size: params.per_page,
    // A window counts what it holds; the whole order is counted apart, as is an `uncounted` read's.
    // A walk's later pages know their total already (see fromPosition).
    track_total_hits: read?.read === 'window' || (read === undefined && skip.length === 0),
    sort: SORTS[sort],
    query: filtered,
    _source: SOURCE,
  };
}

/** Which way an order walks its leading field: `up` from the lowest (oldest first), `down` from the highest (most downloaded first). */
export type Direction = 'up' | 'down';

/**
 * The orders whose pages read a window of their leading field on a large catalogue (windowed-pages.ts),
 * which way they walk it, and which pages do: from what depth a page by number, and whether a
 * cursor page. Most downloaded first, Elasticsearch skips by the field's points: page 1 and a page
 * from a cursor's position take 4-12 ms at 10M, which a window did not beat, while page 400 took
 * 50-70 ms (bench/results/flat-with-size).
 */
export const WINDOWED_ORDERS: Partial<
  Record<SortOrder, { field: 'created_at' | 'downloads'; direction: Direction; fromDepth: number; cursor: boolean }>
> = {
  oldest: { field: 'created_at', direction: 'up', fromDepth: 0, cursor: true },
  downloads: { field: 'downloads', direction: 'down', fromDepth: 1000, cursor: false },
};

/**
 * The values a window of the order's leading field holds: from the cursor's position, if any, up
 * to `end`, if any. The index is sorted newest first, so a window of dates is one stretch of that
 * order; one of downloads is read from their points.
 */
function windowClauses(sort: SortOrder, { position }: ListParams, end: number | null): Clause[] {
  const { field, op, format } = LEADING_FIELD[sort]!;
  const toward = op === 'gte' ? 'lte' : 'gte';
  const values = { ...(position ? { [op]: position.after[0] } : {}), ...(end === null ? {} : { [toward]: end }) };
  return Object.keys(values).length === 0 ? [] : [{ range: { [field]: { ...values, ...(format ? { format } : {}) } } }];
}

/** A read of a sort=random page (ShuffledRead) around the filtered query. */
function shuffledBody(params: ListParams, filtered: Clause, shuffled: ShuffledHits): SearchBody {
  const { field } = shuffleOf(params.seed ?? '');
  switch (shuffled.read) {
    case 'after':
    case 'rank': {
      const keys = { range: { [field]: { gte: shuffled.lowest, lte: shuffled.highest } } };
      const beside = tiesAtStart(field, shuffled);
      const at = shuffled.read === 'rank' ? { from: shuffled.from } : shuffled.after === null ? {} : { search_after: [...shuffled.after] };
      return {
        _source: SOURCE,
        ...at,
        size: shuffled.size,
        // A rank read counts the keys of its span: whether they held the page, or how many a lap holds.
        track_total_hits: shuffled.read === 'rank' || shuffled.counts === true,
        sort: shuffledSort(field),
        // A counting read counts every match, so its keys are a sort, not a filter.
        query:
          shuffled.read === 'after' && shuffled.counts
            ? filtered
            : { bool: { filter: [filtered, keys], ...(beside.length > 0 ? { must_not: beside } : {}) } },
      };
    }
    case 'scored': {
      const scored = {
        function_score: {
          query: filtered,
          functions: [{ random_score: { seed: params.seed ?? '', field: 'id' } }],
          boost_mode: 'replace' as const,
        },
      };
      const at = params.position ? { search_after: [...params.position.after] } : { from: (params.page - 1) * params.per_page };
      return {
        _source: SOURCE,
        ...at,
        size: params.per_page,
        // Counted on every page, as a walk by score always was: an import may add to it mid-walk.
        track_total_hits: true,
        sort: SCORED_RANDOM,
        query: scored,
      };
    }
  }
}

/**
 * The wallpapers on the key of a walk's start that lie on its other side by id: before it (for a
 * read `since` the start) or from it on (`until`). Keys are a bijection of ids below 2^32
 * (shuffle.ts), so this is one wallpaper at most there; the read stays a range of the key.
 */
function tiesAtStart(field: string, { since, until }: { since?: KeyAndId; until?: KeyAndId }): Clause[] {
  const tied = ([key]: KeyAndId, ids: estypes.QueryDslNumberRangeQuery): Clause => ({
    bool: { filter: [{ term: { [field]: key } }, { range: { id: ids } }] },
  });
  return [...(since ? [tied(since, { lt: since[1] })] : []), ...(until ? [tied(until, { gte: until[1] })] : [])];
}

/** A count of what a query matches, and nothing else. */
const countOf = (query: Clause): SearchBody => ({ _source: false, size: 0, track_total_hits: true, sort: [], query });

/**
 * How many wallpapers a query matches under its filters: a search apart from the page's, which
 * then need not count. A page that does not count lets Elasticsearch skip what cannot reach it (a
 * sorted field's points, block-max scores), and this body is the same for every page, length,
 * order and cursor of one query and filter set, so Elasticsearch's shard request cache answers it
 * until a refresh changes the index.
 */
function countBody(params: ListParams, query: Clause | null): SearchBody {
  return countOf(withFilters(query, filterClauses(params)));
}

/** A query with filters (and optional boosts) around it; a list's query is the filters alone. */
function withFilters(query: Clause | null, filters: Clause[], boosts: Clause[] = []): Clause {
  const should = boosts.length > 0 ? { should: boosts, minimum_should_match: 0 } : {};
  if (query === null) return filters.length > 0 || boosts.length > 0 ? { bool: { filter: filters, ...should } } : { match_all: {} };
  if (filters.length === 0 && boosts.length === 0) return query;
  if (query.bool && query.bool.filter === undefined && boosts.length === 0) return { bool: { ...query.bool, filter: filters } };
  return { bool: { must: [query], filter: filters, ...should } };
}

/**
 * The counts of the facets asked, a search apart from the page's: the query under every filter
 * no facet counts past, each facet under the facet filters but its own (aggregations). Nothing in
 * it depends on the page, its length, its order or a cursor, so every page of one query and filter
 * set sends the same body, and Elasticsearch's shard request cache answers all but the first from
 * memory until a refresh changes the index: counts kept per catalogue version. At 10M wallpapers
 * counting took 130 ms a page, every page (bench/results/flat-with-size).
 */
function facetsBody(params: ListParams, query: Clause | null): SearchBody {
  const facets = params.facets ?? [];
  return {
    size: 0,
    track_total_hits: false,
    _source: false,
    sort: [],
    query: withFilters(query, otherClauses(params)),
    aggs: aggregations(facets, params),
  };
}

export function listBody(params: ListParams, read?: PageRead): SearchBody {
  return pageBody(params, null, read);
}

export function listFacetsBody(params: ListParams): SearchBody {
  return facetsBody(params, null);
}

export function buildListRequest(alias: string, params: ListParams): estypes.SearchRequest {
  return searchRequest(alias, params, listBody(params));
}

// Where words are looked for, and how much each field weighs in the relevance score: the title
// over the description, the unstemmed title (`.exact`) over the stemmed one so an exact word ranks
// above an inflection, and the category's name ("ocean waves") as text.
const MATCH_FIELDS = ['title.exact^4', 'title^3', 'description', 'category.text^2'];
// Typos are looked for in the title as written (`.exact`), the description and the category's
// name. The stemmer would cut a typo before it is matched ("sunris" is sunri, "vally" val, two
// edits or more from sunrise and valley), so titles are matched unstemmed; a category's name is
// often the only place its word stands ("ocaen"). One edit from 4 letters, two from 8, ten
// candidate terms per word: fuzzy clauses are the costliest part of a search, and these bounds
// brought it back to the cost of the plain search before. The category names' dictionary holds a
// few dozen words, so reading it costs nothing measurable (bench/results/typos-unstemmed.md).
const FUZZY_FIELDS = ['title.exact^3', 'description', 'category.text^2'];
/** How a term is matched: as typed, or through a typo. */
type Mode = 'exact' | 'fuzzy';
const FUZZINESS = 'AUTO:4,8';
const MAX_EXPANSIONS = 10;
const PHRASE_FIELDS = ['title^3', 'description'];
// Where a phrase's words in a title are scored (titledClause), as MATCH_FIELDS weighs a title.
const TITLE_FIELDS = ['title.exact^4', 'title^3'];
/**
 * The titles that say a phrase people type for a catalogue word in its own words (Term.titled): its
 * first word their head (title.head), what the title is of, and its others anywhere in them, the
 * setting's too: "Roses in the Garden" and "Garden Roses" for rose garden, "Tulips in a Field" for
 * tulip fields. Not where the first word only describes the head: as any two words of the title,
 * "flat white" had ranked "Flat Tree in Black and White" above the coffee it stands for, "golden
 * light" "Golden Pizza in Soft Light" above the golden hours, "dark blue" "Dark Code in Blue" above
 * the navy. An index made before title.head has none of these, and ranks as before.
 */
function titledClause(text: string): Clause {
  const [head, ...others] = text.split(' ');
  return {
    bool: {
      filter: [inTitleHead(head!), { match: { title: { query: others.join(' '), operator: 'and' } } }],
      // Scored as its words in a title are when typed apart, every one of them: beside another word
      // ("sunflowers field sunset"), the phrase weighs as the two words it is. Scored as one word,
      // the "Racer at Sunset" had ranked above every sunflower field (helper-167).
      must: [{ multi_match: { query: text, fields: TITLE_FIELDS } }],
    },
  };
}

// How matches weigh: matching every group is a tier of its own, far above any sum of the rest; a
// group matched as typed weighs its BM25 score a hundred times, so it outranks a group matched
// only through a typo (BM25 at weight 1); BM25 orders results within each of those.
const ALL_GROUPS = 100_000;
const AS_TYPED = 100;
// Every group matched, some only through a typo in a word no dictionary knows ("sunsett beach"): as
// high as every group matched through meaning (at most MEANING_TIER), above any partial match.
// Without it the word typed right outweighed the one typed wrong a hundred times, and "sunsett
// beach" ranked every beach above the sunset beaches. A real word the catalogue lacks is no sure
// typo and gets no such tier: "lost bridge" would rank the "Last Train" scenes first, "love in the
// rain" lone wolves, "roof city" the "room" of every other description, "latte" late autumn. Unless
// the other words say which word was meant ("dessert dunes": desert, domain/real-word-typos.ts):
// then that word, as typed, and not any other a typo reaches ("rain story" is storm, not store).
const ALL_GROUPS_THROUGH_TYPOS = 50_000;

/**
 * What of a picture a word typed matches besides its text. `sizes`: a size, the wallpapers of that
 * resolution (sizeClause). `pixelsWhere`: a colour or tone, the pictures that have it
 * (pixelsOfWord) and match this clause (pixelsNamingSubject), where the query's groups are matched
 * as typed: a red rose is a rose whose pixels are red ("red rose" had ranked red pandas first
 * without it). Pixels never count in the meaning tier nor for a stand-in (`blu` read as blue had
 * matched 7,000 pictures and put the Midnight Blue cars at 47), nor in an exclusion, which ranks
 * the pictures it covers lower instead (EXCLUDED_SHARE).
 */
type Picture = { sizes: boolean; pixelsWhere?: Clause };
const SIZES: Picture = { sizes: true };
// Beside other words, a size or a colour finds nothing on its own, as buildSearchQuery says.
const TEXT_ONLY: Picture = { sizes: false };

/** A term's clause: its words in the text and, as `picture` says, in the picture. */
function termClause(term: Term, mode: Mode, zeroTerms: 'all' | 'none' = 'none', picture: Picture = SIZES): Clause {
  const { text, phrase } = term;
  if (phrase) return { multi_match: { query: text, type: 'phrase', fields: PHRASE_FIELDS, zero_terms_query: zeroTerms } };
  if (term.titled) return titledClause(text);
  const { pixelsWhere } = picture;
  const held = pixelsWhere !== undefined && mode === 'exact' ? pixelsOfWord(term) : null;
  if (held !== null) {
    return { bool: { should: [outsideCompounds(wordsClause(text, 'exact', 'none'), term), onlyWhere(held, pixelsWhere!)], minimum_should_match: 1 } };
  }
  const words = text.split(' ');
  const sizes = words.filter(isSize);
  const others = words.filter((word) => !isSize(word));
  if (sizes.length === 0 || (others.length === 0 && !picture.sizes))
    return mode === 'exact' ? outsideCompounds(wordsClause(text, mode, zeroTerms), term) : wordsClause(text, mode, zeroTerms);
  // A size in a joined term that stays one (among alternatives, or excluded: "-sunset-1920x1080";
  // elsewhere a file's name is read apart, query-filler.ts) is matched as a size, beside the other
  // words, all of which the term still needs.
  const clauses = [...(others.length > 0 ? [wordsClause(others.join(' '), mode, zeroTerms)] : []), ...sizes.map(sizeClause)];
  return clauses.length === 1 ? clauses[0]! : { bool: { must: clauses } };
}

function wordsClause(text: string, mode: Mode, zeroTerms: 'all' | 'none'): Clause {
  if (mode === 'fuzzy') {
    return {
      multi_match: { query: text, fields: FUZZY_FIELDS, operator: 'and', fuzziness: FUZZINESS, prefix_length: 1, max_expansions: MAX_EXPANSIONS },
    };
  }
  return { multi_match: { query: text, fields: MATCH_FIELDS, operator: 'and', zero_terms_query: zeroTerms } };
}

const isSize = (word: string): boolean => sizeOfWord(word) !== null;

// The text fields where a word stands outside the compounds that hold it (Term.apart), as the
// search reads them (stemmed: "Snow Leopards" is as much a snow leopard); the category's name is
// never one.
const APART_FIELDS = ['title', 'description'];

/**
 * A word's clause, matching only where the word stands outside the catalogue's compounds that name
 * another thing with it (Term.apart): "Snow Leopard in the Snow" says snow, "Snow Leopard at
 * Sunset" does not. As it is for any other term. Intervals are read where the clause matches only,
 * and only for such a word (bench/results/compounds-apart.md).
 */
function outsideCompounds(clause: Clause, { text, apart }: Term): Clause {
  if (apart === undefined || apart.length === 0) return clause;
  const notWithin = {
    not_overlapping: { any_of: { intervals: apart.map((compound) => ({ match: { query: compound, ordered: true, max_gaps: 0 } })) } },
  };
  const standsOutside: Clause[] = APART_FIELDS.map((field) => ({ intervals: { [field]: { match: { query: text, filter: notWithin } } } }));
  return {
    bool: { must: [clause], filter: [{ bool: { should: [...standsOutside, { match: { 'category.text': text } }], minimum_should_match: 1 } }] },
  };
}

/** A term without its compounds apart: what matched before they were known (buildSearchQuery's last resort). */
const withoutApart = ({ apart: _, ...term }: Term): Term => term;

// A colour typed as a word ("yellow", "green forest") is the wallpapers whose pixels hold it
// (MIN_SHARE or more, as the `color` filter reads it), as well as any whose text says it: most
// pictures never name their colours. The palette weighs PALETTE_WEIGHT times the share the colour
// covers (its SHARE_TIERS step), so a colour filling half the picture counts about as much as the
// word in a title does (BM25 14-23 on the demo catalogue). Never through a typo: one edit from a
// colour is another word ("mellow").
const PALETTE_WEIGHT = 30;

// A word that names a tone ("dark forest", "amoled", colors.ts) is, as a colour word is, the
// wallpapers whose pixels have it as well as any whose text says it: the demo catalogue's dark
// forests are "Forest at Twilight" and "Pine Forest at Dusk", and "dark forest" had ranked the light
// "Ancient Forest" scenes first, "dark nature" the "Dark Spaceship" of the games (helper-160). The
// tone weighs as a colour covering half the picture (PALETTE_WEIGHT times 0.5): it is the whole
// picture's, and a title that says the word still ranks above a picture that only is so. A word
// that names what has the tone ("night") only ranks by it: a dark picture is no night scene, and
// matched, the dark games "in Neon City" had outranked the cities at night for "city at night"
// (helper-161).
const TONE_WEIGHT = PALETTE_WEIGHT / 2;

/** The pictures a colour word holds, scored by the share it covers; null for another word. */
function paletteOfWord(text: string): Clause | null {
  const color = colorNameOfWord(text);
  return color === null
    ? null
    : { dis_max: { queries: SHARE_TIERS.map((share) => sizedClause([color], share, 'color_names', PALETTE_WEIGHT * share)) } };
}

/**
 * The pictures a colour word or a word naming a tone typed plainly has, scored as above; with
 * `implied`, also those of the tone a word implies ("night"), which rank but do not match, and for
 * a colour that implies one ("black"), the more of its palette's score and its tone's. Null for any
 * other term.
 */
function pixelsOfWord(term: Term, implied = false): Clause | null {
  // A quoted word is the word as typed, in the text alone: never its pixels.
  if (!isPlainWord(term)) return null;
  const tone = toneOfWord(term.text);
  const palette = paletteOfWord(term.text);
  const toned = tone && (tone.named || implied) ? tier({ term: { tone: tone.tone } }, TONE_WEIGHT) : null;
  return palette !== null && toned !== null ? { dis_max: { queries: [palette, toned] } } : (palette ?? toned);
}

// An excluded colour ("flowers but not pink") is the text that names it, which no result may
// hold, and the pictures it covers 30 % or more of (EXCLUDED_SHARE: the tiers at and above it),
// which rank below the others the query finds rather than go: a palette is the whole picture, not
// its subject, so leaving them out had left `forest -green` no forest (every demo forest is green),
// `roses -red` no rose and `cars -black` a seventh of the cars, whose dark backgrounds are black
// (helper-137). Demoted by what a subject match adds (SUBJECT), within the tier a wallpaper is in.
const EXCLUDED_SHARE = 0.3;

/**
 * What the pictures hold of the colours and tones a query excludes by word, unquoted ("city but not
 * at night" ranks the dark cities last, as an excluded colour does the pictures it covers); null
 * without.
 */
function excludedPixels({ excluded }: SearchQuery): Clause | null {
  const covering = SHARE_TIERS.filter((share) => share >= EXCLUDED_SHARE);
  const plain = excluded.filter(isPlainWord);
  const colors = plain.flatMap(({ text }) => colorNameOfWord(text) ?? []).flatMap((color) => covering.map((share) => tierTerm(color, share)));
  const tones = [...new Set(plain.flatMap(({ text }) => toneOfWord(text)?.tone ?? []))];
  const held: Clause[] = [
    ...(colors.length > 0 ? [{ terms: { color_ranks: colors } }] : []),
    ...(tones.length > 0 ? [{ terms: { tone: tones } }] : []),
  ];
  return held.length === 0 ? null : { bool: { should: held, minimum_should_match: 1 } };
}

// A size typed as a word is the wallpapers of that resolution, as well as any whose text says it:
// people search by the size of their screen. Alone ("1920x1080") it finds them; beside other words
// ("1920x1080 mountain") it ranks what they find (Picture). Never through a typo: one edit from a
// size is another size.
function sizeClause(word: string): Clause {
  const resolution = formatResolution(sizeOfWord(word)!);
  return {
    bool: {
      should: [{ multi_match: { query: word, fields: MATCH_FIELDS } }, { constant_score: { filter: { term: { resolution } } } }],
      minimum_should_match: 1,
    },
  };
}

// Typos are looked for only where a correction can land on a word of the catalogue, which is
// written in English: words of 4 to 12 Latin letters (and digits; no word of the catalogue is
// longer), in at most 3 terms of a query.
// Fuzzy matching builds an automaton per word whose cost grows with its length and alphabet: one
// 199-syllable Hangul word took Elasticsearch 385 ms at two edits, against 2 ms exact
// (bench/results/adversarial-review), and can never correct to an English word anyway.
const TYPO_WORD = /^(?=.*\p{L})[\p{Script=Latin}\p{N}]{4,12}$/u;
const MAX_TYPO_TERMS = 3;
// A word in quotes keeps its exact meaning: never a typo, as never a meaning (docs/api.md). Nor is
// a colour (pixelsOfWord).
const typoTolerant = (term: Term) => {
  const words = term.phrase || term.quoted || term.titled || colorNameOfWord(term.text) !== null ? [] : wordsOf(term);
  return words.length > 0 && words.every((word) => TYPO_WORD.test(word));
};

// A term's words that a typo may be in: not its sizes (sizeClause).
const wordsOf = ({ text }: Term) =>
  text
    .toLowerCase()
    .split(' ')
    .filter((word) => !isSize(word));

// Words of a query asked whether they occur, so that the typo slots go to words that do not.
const MAX_TYPO_ASKED = 8;

/**
 * Each group's terms that typos are looked for in: the first MAX_TYPO_TERMS of the query that a
 * correction can land on, not counting those whose words all match some wallpaper as typed
 * (`occurring`). A real word is what it says: "noon" must not also find every "neon", and
 * "ocean beach forest montain" still corrects montain.
 */
function typoGroups(groups: readonly Term[][], occurring: ReadonlySet<string>): Term[][] {
  let left = MAX_TYPO_TERMS;
  return groups.map((group) => {
    const terms = group
      .filter(typoTolerant)
      .filter((term) => !wordsOf(term).every((word) => occurring.has(word)))
      .slice(0, Math.max(0, left));
    left -= terms.length;
    return terms;
  });
}

/** The words of a query that typos may be looked for in, lower-cased: those to ask whether they occur. */
export function typoWords({ groups }: SearchQuery): string[] {
  return [...new Set(groups.flatMap((group) => group.filter(typoTolerant)).flatMap(wordsOf))].slice(0, MAX_TYPO_ASKED);
}

/**
 * A group matched as typed or, where a typo is looked for in it, through one; or through the word
 * a real word was typed for (`corrected`: its terms with that word), as typed, and no other.
 */
function typedOrTypo(group: Term[], typos: Term[], corrected: Term[], pixelsWhere: Clause): Clause {
  const typed = groupClause(group, 'exact', 'all', undefined, { sizes: true, pixelsWhere });
  const others = [...(typos.length > 0 ? [groupClause(typos, 'fuzzy')] : []), ...(corrected.length > 0 ? [groupClause(corrected, 'exact')] : [])];
  return others.length === 0 ? typed : { bool: { should: [typed, ...others], minimum_should_match: 1 } };
}

/** A group's terms holding a word typed for another (SearchParams.meant), with the word meant in its place. */
function correctedTerms(group: readonly Term[], meant: ReadonlyMap<string, string>): Term[] {
  return group.filter((term) => holdsTypoOf(term, meant)).map((term) => ({ text: meantIn(term, meant), phrase: false }));
}

const holdsTypoOf = (term: Term, meant: ReadonlyMap<string, string>) => typoTolerant(term) && wordsOf(term).some((word) => meant.has(word));

const meantIn = (term: Term, meant: ReadonlyMap<string, string>) =>
  term.text
    .toLowerCase()
    .split(' ')
    .map((word) => meant.get(word) ?? word)
    .join(' ');

/** The query with each word typed for another in its place, in the terms a typo is looked for in (domain/with-suggestion.ts). */
export function withWordsMeant(text: SearchQuery, meant: readonly Mistyped[]): SearchQuery {
  const meantFor = new Map(meant.map(({ typed, meant: word }) => [typed, word]));
  const groups = text.groups.map((group) => group.map((term) => (holdsTypoOf(term, meantFor) ? { ...term, text: meantIn(term, meantFor) } : term)));
  return { ...text, groups };
}

// A word that is the head of a title (`title.head`: its last word before the first that begins a
// setting, "at", "in", "beyond", …, the noun the words before it describe: "Snow Leopard" is a
// leopard; the analysis plugin's wpc_title_head) adds this much to a group matched as typed, about
// what the word in a title scores (BM25 5-10 at the title's weight): the wallpaper is of it.
// Without it the word as written in a setting outranked it as the subject, the unstemmed title
// weighing more than the stemmed one and the rarer form scoring higher: "mountains" ranked every
// "… beyond the Mountains" above the mountains. Only the last word: when every word before the
// setting counted, "midnight" ranked the "Midnight Blue" cars above every scene at midnight and
// "mountain road" the mountain ranges above the mountain roads (helper-164). Kept at index time: a
// query asking where a word stands cost 1.15-2.3 times the search (bench/results/title-head.md).
// An index made before the field has none, and ranks as before until reindexed.
const HEAD_WEIGHT = 10;

/** The wallpapers whose title's head is a word, inflections too. */
const inTitleHead = (word: string): Clause => ({ match: { 'title.head': word } });

/** A term's word in the head of a title, weighed HEAD_WEIGHT; a phrase, a stand-in or several words have none. */
const headOf = (term: Term): Clause[] =>
  term.phrase || term.similarity !== undefined || term.text.includes(' ') ? [] : [tier(inTitleHead(term.text), HEAD_WEIGHT)];

/**
 * A group's clause; with a boost (the tier of groups matched as typed), a term in a title's head
 * scores HEAD_WEIGHT more, matching nothing its term does not.
 */
function groupClause(group: Term[], mode: Mode, zeroTerms: 'all' | 'none' = 'none', boost?: number, picture: Picture = SIZES): Clause {
  const clauses = group.map((term) => termClause(term, mode, zeroTerms, picture));
  const clause = clauses.length === 1 ? clauses[0]! : { bool: { should: clauses, minimum_should_match: 1 } };
  return boost === undefined ? clause : { bool: { should: [clause, ...(mode === 'exact' ? group.flatMap(headOf) : [])], boost } };
}

/** What matches every group of a query as typed (or through inflections, spellings and accents), a size's resolution, a colour's pixels where `pixelsWhere` matches. */
const everyGroup = ({ groups }: SearchQuery, pixelsWhere: Clause): Clause => ({
  bool: { must: groups.map((group) => groupClause(group, 'exact', 'all', undefined, { sizes: true, pixelsWhere })) },
});

const ANYWHERE: Clause = { match_all: {} };

/** A clause, matching only where `where` does (ANYWHERE: as it is). */
const onlyWhere = (clause: Clause, where: Clause): Clause => (where === ANYWHERE ? clause : { bool: { must: [clause], filter: [where] } });

/** A term matched in `fields` alone: a phrase as a phrase, several words every one of them. */
const termIn = (fields: string[], { text, phrase }: Term, zeroTerms?: 'all'): Clause => ({
  multi_match: { query: text, fields, ...(phrase ? { type: 'phrase' } : { operator: 'and' }), ...(zeroTerms ? { zero_terms_query: zeroTerms } : {}) },
});

/**
 * Where a colour's or tone's pixels answer for its word beside the query's subject, when that is a
 * figure (Term.figure) the catalogue's titles call by other words (stand-ins: `cat`, the kittens):
 * where a title or category names it, by its word or a stand-in. The pixels are the whole
 * picture's, so they describe what it is of, not a figure in a corner of its description: the dark
 * anime scenes "with a cat asleep in the corner" matched every group of `black cat` as typed, the
 * kittens none, and `orange cat` ranked the "… under Falling Petals" above every kitten. Anywhere
 * otherwise. A subject that fills its picture is as its description says ("red sky": the glaciers
 * at sunrise "under a sky …", not every sky island, whatever its colour). Named as typed, its
 * titles match every group too and rank first by their words ("red lighthouse"); named by no
 * title, a description is all there is ("dark anime girl": the dark scenes "with a girl watching
 * the clouds go by").
 */
function pixelsNamingSubject(subject: readonly Term[] | undefined): Clause {
  const named = (subject ?? []).filter((term) => pixelsOfWord(term) === null);
  if (!named.some((term) => term.figure) || !named.some((term) => term.similarity !== undefined)) return ANYWHERE;
  const inTitle = (term: Term): Clause => termIn(['title.exact', 'title', 'category.text'], term);
  return named.length === 1 ? inTitle(named[0]!) : { bool: { should: named.map(inTitle), minimum_should_match: 1 } };
}

/**
 * What has every group of a query in its title (inflections, spellings and accents too): what the
 * wallpaper is of, not what its description happens to say ("room" of "leaves room for desktop
 * icons" is in one description in eight of the demo catalogue's).
 */
function everyGroupInTitles({ groups }: SearchQuery): Clause {
  const inTitle = (term: Term): Clause => termIn(['title.exact', 'title'], term, 'all');
  return { bool: { must: groups.map((group) => ({ bool: { should: group.map(inTitle), minimum_should_match: 1 } })) } };
}

/** What is known of a query's words as typed (domain/with-typos.ts). */
export type TypedWords = Pick<SearchParams, 'occurring' | 'known' | 'meant' | 'subject'>;

/**
 * The search for a parsed query: a result must match at least one group (as typed or with a
 * typo: a group's typo clause also matches what matches as typed; see typoGroups for where typos
 * are looked for) and no excluded term.
 * Every group matched puts it in the top tier; below that, groups matched as typed count a
 * hundred times those matched through a typo.
 */
export function buildSearchQuery(
  { groups, excluded, shape }: SearchQuery,
  { occurring = [], known = [], meant = [], subject }: TypedWords = {},
): Clause {
  // A query that only asked for wallpapers (SearchQuery.every): all of them score alike, so the
  // order is the tie-break's, the most downloaded first. A sharpness its words ask for ("4k") is
  // what it finds, as a size typed finds that size; an orientation ("iphone wallpapers") or a
  // screen's ratios ("ipad") rank first, as beside a subject: filtered by both, "4k phone
  // wallpaper" had found nothing, as no upright wallpaper is that sharp (helper-125).
  if (groups.length === 0) {
    const { atLeast, ...ranked } = shape ?? {};
    const ranks = shapeClauses(ranked);
    return {
      bool: {
        must: [{ match_all: {} }],
        ...(atLeast ? { filter: shapeClauses({ atLeast }) } : {}),
        ...(ranks.length > 0 ? { should: ranks.map((clause) => tier(clause, SHAPE_TIER)) } : {}),
        must_not: excluded.map((term) => termClause(term, 'exact')),
      },
    };
  }
  const typos = typoGroups(groups, new Set(occurring));
  const knownWords = new Set(known);
  const sureTypos = typos.map((terms) => terms.filter((term) => !wordsOf(term).some((word) => knownWords.has(word))));
  const meantFor = new Map(meant.map(({ typed, meant: word }) => [typed, word]));
  const corrected = groups.map((group) => correctedTerms(group, meantFor));
  const throughTypos = groups.length > 1 && [...sureTypos, ...corrected].some((terms) => terms.length > 0);
  // Beside other words, a colour or tone word's pixels count where every group matches, and find
  // nothing on their own: "red car" is the cars and what says red, not every red picture (1,888 of
  // the demo catalogue's 10,000), and "dark forest" not every dark one (4,320); withPixelsRanked
  // orders them. Alone ("red", "dark"), the word finds its pictures. So does a size: "1920x1080
  // lake" is the lakes, that size first, and what says 1920x1080, not every wallpaper of that size
  // (2,121 of the 10,000; the lakes were 108 of the 2,201 it found), as "lake 4k" is the lakes;
  // withSizesRanked orders them. Sizes typed apart are one group (readSearchText), so alone they find
  // their wallpapers; beside words that find nothing, domain/with-sizes-found.ts finds them.
  const alone = groups.length === 1;
  const sizesBeside = wordsBesideSizes(groups);
  const pixelsWhere = pixelsNamingSubject(subject);
  return {
    bool: {
      minimum_should_match: 1,
      should: [
        // With one group the per-group tier says it all. Common words in a group are dropped by the
        // analyzer; such a group stands aside here.
        ...(groups.length > 1 ? [tier(everyGroup({ groups, excluded }, pixelsWhere), ALL_GROUPS)] : []),
        ...(throughTypos
          ? [
              tier(
                { bool: { must: groups.map((group, i) => typedOrTypo(group, sureTypos[i]!, corrected[i]!, pixelsWhere)) } },
                ALL_GROUPS_THROUGH_TYPOS,
              ),
            ]
          : []),
        ...groups.map((group) =>
          groupClause(group, 'exact', 'none', AS_TYPED, alone ? { sizes: true, pixelsWhere: ANYWHERE } : sizesBeside ? TEXT_ONLY : SIZES),
        ),
        ...typos.filter((terms) => terms.length > 0).map((terms) => groupClause(terms, 'fuzzy')),
        // A word standing only inside a compound naming another thing still matches, as a typo
        // does: below every other result, and never lost.
        ...groups.filter((group) => group.some((term) => term.apart !== undefined)).map((group) => groupClause(group.map(withoutApart), 'exact')),
      ],
      must_not: excluded.map((term) => termClause(term, 'exact')),
    },
  };
}

// What a query means, when the words typed alone miss: every group matched by a word of the same
// meaning (the word typed counts 1, another word its similarity) is a tier below matching every
// word as typed (ALL_GROUPS) and above matching only some of them (AS_TYPED times BM25, a few
// thousand at most), ordered by how close the words are. Measured in bench/results/meaning-routes.md.
const MEANING_TIER = 50_000;
// A group matched through meaning while others are not matched at all: a partial match like one of
// words as typed (AS_TYPED times BM25, mostly 1,000 to 2,500), a little below it at equal coverage.
const MEANING_PARTIAL = 1_000;

// A word as typed that names a pictured thing (Term.thing), found only in a wallpaper's description,
// alone in its title's setting ("Castle beyond the Mountains" for mountains), or in its title only
// as another word the stemmer makes the same, counts this much in the meaning tier of what it counts
// written so in its title or category, what the wallpaper is of (namedClause): below a word
// standing for it in a title (the thesaurus's 0.8 and 0.9). So "cat" ranks the kittens, cats by the
// thesaurus, above the anime scenes "with a cat asleep in the corner", which it had ranked first (so
// had "cats"), and "streams" the creeks above the "Data Stream". Only a thing: a quality a
// description gives is the picture's ("cold", "aerial", "underwater"), and discounted, the words
// standing for it had come first, opposites among them ("warm" for cold; helper-130). Not a
// stand-in: found in a description, it still says what the typed word asks ("skyscraper" is the
// cities "with fog swallowing the tallest towers", not the fantasy "Crystal Tower" titles).
const DESCRIBED = 0.7;

/**
 * A term matched where a wallpaper is named: a word as written in the title, or in the category's
 * name, a phrase in the title; what it is of, not what its description mentions nor a word the
 * stemmer reads alike. `alone` (the query's only group): in the title's subject only (its words
 * before any setting, `title.subject`), so "mountains" is not what "Castle beyond the Mountains"
 * is of. Beside other words a setting may be what is asked ("mountain road" is the roads "on a
 * Mountain Road", not the mountain ranges). Named by its head only, "alpine" had ranked the "… in
 * the Alps" (a stand-in, anywhere) above the alpine lakes, "sky" the clouds above the sky islands
 * (helper-165).
 */
function namedClause(term: Term, alone: boolean): Clause {
  const { text, phrase, apart = [] } = term;
  if (phrase) return { match_phrase: { title: { query: text } } };
  const named = namedAs(text, alone);
  // A title naming a compound that holds the word names that thing ("Snow Leopard at Dawn"): the
  // title's subject field keeps no positions to say whether the word also stands apart in it.
  return apart.length === 0 ? named : { bool: { must: [named], must_not: apart.map((compound) => ({ match_phrase: { title: compound } })) } };
}

function namedAs(text: string, alone: boolean): Clause {
  if (!alone || text.includes(' ')) return { multi_match: { query: text, fields: ['title.exact', 'category.text'], operator: 'and' } };
  const asWritten: Clause = { match: { 'title.exact': text } };
  // An index made before the field is named by a title's words anywhere. Every title of a newer one has
  // a subject (the whole title when it begins with its setting), and the field keeps norms, so
  // Elasticsearch reads "no subject" there as matching nothing and drops this clause: asked of each
  // document, it had cost 16 alternatives 1.35-1.49 times their p50 at 1M (bench/results/title-head.md).
  const subjectless: Clause = { bool: { must: [asWritten], must_not: [{ exists: { field: 'title.subject' } }] } };
  return {
    bool: { should: [{ match: { 'title.subject': text } }, subjectless, { match: { 'category.text': text } }], minimum_should_match: 1 },
  };
}

/** A term of the meaning tier: its weight; for a thing as typed, DESCRIBED of it where not named (namedClause: `alone`). */
function meaningTerm(term: Term, weight: number, alone: boolean): Clause {
  // A size is the wallpaper's resolution as much as its text (sizeClause).
  if (!term.thing || term.text.split(' ').some(isSize)) return tier(termClause(term, 'exact'), weight);
  return { dis_max: { queries: [tier(namedClause(term, alone), weight), tier(termClause(term, 'exact'), weight * DESCRIBED)] } };
}

function meaningClause({ groups, excluded }: SearchQuery): Clause {
  const perGroup = MEANING_TIER / groups.length;
  const everyGroup: Clause = {
    bool: {
      must: groups.map((group) => ({
        dis_max: { queries: group.map((term) => meaningTerm(term, perGroup * (term.similarity ?? 1), groups.length === 1)) },
      })),
    },
  };
  // Some of the groups through meaning: among the partial matches, below a group matched as typed,
  // and only where that group is not matched as typed, so a group counts once ("lighthouses at
  // night" must not rank "dark code at night" above a lighthouse for matching night twice).
  const someGroups = groups
    .filter((group) => group.some((term) => term.similarity !== undefined))
    .map((group) => {
      const others = group.filter((term) => term.similarity !== undefined);
      const typed = group.filter((term) => term.similarity === undefined);
      const clause: Clause = { dis_max: { queries: others.map((term) => tier(termClause(term, 'exact'), MEANING_PARTIAL * term.similarity!)) } };
      return typed.length === 0 ? clause : { bool: { must: [clause], must_not: typed.map((term) => termClause(term, 'exact')) } };
    });
  return {
    bool: {
      should: [everyGroup, ...someGroups],
      minimum_should_match: 1,
      must_not: excluded.map((term) => termClause(term, 'exact')),
    },
  };
}

/** The search for a query and, when it has one, for its meaning in the catalogue's words. */
export function buildMeaningQuery(text: SearchQuery, meaning: SearchQuery | undefined, words: TypedWords = {}): Clause {
  const typed = buildSearchQuery(text, words);
  if (meaning === undefined) return typed;
  return { bool: { should: [typed, meaningClause(meaning)], minimum_should_match: 1 } };
}

// A partial match of what the query is of ("a nebula in purple": the nebula) ranks above one of its
// setting or a describing word alone (purple flowers): above what one group matched as typed scores
// (AS_TYPED times BM25, mostly 1,000 to 2,500), far below every group matched (MEANING_TIER).
const SUBJECT = 3_000;

/** The query, with a match of its subject scored higher; it matches no more than the query does. */
export function withSubject(query: Clause, subject: readonly Term[] | undefined): Clause {
  if (subject === undefined) return query;
  return { bool: { must: [query], should: [tier(groupClause([...subject], 'exact'), SUBJECT)] } };
}

// A query word that names a category ("sports", "city") ranks that category's wallpapers above
// matches of the word elsewhere: "sports" had put 46 sports cars before the first wallpaper of the
// sports category, "city" 48 games set in a Neon City before the cityscapes (helper-120). Above the
// step between the word typed and the words standing for it in the meaning tier (MEANING_TIER
// times 1 against 0.9: "city" is the games' Neon City as typed, the cityscapes through meaning);
// like the subject's boost, it matches nothing the query does not.
const CATEGORY_TIER = 10_000;

/**
 * The query, with the wallpapers of the category it names scored higher: only a query of that one
 * word (filler aside). Beside other words a category word describes them ("food truck", "space
 * cat", "fantasy football"), and the boost had put the whole food category before the first truck
 * (helper-124).
 */
function withCategoriesNamed(query: Clause, { groups }: SearchQuery): Clause {
  const typed = groups.length === 1 ? groups[0]![0] : undefined;
  const category = typed === undefined || typed.similarity !== undefined ? undefined : CATEGORY_NAMED.get(typed.text.toLowerCase());
  if (category === undefined) return query;
  return { bool: { must: [query], should: [tier({ term: { category } }, CATEGORY_TIER)] } };
}

// A shape or sharpness the query's words ask for ("sunset iphone", "mountain 4k") ranks the
// wallpapers that have it first among equal matches of the rest: above BM25's spread within a tier
// (AS_TYPED times 10-30), below the step between a word as typed and its nearest stand-in in the
// meaning tier (50,000 times 0.1), so the picture asked for still outweighs its shape.
const SHAPE_TIER = 4_000;

/** The wallpapers of the orientation, at least the sharpness asked (either way round), and of one of the ratios. */
function shapeClauses({ orientation, atLeast, ratios }: ShapeAsked): Clause[] {
  const sides = (wide: number, tall: number): Clause => ({
    bool: { must: [{ range: { width: { gte: wide } } }, { range: { height: { gte: tall } } }] },
  });
  return [
    ...(orientation ? [{ term: { orientation } }] : []),
    ...(atLeast ? [{ bool: { should: [sides(atLeast.long, atLeast.short), sides(atLeast.short, atLeast.long)], minimum_should_match: 1 } }] : []),
    ...(ratios ? [{ terms: { ratio: [...ratios] } }] : []),
  ];
}

/** The query, with the pictures that an excluded colour covers EXCLUDED_SHARE or more of, or an excluded tone is, scored lower; it matches no more than the query does. */
function withExcludedPixelsLast(query: Clause, text: SearchQuery): Clause {
  const held = excludedPixels(text);
  if (held === null) return query;
  return { bool: { must: [query], should: [tier({ bool: { must_not: [held] } }, SUBJECT)] } };
}

/**
 * The query, with what it finds ranked by the colours and tones its words say (pixelsOfWord),
 * as a group matched as typed weighs (AS_TYPED): the every-group tier scores alike, and what the
 * meaning tier finds never matches a colour (`white cat`: the white kittens first, `dark automobile`
 * the dark cars). Beside a subject, only the wallpapers of it (pixelsRankedWhere): the dark
 * scenes with a cat in their description's corner had outranked the kittens for `black cat`. It
 * matches no more than the query does. A word alone that matches its pictures is scored where it
 * matches.
 */
function withPixelsRanked(query: Clause, { groups }: SearchQuery, subject: readonly Term[] | undefined): Clause {
  const alone = groups.length === 1;
  const ranks = groups.flat().flatMap((term) => (alone && pixelsOfWord(term) !== null ? [] : (pixelsOfWord(term, true) ?? [])));
  if (ranks.length === 0) return query;
  const where = pixelsRankedWhere(subject);
  return { bool: { must: [query], should: ranks.map((clause) => ({ bool: { should: [onlyWhere(clause, where)], boost: AS_TYPED } })) } };
}

/**
 * Where the colours and tones a query's words say rank what it finds: beside a subject, the
 * wallpapers of it (pixelsNamingSubject, or else its words anywhere): a colour describes what the
 * query is of, and ranked wherever its word matched, `pink ocean` had put four pink flowers above
 * every ocean (helper-166). Anywhere without one.
 */
function pixelsRankedWhere(subject: readonly Term[] | undefined): Clause {
  const named = pixelsNamingSubject(subject);
  return named === ANYWHERE && subject !== undefined ? groupClause([...subject], 'exact') : named;
}

/**
 * The query, with the wallpapers of a size typed beside words (buildSearchQuery) scored as a group
 * matched as typed, as when the size found them: "1920x1080 lakes and mountains" ranks the
 * mountains of that size above the others, whichever tier they are in. It matches no more than the
 * query does.
 */
function withSizesRanked(query: Clause, { groups }: SearchQuery): Clause {
  if (!wordsBesideSizes(groups)) return query;
  const resolutions = [
    ...new Set(
      groups
        .flat()
        .filter(namesSizesOnly)
        .flatMap(({ text }) => text.split(' '))
        .map((word) => formatResolution(sizeOfWord(word)!)),
    ),
  ];
  return resolutions.length === 0 ? query : { bool: { must: [query], should: [tier({ terms: { resolution: resolutions } }, AS_TYPED)] } };
}

/** The query, with the wallpapers of the shape its words ask for scored higher; it matches no more than the query does. */
function withShapeAsked(query: Clause, shape: ShapeAsked | undefined): Clause {
  if (shape === undefined) return query;
  return { bool: { must: [query], should: shapeClauses(shape).map((clause) => tier(clause, SHAPE_TIER)) } };
}

const searchQueryOf = (params: SearchParams): Clause => {
  if (params.nothing) return { match_none: {} };
  const ranked = withPixelsRanked(
    withSizesRanked(withSubject(buildMeaningQuery(params.text, params.meaning, params), params.subject), params.text),
    params.text,
    params.subject,
  );
  // A query of nothing but filler asks for that shape alone: buildSearchQuery filters by it.
  const query = withExcludedPixelsLast(
    withCategoriesNamed(params.text.groups.length === 0 ? ranked : withShapeAsked(ranked, params.text.shape), params.text),
    params.text,
  );
  return params.whole ? { bool: { must: [query], filter: [everyGroupInTitles(params.text)] } } : query;
};

export function searchBody(params: SearchParams, read?: PageRead): SearchBody {
  return pageBody(params, searchQueryOf(params), read);
}

export function searchFacetsBody(params: SearchParams): SearchBody {
  return facetsBody(params, searchQueryOf(params));
}

/**
 * Matches a word as a search matches it typed (its inflections and spellings, in every searched
 * field), not with a typo: the words asked about are real words, and a real word one edit from
 * another is that other word ("cream" is not "creamy").
 */
export function wordClause(word: string): Clause {
  // A compound ("ice cream") occurs where its words stand together.
  return termClause({ text: word, phrase: word.includes(' ') }, 'exact');
}

// "More like this one": what makes two wallpapers alike, by weight. The same category counts most
// (a kitten and a lion are both animals; a kitten and a kitten-shaped cloud are not alike); each
// shared tag (subject, adjective, setting, mood) next, then the words of the title in common
// (more_like_this: its six most telling words; the description too cost 2.5 times the time at 1M
// for no better neighbours), then each named colour in common. Never the wallpaper itself.
// Weighed on test/relevance/similar.json (bench/results/meaning-routes.md).
const SIMILAR_CATEGORY = 20;
const SIMILAR_TAG = 6;
const SIMILAR_COLOR = 2;

/** The one page of wallpapers most like `seed`, best first. */
export function similarBody(seed: WallpaperDetail, perPage: number): SearchBody {
  const tags = seed.tags.filter((tag) => tag !== seed.category);
  const query: Clause = {
    bool: {
      should: [
        tier({ term: { category: seed.category } }, SIMILAR_CATEGORY),
        ...tags.map((tag) => tier({ term: { tags: tag } }, SIMILAR_TAG)),
        {
          more_like_this: {
            fields: ['title'],
            like: seed.title,
            min_term_freq: 1,
            min_doc_freq: 2,
            max_query_terms: 6,
            minimum_should_match: 1,
          },
        },
        ...colorNamesOf(seed.colors).map((name) => tier({ term: { color_names: name } }, SIMILAR_COLOR)),
      ],
      minimum_should_match: 1,
      must_not: [{ ids: { values: [String(seed.id)] } }],
    },
  };
  // No total: the answer is one page, and not counting every wallpaper with a word or a tag in
  // common lets Elasticsearch skip those that cannot reach the top (measured at 1M: bench/results).
  return { ...pageBody({ page: 1, per_page: perPage, sort: 'relevance' }, query), track_total_hits: false };
}

/** What one suggestion request asks: completions only, no hits. */
export type SuggestBody = Required<Pick<estypes.MsearchMultisearchBody, 'size' | '_source' | 'suggest'>>;

// Fuzzy completion forgives one typo past the first letter once a prefix is long enough to mean
// something. It runs as a second suggester rather than as an option of the first: Lucene scores a
// fuzzy completion by weight times the length of the prefix it shares, so a popular "Moon" title
// would outrank "Mountain" for "moun". Every completion of the prefix as typed comes first.
const FUZZY_SUGGEST_FROM = 4;

/** The slots a request's first ask gives each suggester: twice its limit, as a title may have several carriers. */
export const firstSuggestSize = (limit: number): number => limit * 2;

/** What each suggester completes: the text as typed, and that text without its words with numbers. */
export interface SuggestPrefixes {
  prefix: string;
  /** Absent when no word holds a number, or every word does. */
  words?: string;
}

export function suggestPrefixes(q: string): SuggestPrefixes {
  // Emoji and other symbols are no part of a title's words: the completion field's tokenizer keeps
  // them as words of their own, and "sunset 🌅" had completed nothing (helper-137).
  const prefix = q.replace(SYMBOLS, ' ').replace(/\s+/g, ' ').trim();
  // Numbers complete as written ("harbor number 4"); a word with a number no title holds ("sunset
  // 2024", "sunset 4k") is read without, after every completion with it. The whole word goes, not
  // its digits: "4k" without them was "k", which completed "Knight" (helper-138).
  const words = prefix
    .split(' ')
    .filter((word) => !/\p{N}/u.test(word))
    .join(' ');
  return words !== prefix && words !== '' ? { prefix, words } : { prefix };
}

/**
 * As-you-type completions from the `suggest` completion field (every title, from each of its words
 * on): `titles` completes the prefix as typed, `typos` (from four characters) forgives one or two
 * edits, `words` completes the words without numbers; each asks `size` options, more than the
 * limit, as the titles are made distinct afterwards (and more again when they fall short:
 * es-repository.ts).
 */
export function suggestBody(q: string, size: number): SuggestBody {
  const { prefix, words } = suggestPrefixes(q);
  // Not skip_duplicates: it compares the input that matched, and every title ending "… at Sunset"
  // matches through the same input "Sunset", so it kept the most popular of them alone. The
  // suggester answers each document once; equal titles are made one by toCompletions.
  const completion = { field: 'suggest', size };
  return {
    size: 0,
    _source: ['title'],
    suggest: {
      titles: { prefix, completion },
      ...(prefix.length >= FUZZY_SUGGEST_FROM
        ? { typos: { prefix, completion: { ...completion, fuzzy: { fuzziness: 'AUTO', prefix_length: 1 } } } }
        : {}),
      ...(words === undefined ? {} : { words: { prefix: words, completion } }),
    },
  };
}

// Pictographs (emoji and their joiners and variation selectors) and symbols: ©, ™, ★, ✨, ❤.
const SYMBOLS = /[\p{Extended_Pictographic}\p{So}\p{Sk}\p{Sm}]|\u200d|\ufe0e|\ufe0f/gu;
