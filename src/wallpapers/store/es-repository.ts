import { type Client, type estypes, errors } from '@elastic/elasticsearch';
import { attemptTimeoutMs, hedgedReadsOf } from '../../infra/elasticsearch.js';
import { ELASTICSEARCH_READ_DEFAULTS, type ElasticsearchBatchingConfig } from '../../config.js';
import { CursorExpired, Overloaded } from '../../errors.js';
import { EsItemError, type EsFailure, translateEsError } from '../../infra/es-errors.js';
import { docsOf, expectGot, hitsOf, searchItemsOf, totalOf } from './answer-shapes.js';
import { slotCounter } from './completion-slots.js';
import { inTime } from '../../infra/in-time.js';
import { type Logger, silentLogger } from '../../infra/logger.js';
import { createNaturalBatcher } from '../../infra/natural-batcher.js';
import type { Attempt } from '../../infra/hedged-reads.js';
import { type Shared, derivedOnce, share, variantsBy } from '../../infra/shared-result.js';
import {
  MGET_RESPONSE_FILTER,
  REQUEST_CACHE,
  SOURCE,
  type SearchBody,
  type PageRead,
  buildIdsRequest,
  continuesFrom,
  RANKING,
  listBody,
  listFacetsBody,
  searchBody,
  searchFacetsBody,
  searchIndex,
  filterClauses,
  firstSuggestSize,
  suggestBody,
  suggestPrefixes,
  similarBody,
  walkTotal,
  WINDOWED_ORDERS,
} from './build-queries.js';
import type { Facet, ListParams, SearchParams, SortOrder, SuggestParams } from '../params.js';
import { RecentTotals, readShuffledPage } from './shuffled-pages.js';
import { RecentValues } from './recent-values.js';
import { Ladder, WINDOW_FROM_COUNT, readWindowedPage } from './windowed-pages.js';
import type { Change, ChangePage, FacetCount, Found, Page, Suggestions, WallpaperRepository } from './repository.js';
import { type ChangeHit, type FeedPosition, type HistoryRead, WATERMARK_ID, changesBody, changesIndexOf, expectContinued } from './change-log.js';
import { type CataloguedWallpaper, toDetail } from '../catalogued.js';
import { type Wallpaper, type WallpaperDetail, toWallpaper } from '../wallpaper.js';

export interface BatchingOptions extends ElasticsearchBatchingConfig {
  /** A read's whole time budget, waiting for a free call included (the client's request timeout). */
  timeoutMs: number;
  onBatch?: (operation: 'mget' | 'msearch', size: number) => void;
}

export const DEFAULT_BATCHING: BatchingOptions = { ...ELASTICSEARCH_READ_DEFAULTS };

export interface EsRepositoryOptions {
  logger?: Logger;
  batching?: BatchingOptions;
  /** How many matches make sort=random walk along a key rather than score (shuffled-pages.ts; tests lower it). */
  shuffleFromTotal?: number;
  /** MAX_RESULT_WINDOW, within which a numbered page starts (the index serves a page past it): sort=random's skip counts against it. */
  resultWindow?: number;
  /** How many wallpapers make sort=oldest read a window of dates (windowed-pages.ts; tests lower it). */
  windowFromCount?: number;
  /** How many matches make a search's page count its total apart (searchPage; tests lower it). */
  countApartFrom?: number;
  /** How long a catalogue's extent is trusted before it is read again (EXTENT_TTL_MS; tests lower it). */
  extentTtlMs?: number;
}

/**
 * How many matches make a search's page count its total apart from its own read. At 10M, in
 * Elasticsearch alone: a query of 443,000 matches took 46 ms read whole, 9 ms uncounted and 8 ms
 * counted; one of 186,000, 29 ms whole against 22 and 7; one of 79,000, 20 against 21 and 7. Below
 * about 200,000, the two reads cost Elasticsearch more than the one (bench/results/flat-with-size).
 */
const COUNT_APART_FROM = 200_000;

// How long a catalogue's extent is trusted before it is read again. A stale one costs only speed:
// a window that falls short is followed by the whole order.
const EXTENT_TTL_MS = 10_000;

type ExtentField = 'created_at' | 'downloads';
const EXTENT_FIELDS: readonly ExtentField[] = ['created_at', 'downloads'];

/** A catalogue's count, and where each windowed order's leading field lies in it (windowed-pages.ts). */
interface CatalogueExtent {
  count: number;
  fields: Record<ExtentField, { lowest: number; highest: number }>;
}

const MSEARCH_RESPONSE_FILTER = [
  'responses.status',
  'responses.error.type',
  'responses.error.root_cause.type',
  'responses.error.root_cause.reason',
  'responses.hits.total.value',
  'responses.hits.hits._source',
  'responses.hits.hits._index',
  'responses.hits.hits.sort',
  'responses.aggregations.*.values.buckets.key',
  'responses.aggregations.*.values.buckets.doc_count',
];

interface MgetItem {
  _id: string;
  found?: boolean;
  _source?: CataloguedWallpaper;
  error?: { type?: string };
}

interface MsearchItem {
  status?: number;
  error?: EsFailure;
  hits?: { total?: { value: number }; hits?: { _source: CataloguedWallpaper; _index: string; sort?: (string | number)[] }[] };
  aggregations?: Record<string, { values?: { buckets?: { key: string; doc_count: number }[] } }>;
}

// Requests coalesced into the same two searches get the same page with what the second counted
// (its facets, or its total), so its envelope and serialized bytes are still built once for all
// of them (see toPage).
const combinedPages = derivedOnce<WeakMap<object, Shared<Page>>>();
function combined(found: Shared<Page>, counted: Shared<Page>, take: (counted: Shared<Page>) => Partial<Page>): Shared<Page> {
  const byCounts = combinedPages(found, () => new WeakMap());
  let page = byCounts.get(counted);
  if (page === undefined) byCounts.set(counted, (page = share({ ...found, ...take(counted) })));
  return page;
}
// Every facet asked is told, empty when nothing has a value of it: filter_path leaves a facet
// without buckets out of the answer altogether.
const facetsAsked =
  (asked: readonly Facet[]) =>
  (counted: Shared<Page>): Partial<Page> => ({
    facets: Object.fromEntries(asked.map((facet) => [facet, counted.facets?.[facet] ?? []])),
  });
// Requests coalesced into the same page get the same page with what reading on found (readOn).
const withMore = variantsBy<Page, 'more'>('more');
const readingOn = derivedOnce<Promise<Shared<Page>>>();

/**
 * The total a page read apart from its count shows. The two reads see the index a moment apart;
 * a page says, of its own moment, how many matches there were at least (those before it and its
 * items) and, when it is not full, exactly (it reached the last one). That wins over the count, so
 * the page, its total and its links agree. Before a page by number come its earlier pages; before
 * a cursor page, the depth its walk has served (`position.depth`, as the envelope counts it).
 */
export function settledTotal(params: Pick<ListParams, 'page' | 'per_page' | 'position'>, items: number, counted: number): number {
  const before = params.position ? params.position.depth : (params.page - 1) * params.per_page;
  if (before === undefined) return counted;
  if (items === 0) return Math.min(counted, before);
  return items < params.per_page ? before + items : Math.max(counted, before + items);
}

/** Whether a search filters or excludes words: what keeps Elasticsearch from skipping to its page (searchPage). */
const narrowed = (params: ListParams): boolean =>
  filterClauses(params).length > 0 || ((params as Partial<SearchParams>).text?.excluded.length ?? 0) > 0;

interface PageBodies<P extends ListParams> {
  page: (params: P, read?: PageRead) => SearchBody;
  facets: (params: P) => SearchBody;
  /** Whether a page of many matches counts them apart (searchPage): words are what make counting cost. */
  countsApart: boolean;
  /** The order when none is asked. */
  sort: SortOrder;
}
// A list's filters are counted from Lucene's own per-term counts and cached filters: flat with size
// as they are (bench/results/flat-with-size), so a second read would only add to them.
const LIST_BODIES: PageBodies<ListParams> = { page: listBody, facets: listFacetsBody, countsApart: false, sort: 'newest' };
const SEARCH_BODIES: PageBodies<SearchParams> = { page: searchBody, facets: searchFacetsBody, countsApart: true, sort: 'relevance' };

// What decides how many wallpapers a page's query matches: its filters and its words. What is read
// from the words at the edge goes with them, and the rest says which page of the matches.
const NOT_MATCHING = new Set([
  'page',
  'per_page',
  'sort',
  'seed',
  'position',
  'facets',
  'include',
  'text',
  'meaning',
  'subject',
  'nothing',
  'occurring',
  'known',
  'budgetMs',
]);
/** A key of a query's matches, for the totals seen lately (shuffled-pages.ts): cheaper than its count's body. */
const matchesKey = (params: ListParams): string =>
  JSON.stringify(Object.entries(params).filter(([name, value]) => value !== undefined && !NOT_MATCHING.has(name)));

/** One search of a batch: the index it reads (the live alias, or the one a cursor walk began on) and its body. */
interface Search {
  index: string;
  pinned: boolean;
  /**
   * The body as sent, serialised once: it is also the key that joins equal searches in a batch,
   * and the transport writes a string item of a multi-search as it is.
   */
  line: string;
  /** The walk's total when the body does not count it. */
  knownTotal?: number;
}

/** An item that failed for its node's own trouble, which another node may not have. */
const nodeTrouble = (item: MsearchItem) => item.status === 429 || (item.status !== undefined && item.status >= 500);

/** A multi-search answered with some items failed for the node's own trouble: carries the answer. */
class NodeTrouble extends Error {
  constructor(readonly answer: estypes.MsearchResponse<Wallpaper>) {
    super('multi-search items failed for the node’s own trouble');
  }
}

const EXPIRED = 'This cursor walked a catalogue that has since been replaced and deleted; start the walk again without a cursor';
const NOT_CONTINUED = 'This cursor comes from a walk this version of the API cannot continue; start the walk again without a cursor';

function facetsOf(item: MsearchItem): Page['facets'] {
  if (!item.aggregations) return undefined;
  return Object.fromEntries(
    Object.entries(item.aggregations).map(([facet, agg]): [Facet, FacetCount[]] => [
      facet as Facet,
      (agg.values?.buckets ?? []).map((bucket) => ({ value: String(bucket.key), count: bucket.doc_count })),
    ]),
  );
}

// Requests coalesced into one call share the same result, so its envelope and serialized bytes
// are built once for all of them (see conditionalGet).
function toPage(item: MsearchItem, { pinned, knownTotal }: Search): Shared<Page> | Error {
  if (pinned && item.error?.type === 'index_not_found_exception') return new CursorExpired(EXPIRED);
  if (item.error || (item.status !== undefined && item.status !== 200)) return new EsItemError(item.status ?? 500, item.error);
  const hits = item.hits?.hits ?? [];
  const last = hits.at(-1);
  const facets = facetsOf(item);
  return share({
    ...(last?.sort ? { last: { index: last._index, after: last.sort, ranking: RANKING } } : {}),
    ...(facets ? { facets } : {}),
    // filter_path drops hits.hits altogether when nothing matched.
    items: hits.map((hit) => hit._source),
    total: item.hits?.total?.value ?? knownTotal ?? 0,
  });
}

interface SuggestItem {
  status?: number;
  error?: EsFailure;
  suggest?: Record<string, { options?: { _source?: { title?: string } }[] }[] | undefined>;
}

const MSUGGEST_RESPONSE_FILTER = [
  'responses.status',
  'responses.error.type',
  'responses.error.root_cause.type',
  'responses.error.root_cause.reason',
  'responses.suggest.*.options._source.title',
];

/** One ask of the suggesters: a request and how many slots each suggester is given. */
interface SuggestAsk extends SuggestParams {
  size: number;
}

/** The titles one ask completed, and whether asking for more slots could change them. */
interface Completions {
  texts: string[];
  more: boolean;
}

const SUGGESTERS = ['titles', 'typos', 'words'] as const;

// Several inputs of one title, or equal titles of several wallpapers, can complete the same
// prefix: the answer keeps each title once (in any case, as a load picks its carriers: "Harbor
// Lights" and "HARBOR LIGHTS" are one title, helper-139), completions as typed before those through
// a typo, and those before completions of the words without their numbers (suggestBody). A
// suggester whose options took every slot it was given may hold more; when the titles gathered up
// to it fall short of the limit, the answer could change, and a typo must not take the place of a
// completion as typed that more slots would have found (helper-139).
function toCompletions(item: SuggestItem, { q, limit, size }: SuggestAsk): Completions | Error {
  if (item.error || (item.status !== undefined && item.status !== 200)) return new EsItemError(item.status ?? 500, item.error);
  const { prefix, words } = suggestPrefixes(q);
  const texts = new Map<string, string>();
  for (const name of SUGGESTERS) {
    const titles = (item.suggest?.[name] ?? [])
      .flatMap((entry) => entry.options ?? [])
      .map((option) => option._source?.title)
      .filter((title): title is string => typeof title === 'string');
    for (const title of titles) {
      const key = title.toLowerCase();
      if (!texts.has(key)) texts.set(key, title);
    }
    if (texts.size >= limit) break;
    const slotsOf = slotCounter(name === 'words' ? (words ?? prefix) : prefix, name === 'typos');
    const taken = titles.reduce((sum, title) => sum + Math.max(1, slotsOf(title)), 0);
    if (taken >= size) return { texts: [...texts.values()], more: true };
  }
  return { texts: [...texts.values()].slice(0, limit), more: false };
}

// A title's completions ride on several of its wallpapers (createTitleCarriers, and each
// incremental import that lowers one), and a carrier takes a slot for every input that completes
// the prefix, so one title can fill every slot asked: twelve carriers left `limit=2` one title.
// While the answer could change (toCompletions), the request asks again for four times the slots,
// up to 500; on a catalogue as loaded (one to ten carriers a title) the first ask suffices.
const SUGGEST_GROWTH = 4;
const MAX_SUGGEST_SIZE = 500;

function toDocument(item: MgetItem | undefined, id: string): Shared<WallpaperDetail> | null | Error {
  if (!item || item._id !== id) return new Error(`multi-get answered ${item?._id ?? 'nothing'} for ${id}`);
  // A document-level failure has no status of its own: a missing index or a shard that could not answer.
  if (item.error) return new EsItemError(503, item.error);
  return item.found && item._source ? share(toDetail(item._source)) : null;
}

/**
 * Reads the catalogue behind `alias`. Gets go out as multi-gets and lists and searches as
 * multi-searches, naturally batched (see createNaturalBatcher): alone when Elasticsearch has a
 * free slot, together under load, so a busy API pays Elasticsearch's per-call cost once per
 * batch instead of once per request. Failures come out as domain errors (see translateEsError).
 */
export function createEsRepository(
  es: Client,
  alias: string,
  {
    logger = silentLogger,
    batching = DEFAULT_BATCHING,
    shuffleFromTotal,
    resultWindow,
    windowFromCount = WINDOW_FROM_COUNT,
    countApartFrom = COUNT_APART_FROM,
    extentTtlMs = EXTENT_TTL_MS,
  }: EsRepositoryOptions = {},
): WallpaperRepository {
  const { maxInFlight, maxBatchSize, maxQueued, onBatch } = batching;
  const limits = {
    maxInFlight,
    maxBatchSize,
    maxQueued,
    budgetMs: batching.timeoutMs,
    expired: () => new errors.TimeoutError('no Elasticsearch answer within the request timeout'),
  };

  const overloaded = () => new Overloaded('The service is busy, please retry shortly');
  const hedged = hedgedReadsOf(es);
  // A shard stops searching when an attempt's time is up rather than work on for nobody, and a
  // page that some shard could not finish in time is an error, never a short page served as whole
  // (cursors and totals would be wrong). The same for every search, not each attempt's own time
  // left: the shard request cache keys on the whole body, the timeout included. A stopped node
  // runs no timer at all: hedging (hedged-reads.ts) is what answers around it.
  const shardTimeout = `${attemptTimeoutMs(es, batching.timeoutMs)}ms`;
  /** The transport options of one attempt: its share of the time left, and its cancellation. */
  const attemptOptions = ({ remainingMs, signal }: Attempt) => ({ requestTimeout: attemptTimeoutMs(es, remainingMs), ...(signal ? { signal } : {}) });
  const get = createNaturalBatcher<string, Shared<WallpaperDetail> | null>({
    ...limits,
    overloaded,
    keyOf: (id) => id,
    onBatch: (size) => onBatch?.('mget', size),
    run: async (ids, remainingMs) => {
      const response = await hedged.run(
        (attempt) =>
          es.mget<Wallpaper>(
            { index: alias, ids, _source: SOURCE, filter_path: MGET_RESPONSE_FILTER, preference: attempt.preference },
            attemptOptions(attempt),
          ),
        remainingMs,
      );
      const docs = docsOf<MgetItem>(response, ids.length);
      return ids.map((id, position) => toDocument(docs[position], id));
    },
  });

  const search = createNaturalBatcher<Search, Shared<Page>>({
    ...limits,
    overloaded,
    keyOf: ({ index, line }) => `${index}\n${line}`,
    onBatch: (size) => onBatch?.('msearch', size),
    run: async (batch, remainingMs) => {
      const response = await hedged
        .run(async (attempt) => {
          const answer = await es.msearch<Wallpaper>(
            {
              searches: batch.flatMap(({ index, line }): estypes.MsearchRequestItem[] => [
                { index, request_cache: REQUEST_CACHE, preference: attempt.preference, allow_partial_search_results: false },
                line as unknown as estypes.MsearchRequestItem,
              ]),
              filter_path: MSEARCH_RESPONSE_FILTER,
            },
            attemptOptions(attempt),
          );
          // A search the node could not finish (a shard timed out, a full queue) is worth another
          // attempt elsewhere; if none does better, each caller still gets its own item's answer.
          if (searchItemsOf<MsearchItem>(answer, batch.length).some(nodeTrouble)) throw new NodeTrouble(answer);
          return answer;
        }, remainingMs)
        .catch((err: unknown) => {
          if (err instanceof NodeTrouble) return err.answer;
          throw err;
        });
      const items = response.responses as MsearchItem[];
      return batch.map((one, position) => toPage(items[position]!, one));
    },
  });
  const searchOf = (params: ListParams, body: SearchBody, index = searchIndex(alias, params)): Search => ({
    index,
    pinned: params.position !== undefined,
    line: JSON.stringify({ ...body, timeout: shardTimeout }),
    ...(body.track_total_hits ? {} : { knownTotal: params.position?.total }),
  });
  const recentTotals = new RecentTotals(shuffleFromTotal);
  // Apart from recentTotals, which random and windowed pages choose their reads by: every search
  // learns its total here, and would push theirs out.
  const searchTotals = new RecentValues<number>();
  let kept: { expires: number; extent: Promise<CatalogueExtent> } | null = null;
  /** How many wallpapers the live catalogue held when last read: a hint that no search waits for. */
  let lastCount: number | undefined;
  let nextCountRead = 0;
  /** How much wider than an even spread each query's last window in each order had to be, and what its counts said (windowed-pages.ts). */
  const windowScales = new RecentValues<number>();
  const ladders = new RecentValues<Ladder>();
  /** A query's ladder in an order, from one first end: another end gets another ladder, as its spans are from there. */
  function ladderOf(key: string): Ladder {
    let ladder = ladders.get(key);
    if (ladder === undefined) ladders.set(key, (ladder = new Ladder()));
    return ladder;
  }
  /** Where dates and downloads lie in the live catalogue and how many wallpapers it holds: one search, kept a few seconds. */
  function liveExtent(): Promise<CatalogueExtent> {
    const now = Date.now();
    if (kept && kept.expires > now) return kept.extent;
    const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
    for (const field of EXTENT_FIELDS) {
      aggs[`${field}_lowest`] = { min: { field } };
      aggs[`${field}_highest`] = { max: { field } };
    }
    const extent = hedged
      .run(
        (attempt) =>
          es.search(
            {
              index: alias,
              size: 0,
              track_total_hits: true,
              request_cache: REQUEST_CACHE,
              preference: attempt.preference,
              timeout: shardTimeout,
              aggs,
              filter_path: ['hits.total.value', 'aggregations.*.value'],
            },
            attemptOptions(attempt),
          ),
        batching.timeoutMs,
      )
      .then((response): CatalogueExtent => {
        const found = (response.aggregations ?? {}) as Record<string, { value?: number | null }>;
        const value = (name: string) => found[name]?.value ?? 0;
        const count = totalOf(response);
        const fields = Object.fromEntries(
          EXTENT_FIELDS.map((field) => [field, { lowest: value(`${field}_lowest`), highest: value(`${field}_highest`) }]),
        ) as CatalogueExtent['fields'];
        return { count, fields };
      });
    extent.then(
      ({ count }) => (lastCount = count),
      () => {
        if (kept?.extent === extent) kept = null;
      },
    );
    kept = { expires: now + extentTtlMs, extent };
    return extent;
  }
  /**
   * The most a query not seen before can match: the catalogue's count as last read, which is read
   * again in the background at most once per the extent's time to live, answered or failed
   * (undefined until the first read answers). A search never waits for it: that would hold it out
   * of its batch.
   */
  function catalogueCount(): number | undefined {
    const now = Date.now();
    if (now >= nextCountRead) {
      nextCountRead = now + extentTtlMs;
      liveExtent().catch(() => undefined);
    }
    return lastCount;
  }
  type BodyOf<P extends ListParams> = (params: P, read?: PageRead) => SearchBody;
  type Budget = () => { leftMs: number };

  /**
   * A page in an order the index is not sorted by, read within a window of its leading field
   * (windowed-pages.ts), when the catalogue and the query are large enough; null when the whole
   * order is the cheaper read.
   */
  async function windowedPage<P extends ListParams>(params: P, bodyOf: BodyOf<P>, key: string, left: Budget): Promise<Shared<Page> | null> {
    const windowed = params.sort === undefined ? undefined : WINDOWED_ORDERS[params.sort];
    if (!windowed || !(params.position ? windowed.cursor : params.page * params.per_page >= windowed.fromDepth)) return null;
    // The live catalogue's extent sizes the windows of a walk pinned to an older index too: it
    // costs only speed if they differ, and a walk whose index is gone still learns so from its
    // page (410), not from a failed extent. The extent is shared with other pages and has a budget
    // of its own, which goes on for them; a page that began before it cannot wait all of it.
    const { count, fields } = await inTime(liveExtent(), left().leftMs, () => {
      throw limits.expired();
    });
    if (count < windowFromCount) return null;
    // Windows pay for a query that matches many: one that matches few reads the whole order, which
    // costs what it matches. A query not seen before is counted first (the count is kept in
    // Elasticsearch's request cache), so that it is not sized as if it matched the catalogue.
    const walked = walkTotal(params);
    const known = walked ?? recentTotals.get(key) ?? params.position?.total;
    const matches = known ?? (await search(searchOf(params, bodyOf(params, { read: 'count' })), left())).total;
    if (known === undefined) recentTotals.set(key, matches);
    if (matches < windowFromCount) return null;
    const extent = { ...fields[windowed.field], count };
    const scaleKey = `${key} ${params.sort}`;
    const scale = { value: windowScales.get(scaleKey) ?? 1 };
    const total = walked ?? (known === undefined ? matches : undefined);
    const firstEnd = windowed.direction === 'up' ? extent.lowest : extent.highest;
    const sizing = {
      extent,
      direction: windowed.direction,
      matches,
      known: true,
      scale,
      ...(params.position ? {} : { ladder: ladderOf(`${scaleKey} ${firstEnd}`) }),
      ...(total === undefined ? {} : { total }),
      hurried: () => left().leftMs < batching.timeoutMs / 2,
    };
    const found = await readWindowedPage(params, (read) => search(searchOf(params, bodyOf(params, read)), left()), sizing);
    recentTotals.set(key, found.total);
    windowScales.set(scaleKey, scale.value);
    return found;
  }

  /**
   * A page of a search, and its total. The exact total makes Elasticsearch visit every match, and
   * the order's tie-breaks (relevance, then downloads, then id) are what it then spends most on; a
   * read that need not count lets it skip by block-max scores to the page. So a later page of a
   * search known to match many (another number, length, order, or the next by cursor) reads
   * uncounted, and its total is counted apart, side by side. The count is the same body for every
   * page of one query, so Elasticsearch's request cache answers it for all but the first until a
   * refresh.
   * - Many: 200,000 (countApartFrom), as the query's last total said. A query not seen before is
   *   read whole, which teaches its total: splitting it, or counting it only so far, cost a query
   *   of few or some matches more than the one read (measured at 10M, found by a review).
   * - Not with filters or excluded words: such a read did not skip, so its count apart only added
   *   to it (1.1 to 1.6x Elasticsearch's time at 10M with filters; with `-word`, 435 ms uncounted
   *   against 483 whole over six queries, and 217 more to count).
   * A deep walk's pages in a sorted order know their total from the cursor already.
   */
  async function searchPage<P extends ListParams>(params: P, bodyOf: BodyOf<P>, left: Budget): Promise<Shared<Page>> {
    const read = (body: SearchBody) => search(searchOf(params, body), left());
    // By words and filters alone: a walk's cursor pages read the index it began on, and use the
    // total its page 1 taught under the alias.
    const key = matchesKey(params);
    const body = bodyOf(params);
    const known = searchTotals.get(key);
    if (known === undefined || known < countApartFrom || !body.track_total_hits) {
      const whole = await read(body);
      // Only a catalogue that large has queries that large, and a search that filters or excludes
      // words is never split: neither keeps a total, so a total known is never of either.
      if ((catalogueCount() ?? 0) >= countApartFrom && !narrowed(params)) searchTotals.set(key, whole.total);
      return whole;
    }
    const [found, counted] = await Promise.all([read(bodyOf(params, { read: 'uncounted' })), read(bodyOf(params, { read: 'count' }))]);
    searchTotals.set(key, counted.total);
    return combined(found, counted, () => ({ total: settledTotal(params, found.items.length, counted.total) }));
  }

  /**
   * A page of the list or of a search: sort=random reads along the seed's key (shuffled-pages.ts),
   * sort=oldest and deep pages of sort=downloads over a large catalogue within a window of their
   * leading field (windowedPage), and a search of many matches with its total apart (searchPage).
   */
  async function hits<P extends ListParams>(params: P, { page: bodyOf, countsApart }: PageBodies<P>, deadline: number): Promise<Shared<Page>> {
    const index = searchIndex(alias, params);
    const key = () => `${index} ${matchesKey(params)}`;
    // A page of several reads, one after another, has the time budget of one read in all.
    const left = () => ({ leftMs: deadline - Date.now() });
    if (params.sort === 'random') {
      return readShuffledPage(
        params,
        (read, at) => search(searchOf(params, bodyOf(params, read), at), left()),
        { totals: recentTotals, key },
        resultWindow === undefined ? {} : { resultWindow },
      );
    }
    const windowed = await windowedPage(params, bodyOf, key(), left);
    if (windowed) return windowed;
    return countsApart ? searchPage(params, bodyOf, left) : search(searchOf(params, bodyOf(params)), left());
  }
  /**
   * A page, and for a full cursor page whose walk has then served as many as the matches counted,
   * whether it goes on (Page.more): the walk's next page of one wallpaper, read the way its pages
   * are, within the page's budget. The count alone would end a walk early by as many wallpapers
   * as were deleted after it served them, and a deep walk, which goes by the count its cursor
   * carries, by as many as were added since. One small read at a walk's end; none on the way.
   * When reading on fails, or the page left it less time than it took itself, the walk goes on:
   * its next page tells, empty at worst, and the page is answered rather than failed.
   */
  async function readOn<P extends ListParams>(params: P, bodies: PageBodies<P>): Promise<Shared<Page>> {
    const started = Date.now();
    const deadline = started + Math.min(batching.timeoutMs, params.budgetMs ?? Infinity);
    const found = await hits(params, bodies, deadline);
    if (!params.position || !found.last || found.items.length < params.per_page) return found;
    const depth = (params.position.depth ?? 0) + found.items.length;
    if (depth < found.total) return found;
    const position = { ...found.last, total: found.total, depth };
    // The first of the requests that share the page decides for all, so they all get one answer.
    return readingOn(found, async () => {
      const now = Date.now();
      if (deadline - now < now - started) return withMore(found, true);
      const next = await hits({ ...params, per_page: 1, position }, bodies, deadline).catch((err: unknown) => {
        logger.debug('reading on past a walk’s full page failed; the walk goes on', { err: String(err) });
        return null;
      });
      return withMore(found, next === null || next.items.length > 0);
    });
  }
  /** The page, and beside it, when asked, its facet counts: a search of their own, the same for every page (facetsBody). */
  async function page<P extends ListParams>(params: P, bodies: PageBodies<P>): Promise<Shared<Page>> {
    if (params.position && !continuesFrom(params.sort ?? bodies.sort, params.position)) throw new CursorExpired(NOT_CONTINUED);
    const asked = params.facets ?? [];
    if (asked.length === 0) return readOn(params, bodies);
    const [found, counted] = await Promise.all([readOn(params, bodies), search(searchOf(params, bodies.facets(params)))]);
    return combined(found, counted, facetsAsked(asked));
  }

  // A list of ids is one multi-get of its own, not a batch of single gets: the natural batcher
  // would send the first id alone and the rest after it.
  async function getByIds(ids: readonly number[]): Promise<Shared<Found>> {
    const response = await hedged.run(
      (attempt) => es.mget<Wallpaper>({ ...buildIdsRequest(alias, ids), preference: attempt.preference }, attemptOptions(attempt)),
      batching.timeoutMs,
    );
    const docs = docsOf<MgetItem>(response, ids.length);
    const items: Wallpaper[] = [];
    const missing: number[] = [];
    for (const [position, id] of ids.entries()) {
      const doc = toDocument(docs[position], String(id));
      if (doc instanceof Error) throw doc;
      if (doc) items.push(toWallpaper(doc));
      else missing.push(id);
    }
    return share({ items, missing });
  }

  const askSuggesters = createNaturalBatcher<SuggestAsk, Completions>({
    ...limits,
    overloaded,
    keyOf: ({ q, limit, size }) => JSON.stringify([q.trim(), limit, size]),
    onBatch: (size) => onBatch?.('msearch', size),
    run: async (asks, remainingMs) => {
      const response = await hedged.run(
        (attempt) =>
          es.msearch(
            {
              index: alias,
              searches: asks.flatMap(({ q, size }): estypes.MsearchRequestItem[] => [{ preference: attempt.preference }, suggestBody(q, size)]),
              filter_path: MSUGGEST_RESPONSE_FILTER,
            },
            attemptOptions(attempt),
          ),
        remainingMs,
      );
      const items = searchItemsOf<SuggestItem>(response, asks.length);
      return asks.map((ask, position) => toCompletions(items[position]!, ask));
    },
  });

  /**
   * A request's completions: a first ask, then more slots while the answer could change, each ask
   * a batch input of its own, so a request that needs no more is answered after its first (its
   * batchmates wait for nobody's later asks). A later ask has half of what is left of the request's
   * own budget, a quarter of a budget at most; when it fails or runs out, the titles found so far
   * are the answer: fewer, each in its place, rather than a 503 for a read that succeeded.
   */
  async function suggest(params: SuggestParams): Promise<Shared<Suggestions>> {
    const deadline = Date.now() + batching.timeoutMs;
    let size = firstSuggestSize(params.limit);
    let answer = await askSuggesters({ ...params, size });
    while (answer.more && size < MAX_SUGGEST_SIZE) {
      // Half of what is left, and a quarter of a budget at most: a request holds one of its
      // account's lanes while it asks (helper-140), and 500 slots take tens of milliseconds.
      const leftMs = Math.min((deadline - Date.now()) / 2, batching.timeoutMs / 4);
      if (leftMs < 1) break;
      size = Math.min(size * SUGGEST_GROWTH, MAX_SUGGEST_SIZE);
      try {
        answer = await askSuggesters({ ...params, size }, { leftMs });
      } catch (err) {
        logger.warn('suggestions: a further ask failed; answering the titles found', { size, reason: err instanceof Error ? err.name : String(err) });
        break;
      }
    }
    return share({ texts: answer.texts.slice(0, params.limit) });
  }

  /**
   * What is left for the next of a request's reads one after another, which have the time budget
   * of one read in all (a 503 within the budget the docs give, not one budget per read).
   */
  function leftOf(deadline: number): number {
    const left = deadline - Date.now();
    if (left <= 0) throw limits.expired();
    return left;
  }

  // The feed is read whole, not batched or cached: each page depends on the watermark of the moment.
  const changesIndex = changesIndexOf(alias);
  async function changes(after: FeedPosition | null, perPage: number): Promise<ChangePage> {
    const deadline = Date.now() + batching.timeoutMs;
    const mark = await hedged.run(
      (attempt) =>
        es.get<{ change_seq?: number; history?: HistoryRead }>(
          { index: changesIndex, id: WATERMARK_ID, _source: ['change_seq', 'history.id', 'history.legacy'], preference: attempt.preference },
          { ...attemptOptions(attempt), ignore: [404] },
        ),
      batching.timeoutMs,
    );
    expectGot(mark);
    // A catalogue no load has recorded changes for yet has no record of them: it is read alone.
    // The catalogue itself must be there: skipping it too had answered a missing one as an empty
    // feed at its tail, where every other route answers 503 (helper-94).
    const recorded = !('error' in mark);
    // No watermark, whether or not its index is there (one Elasticsearch made for a write after the
    // record was deleted has none): as without a record, every stamp is served. Read as 0, it had
    // served an empty catalogue, and a mirror walking again deleted every picture (helper-100).
    const watermark = mark.found ? (mark._source?.change_seq ?? 0) : null;
    const history = mark.found ? mark._source?.history : undefined;
    if (after !== null) expectContinued(after, { found: mark.found, ...(history ? { history } : {}) }, watermark);
    // A watermark a build before histories rewrote names none: the reader's own goes on with it, so
    // that the next run, which gives the record its history back, takes the reader's cursor; or, if
    // the record had been lost meanwhile, refuses it (helper-100).
    const readIn = history?.id ?? after?.history;
    const response = await hedged.run(
      (attempt) =>
        es.search(
          {
            index: recorded ? [alias, changesIndex] : alias,
            allow_partial_search_results: false,
            preference: attempt.preference,
            timeout: shardTimeout,
            filter_path: ['took', 'hits.hits._index', 'hits.hits._source', 'hits.hits.sort'],
            ...changesBody(watermark, after, perPage + 1),
          },
          attemptOptions(attempt),
        ),
      leftOf(deadline),
    );
    const read = hitsOf<ChangeHit>(response);
    const hits = read.slice(0, perPage);
    const items = hits.map((hit): Change => {
      const source = hit._source!;
      if (hit._index === changesIndex || source.kind === 'delete') return { id: source.id, change: 'delete', at: source.changed_at! };
      // A wallpaper loaded before the feed existed: as far as anyone knows, it came with its creation.
      return { id: source.id, change: 'upsert', at: source.changed_at ?? source.created_at, wallpaper: source };
    });
    const last = hits.at(-1)?.sort;
    return {
      items,
      more: read.length > perPage,
      ...(last ? { last: { seq: Number(last[0]), id: Number(last[1]) } } : {}),
      ...(readIn === undefined ? {} : { history: readIn }),
    };
  }

  async function run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw translateEsError(err, logger, operation);
    }
  }

  return {
    list: (params) => run('list', () => page(params, LIST_BODIES)),
    search: (params) => run('search', () => page(params, SEARCH_BODIES)),
    getById: (id) => run('get', () => get(String(id))),
    getByIds: (ids) => run('get', () => getByIds(ids)),
    suggest: (params) => run('suggest', () => suggest(params)),
    similar: (id, perPage) =>
      run('similar', async () => {
        const deadline = Date.now() + batching.timeoutMs;
        const seed = await get(String(id));
        return seed === null ? null : search(searchOf({ page: 1, per_page: perPage }, similarBody(seed, perPage)), { leftMs: deadline - Date.now() });
      }),
    changes: (after, perPage) => run('changes', () => changes(after, perPage)),
  };
}
