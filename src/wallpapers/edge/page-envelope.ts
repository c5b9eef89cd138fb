import type { Context } from 'koa';
import { type JsonObject, openApiDocument, resolveRef } from '../../openapi/document.js';
import { type Shared, derivedOnce, isShared, share } from '../../infra/shared-result.js';
import type { Include, Mistyped, SuggestParams } from '../params.js';
import type { Found, Page } from '../store/repository.js';
import type { CursorCodec } from './cursor.js';
import type { PageRequest } from './request-rules.js';
import { type ListItem, toListItem } from '../catalogued.js';

// The answers' shape: the list envelope (data + meta), its next link, and the suggestion list.

interface Meta {
  current_page: number;
  per_page: number;
  total_items: number;
  total_pages: number;
  next_cursor: string | null;
  seed?: string;
  facets?: Page['facets'];
  missing?: readonly number[];
  did_you_mean?: { corrections: readonly Mistyped[]; total_items: number };
}

export interface Envelope {
  data: readonly ListItem[];
  meta: Meta;
}

/**
 * Whether a walk goes on past a page, which brings what it has served to `served`: a full page
 * does while fewer were served than the matches counted, and past that when reading on found more
 * (Page.more). A walk through an unchanged catalogue so ends on its last page, never on an empty
 * one after it.
 */
export function walkGoesOn({ items, total, last, more }: Page, perPage: number, served: number): boolean {
  return last !== undefined && items.length === perPage && (more ?? served < total);
}

function buildEnvelope(result: Shared<Page>, request: PageRequest, cursors: CursorCodec): Envelope {
  const { items, total, last, facets, suggestion } = result;
  const { per_page } = request.params;
  // The walk's seed, told in meta and carried by its cursor.
  const seed = request.params.sort === 'random' ? request.params.seed : undefined;
  const served = (request.currentPage - 1) * per_page + items.length;
  const next =
    last && walkGoesOn(result, per_page, served)
      ? cursors.encode({
          position: { ...last, total },
          page: request.currentPage + 1,
          query: request.digest,
          ...(seed !== undefined ? { seed } : {}),
          perPage: per_page,
        })
      : null;
  return {
    data: items.map((item) => toListItem(item, request.params.include)),
    meta: {
      current_page: request.currentPage,
      per_page,
      total_items: total,
      total_pages: Math.ceil(total / per_page),
      next_cursor: next,
      ...(seed !== undefined ? { seed } : {}),
      ...(facets ? { facets } : {}),
      ...(suggestion ? { did_you_mean: { corrections: suggestion.corrections, total_items: suggestion.total } } : {}),
    },
  };
}

const envelopesOf = derivedOnce<Map<string, Envelope>>();

/**
 * A page's envelope. A shared page is answered to every request with the same parameters, so its
 * envelope is built and shared once, and its serialized form is kept with it too (see
 * conditionalGet). Requests whose queries differ only in spelling, or in `include`, can share a
 * page, so envelopes are kept per query, page and include.
 */
export function pageEnvelope(result: Shared<Page>, request: PageRequest, cursors: CursorCodec): Envelope {
  if (!isShared(result)) return buildEnvelope(result, request, cursors);
  const envelopes = envelopesOf(result, () => new Map());
  const key = `${request.digest} ${request.currentPage} ${request.params.include?.join(',') ?? ''}`;
  let envelope = envelopes.get(key);
  if (envelope === undefined) envelopes.set(key, (envelope = share(buildEnvelope(result, request, cursors))));
  return envelope;
}

/** The one page of wallpapers like another: no next page, the total is what it holds. */
export function similarEnvelope({ items }: Page, perPage: number, include: readonly Include[] | undefined): Envelope {
  return {
    data: items.map((item) => toListItem(item, include)),
    meta: { current_page: 1, per_page: perPage, total_items: items.length, total_pages: items.length > 0 ? 1 : 0, next_cursor: null },
  };
}

export function foundEnvelope({ items, missing }: Found, asked: number): Envelope {
  // One page holds every id asked; as in any list, no page at all when nothing was found.
  const pages = items.length === 0 ? 0 : 1;
  return {
    data: items,
    meta: { current_page: 1, per_page: asked, total_items: items.length, total_pages: pages, next_cursor: null, missing },
  };
}

/**
 * The next page's parameters but its cursor: this request's parameters as the client spelled them,
 * trimmed as they are read, less `page` and `cursor`, plus the seed the API picked and the page
 * size a cursor carried: a link any instance follows, a build before these were carried too.
 */
export function nextLinkQuery(querystring: string, pickedSeed: string | undefined, carriedPerPage?: number): string {
  const query = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(querystring)) if (name !== 'page' && name !== 'cursor') query.append(name, value.trim());
  if (pickedSeed !== undefined) query.set('seed', pickedSeed);
  if (carriedPerPage !== undefined) query.set('per_page', String(carriedPerPage));
  return query.toString();
}

const LINK_MAX = linkBound();

function linkBound(): number {
  const headers = (openApiDocument['components'] as JsonObject)['headers'] as JsonObject;
  const schema = resolveRef(headers['Link'] as JsonObject)['schema'] as { maxLength?: unknown } | undefined;
  const bound = schema?.maxLength;
  if (typeof bound !== 'number') throw new Error('the OpenAPI document gives the Link header no maxLength');
  return bound;
}

/**
 * The next page's address, path-absolute so a forged Host header never reaches it. Left out when
 * it would pass the contract's bound (a request of many long values): meta.next_cursor says the
 * same, and a client's request is not echoed back at any length.
 */
export function setNextLink(ctx: Context, cursor: string | null, linkQuery: string): void {
  if (cursor === null) return;
  // A cursor is base64url and a dot: nothing in it needs escaping in a query.
  const link = `<${ctx.path}?${linkQuery}${linkQuery === '' ? '' : '&'}cursor=${cursor}>; rel="next"`;
  if (link.length <= LINK_MAX) ctx.set('Link', link);
}

interface SuggestionList {
  data: { text: string }[];
  meta: { q: string; limit: number };
}

export function suggestionList(texts: readonly string[], { q, limit }: SuggestParams): SuggestionList {
  return { data: texts.map((text) => ({ text })), meta: { q, limit } };
}
