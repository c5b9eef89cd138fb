import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { compileParams, compileParamsCheck, refuseIfAny } from '../../http/query-validator.js';
import { invalidRequest } from '../../http/http-error.js';
import { parametersSchema } from '../../openapi/parameters.js';
import type { IdParams, Include, ListParams, Paging, SearchParams, SuggestParams } from '../params.js';
import { readColor } from '../colors.js';
import { countWords, readSearchText } from '../search-query.js';
import { type CursorCodec, queryDigest } from './cursor.js';

// What a catalogue request may ask: the OpenAPI document's schemas (compiled once: defaults and
// bounds live there), then, here and nowhere else, the rules between parameters that a schema of
// independent parameters cannot say.
const parseList = compileParams<ListParams & { cursor?: string; ids?: number[] }>(parametersSchema('/v1/wallpapers', 'get', 'query'));
const parseSearch = compileParams<Omit<SearchParams, 'text'> & { cursor?: string }>(parametersSchema('/v1/search', 'get', 'query'));
const checkId = compileParamsCheck<IdParams>(parametersSchema('/v1/wallpapers/{id}', 'get', 'path'), 'path');
const parseSuggest = compileParams<SuggestParams>(parametersSchema('/v1/search/suggest', 'get', 'query'));
const checkSimilar = compileParamsCheck<SimilarParams>(parametersSchema('/v1/wallpapers/{id}/similar', 'get', 'query'));
// The detail takes no query parameter: one sent is refused, as on every route, not ignored.
const checkDetailQuery = compileParamsCheck<Record<string, never>>(parametersSchema('/v1/wallpapers/{id}', 'get', 'query'));

const HAS_WORD = /[\p{L}\p{N}]/u;
const SEED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** One page request after its rules: what the repository is asked, and what its meta reports. */
export interface PageRequest<P extends ListParams = ListParams> {
  params: P;
  currentPage: number;
  /** Names the query (not the page) in the cursors it issues. */
  digest: string;
  /** A seed the client did not send: the one the API picked, or its cursor carried. The next page's link carries it. */
  pickedSeed?: string;
  /** A page size the client did not send, which its cursor carried. The next page's link carries it, for a build before that reads none from the cursor. */
  carriedPerPage?: number;
}

export interface PageRules {
  cursors: CursorCodec;
  /**
   * A page numbered must start within this many results; deeper ones are refused up front. The
   * index serves from + size up to this plus the largest page (index-mappings: max_result_window),
   * so a page that starts within it is served whole, the last of a list of 10,000 too.
   */
  maxResultWindow: number;
}

/** A seed for sort=random when the client gave none: 12 characters of the seed parameter's alphabet. */
function pickSeed(): string {
  return [...randomBytes(12)].map((byte) => SEED_ALPHABET[byte % SEED_ALPHABET.length]).join('');
}

// Whether a page that ends past the window is served does not hang on how many results there
// are: meta.total_pages may name a page that ends past it (30 per page over 10,000 results is 334
// pages, the last starting at 9,990), and every page a total names must be there.
function assertWithinWindow({ page, per_page }: Paging, maxResultWindow: number): void {
  const start = (page - 1) * per_page;
  if (start >= maxResultWindow) {
    throw invalidRequest(
      `Invalid query parameter 'page': a page must start within the first ${maxResultWindow} results, (page − 1) × per_page below ${maxResultWindow} ` +
        `(got page ${page} with per_page ${per_page}, starting at ${start}); continue with meta.next_cursor instead`,
    );
  }
}

/**
 * Tags compare in lower case, and colours are named once (an alias by its name, a hex with its '#'
 * and in lower case); each list means "any of" and is kept sorted, so spellings and orders of one
 * filter share cursors, caches and prepared queries.
 */
function normaliseFilters(params: ListParams): void {
  const lower = (values: readonly string[] | undefined) =>
    values === undefined ? undefined : [...new Set(values.map((v) => v.toLowerCase()))].sort();
  const sorted = <T extends string>(values: readonly T[]) => [...new Set(values)].sort();
  if (params.tags) params.tags = lower(params.tags);
  if (params.exclude_tags) params.exclude_tags = lower(params.exclude_tags);
  if (params.category) params.category = sorted(params.category);
  if (params.resolution) params.resolution = sorted(params.resolution);
  if (params.ratio) params.ratio = sorted(params.ratio);
  if (params.exclude_ids) params.exclude_ids = [...new Set(params.exclude_ids)].sort((a, b) => a - b);
  if (params.color)
    params.color = [
      ...new Set(
        params.color.map((value) => {
          const asked = readColor(value);
          return 'name' in asked ? asked.name : asked.hex;
        }),
      ),
    ].sort();
}

/** The seed, then the cursor: checked, bound to the query it was issued for, and turned into a position. */
function pageRequest<P extends ListParams & { cursor?: string }>(
  route: 'list' | 'search',
  ctx: Context,
  parsed: P,
  { cursors, maxResultWindow }: PageRules,
): PageRequest<Omit<P, 'cursor'>> {
  const { cursor, ...params } = parsed;
  normaliseFilters(params);
  if (params.seed !== undefined && params.sort !== 'random') {
    throw invalidRequest("Invalid query parameter 'seed': only with sort=random");
  }
  if (cursor === undefined) {
    let pickedSeed: string | undefined;
    if (params.sort === 'random' && params.seed === undefined) params.seed = pickedSeed = pickSeed();
    assertWithinWindow(params, maxResultWindow);
    return { params, currentPage: params.page, digest: queryDigest(route, params), pickedSeed };
  }
  if (ctx.query['page'] !== undefined) {
    throw invalidRequest("Invalid query parameter 'page': cannot be combined with 'cursor', which already says which page comes next");
  }
  const state = cursors.decode(cursor);
  // A walk's cursor carries its seed, so `meta.next_cursor` alone goes on as the Link header does
  // (the seed in the Link's query is the same one); a seed sent with it is bound like any parameter.
  // A cursor a build before issued carries none.
  let pickedSeed: string | undefined;
  if (params.sort === 'random' && params.seed === undefined) {
    // Without a seed inside, the cursor is of another order's walk, or of a random walk a build
    // before issued (random_score positions do not say which): both are told, naming the cursor.
    if (state.seed === undefined)
      throw invalidRequest(
        "Invalid query parameter 'cursor': it carries no seed of a sort=random walk: a cursor of a random walk begun before an upgrade needs its seed sent with it (meta.seed, or the Link header's query); one of another order belongs to a different query",
      );
    params.seed = pickedSeed = state.seed;
  }
  // Its page size likewise: a `per_page` sent is bound, one left out is the walk's, not the default.
  const carriedPerPage = ctx.query['per_page'] === undefined ? state.perPage : undefined;
  if (carriedPerPage !== undefined) params.per_page = carriedPerPage;
  const digest = queryDigest(route, params);
  if (state.query !== digest) {
    throw invalidRequest(
      "Invalid query parameter 'cursor': it belongs to a different query; send it with the same parameters as the page it came from (its Link header has them), or start again without a cursor",
    );
  }
  const depth = (state.page - 1) * params.per_page;
  return { params: { ...params, position: { ...state.position, depth } }, currentPage: state.page, digest, pickedSeed, carriedPerPage };
}

/** GET /v1/wallpapers: a page of the list, or, with `ids` (alone), those wallpapers. */
export function readListRequest(ctx: Context, rules: PageRules): { ids: number[] } | { page: PageRequest; fromCursor: boolean } {
  const parsed = parseList(ctx.query);
  if (parsed.ids !== undefined) {
    const others = Object.keys(ctx.query).filter((name) => name !== 'ids');
    if (others.length > 0) throw invalidRequest(`Invalid query parameter 'ids': cannot be combined with other parameters (got ${others.join(', ')})`);
    return { ids: [...new Set(parsed.ids)] };
  }
  const { ids: _none, ...rest } = parsed;
  return { page: pageRequest('list', ctx, rest, rules), fromCursor: parsed.cursor !== undefined };
}

/** GET /v1/search: a page of results for `q`, which is read here, once, into what it looks for. */
export function readSearchRequest(ctx: Context, rules: PageRules): { page: PageRequest<SearchParams>; fromCursor: boolean } {
  const parsed = parseSearch(ctx.query);
  const text = readSearchText(parsed.q);
  if (text.groups.length === 0) {
    // A query of no letter or digit ("😀", "!!!") is told that, not that its words were common.
    const why =
      countWords(parsed.q) === 0
        ? 'it holds no letter or digit'
        : "only excluded words, operators (OR, NOT, -, quotes) or common words such as 'the' were given";
    throw invalidRequest(`Invalid query parameter 'q': must contain a word to search for; ${why}`);
  }
  const page = pageRequest('search', ctx, parsed, rules);
  return { page: { ...page, params: { ...page.params, text } }, fromCursor: parsed.cursor !== undefined };
}

/** A route's path id and its query, read together: a 400 names every broken rule of both. */
function readIdAndQuery<Q>(
  ctx: Context & { params: Record<string, string> },
  checkQuery: (raw: Context['query']) => { data: Q; problems: string[] },
): IdParams & Q {
  const id = checkId({ id: ctx.params['id'] });
  const query = checkQuery(ctx.query);
  refuseIfAny([...id.problems, ...query.problems]);
  return { ...id.data, ...query.data };
}

/** GET /v1/wallpapers/{id}: the id, and nothing else. */
export function readDetailRequest(ctx: Context & { params: Record<string, string> }): IdParams {
  return readIdAndQuery(ctx, checkDetailQuery);
}

export interface SimilarParams {
  per_page: number;
  include?: Include[];
}

/** GET /v1/wallpapers/{id}/similar: whose likes, how many, and what each item shows. */
export function readSimilarRequest(ctx: Context & { params: Record<string, string> }): IdParams & SimilarParams {
  return readIdAndQuery(ctx, checkSimilar);
}

// Tabs and line breaks are spaces in what is typed, as in a search's q; the contract refuses every
// other control character (the completion field reserves U+001F). Read here, one spelling reaches
// the cache, the batch and the suggester, and meta.q shows the text as it was read.
const LINE_SPACE = /[\t\n\v\f\r\u0085]/g;

export function readSuggestRequest(ctx: Context): SuggestParams {
  const params = parseSuggest(ctx.query);
  if (!HAS_WORD.test(params.q)) throw invalidRequest("Invalid query parameter 'q': must contain at least one letter or digit");
  return { ...params, q: params.q.replace(LINE_SPACE, ' ').trim() };
}
