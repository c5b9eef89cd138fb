import type { Client } from '@elastic/elasticsearch';
import { type Logger, silentLogger } from '../../infra/logger.js';
import type { Include, ListParams, SearchParams, SuggestParams } from '../params.js';
import type { Found, Page, Suggestions, WallpaperRepository } from './repository.js';
import { type Shared, derivedOnce } from '../../infra/shared-result.js';
import { type CataloguedWallpaper, unpackPalette, unpackTags } from '../catalogued.js';
import type { WallpaperDetail } from '../wallpaper.js';
import { ByteBudgetLru } from '../../infra/byte-budget-lru.js';
import { catalogueVersion } from './catalogue-version.js';

export interface ResponseCacheOptions {
  es: Client;
  alias: string;
  /** Budget for cached results; 0 turns the cache off. */
  maxBytes: number;
  ttlMs: number;
  /** Cached results are served only while the catalogue was seen unchanged this recently. */
  checkIntervalMs: number;
  logger?: Logger;
  now?: () => number;
  /** Told of every lookup: served from the cache, loaded, or bypassed while freshness is unconfirmed. */
  onLookup?: (result: 'hit' | 'miss' | 'bypass') => void;
  /** Where the fingerprint comes from; tests replace it. */
  version?: (es: Client, alias: string) => Promise<string>;
}

type Result = Shared<Page> | Shared<Found> | Shared<WallpaperDetail> | Shared<Suggestions> | null;

// Per-object overhead of a V8 object with a handful of properties, roughly.
const OBJECT_BYTES = 120;

// What every entry holds besides its result: the LRU's entry and slot, the key, the kept JSON's
// record and ETag, and the weak-map slots that tie them to the result. Measured in a running
// server, a demo detail held 2.7-3.1 KB with all of these, about 1 KB more than its object and
// JSON alone.
const ENTRY_BYTES = 600;

// Field names, numbers and punctuation of one wallpaper in JSON, roughly.
const JSON_ITEM_BYTES = 200;

// The JSON kept with a result (one byte a character) and both of its encoded forms (br and gzip,
// once a client asked for them; see compression: 26-27 % of the JSON each for a page of 20, 19 %
// for a page of 100), against the JSON's length.
const SERIALISED_SHARE = 1.6;

// A tag shown unpacked: a string's header and the array's slot (its characters are counted apart).
const TAG_BYTES = 32;
// A colour shown unpacked: its object, a 7-character hex and a number; and in JSON, about 32 characters.
const COLOR_BYTES = 2 * OBJECT_BYTES;
const COLOR_JSON_CHARS = 32;
// Width, height, ratio and orientation in JSON; tone in JSON.
const DIMENSIONS_JSON_CHARS = 70;
const TONE_JSON_CHARS = 16;

/**
 * Tags and colours unpacked for a response: the detail always shows them, a list item when
 * `include` asks. They are objects, not text: each costs its overhead once, and its characters
 * twice (the string and the JSON) plus the encoded forms.
 */
function shownBytes({ tags, colors }: Pick<WallpaperDetail, 'tags' | 'colors'>, show: readonly Include[]): number {
  const tagChars = tags.reduce((sum, tag) => sum + tag.length, 0);
  let bytes = 0;
  if (show.includes('dimensions')) bytes += DIMENSIONS_JSON_CHARS * SERIALISED_SHARE;
  if (show.includes('tags')) bytes += tags.length * TAG_BYTES + tagChars + (tagChars + 3 * tags.length) * SERIALISED_SHARE;
  if (show.includes('colors')) bytes += colors.length * (COLOR_BYTES + COLOR_JSON_CHARS * SERIALISED_SHARE) + TONE_JSON_CHARS * SERIALISED_SHARE;
  return bytes;
}

const DETAIL_SHOWS: readonly Include[] = ['dimensions', 'tags', 'colors'];

/**
 * An upper estimate of what a cached wallpaper holds: its object and strings (two bytes a
 * character at most), the JSON kept beside it (see conditionalGet) and that JSON's encoded forms.
 * A list item as kept holds its tags and palette packed in two strings; shown with `include`, the
 * page's envelope holds another object per item with them unpacked (see pageEnvelope).
 */
function wallpaperBytes(w: CataloguedWallpaper | WallpaperDetail, include: readonly Include[] | undefined): number {
  const described = 'tags' in w;
  const packedChars = described ? 0 : (w.tag_line?.length ?? 0) + (w.palette_line?.length ?? 0);
  const chars =
    w.title.length +
    w.description.length +
    w.url.length +
    w.thumbnail.length +
    w.resolution.length +
    w.category.length +
    w.created_at.length +
    packedChars;
  const own = OBJECT_BYTES + 2 * chars + chars * SERIALISED_SHARE + JSON_ITEM_BYTES;
  if (described) return own + shownBytes(w, DETAIL_SHOWS);
  if (!include || include.length === 0) return own;
  return own + OBJECT_BYTES + shownBytes({ tags: unpackTags(w.tag_line), colors: unpackPalette(w.palette_line) }, include);
}

/** `include`: what a page's items are shown with, which its cache key holds (see paramsKey). */
export function estimateBytes(key: string, result: Result, include?: readonly Include[]): number {
  const base = ENTRY_BYTES + 2 * key.length;
  if (result === null) return base;
  if ('items' in result) return result.items.reduce((sum, item) => sum + wallpaperBytes(item, include), base + OBJECT_BYTES);
  if ('texts' in result) return result.texts.reduce((sum, text) => sum + OBJECT_BYTES + 3 * text.length, base + OBJECT_BYTES);
  return base + wallpaperBytes(result, undefined);
}

const suggestKey = ({ q, limit }: SuggestParams) => JSON.stringify(['suggest', q, limit]);
// Every parameter is part of the key, in a fixed order, so a new parameter can never be left
// out of it: two requests share an entry only when they ask exactly the same thing. A search's
// `text` is read from its `q`, which the key holds already.
const paramsKey = (kind: string, params: ListParams | SearchParams) =>
  JSON.stringify([
    kind,
    Object.entries(params)
      .filter(([name, value]) => value !== undefined && name !== 'text')
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ]);
const idsKey = (ids: readonly number[]) => JSON.stringify(['ids', ids]);

// Shared parameters are the routes' prepared ones, handed to every request with the same query
// string: their key is built once (about 3.7 µs otherwise).
const listKeyOf = derivedOnce<string>();
const searchKeyOf = derivedOnce<string>();
const keyOf = (kind: 'list' | 'search', params: ListParams | SearchParams): string =>
  (kind === 'list' ? listKeyOf : searchKeyOf)(params, () => paramsKey(kind, params));

/**
 * Keeps recent repository results in process, keyed by the normalised parameters, so a
 * hot request costs no Elasticsearch call. A hit is served only while the catalogue's
 * fingerprint (indices behind the alias, visible count, highest sequence number; see
 * catalogueVersion) was confirmed unchanged within `checkIntervalMs`: a moved alias or an
 * in-place write empties the cache at most that long after it becomes visible. The check
 * runs in the background when half the interval has passed, so it adds no latency under
 * load; when it is overdue or failing, requests go straight to the repository. Identical
 * concurrent misses share one Elasticsearch call; errors are never cached.
 */
export function withResponseCache(repository: WallpaperRepository, options: ResponseCacheOptions): WallpaperRepository {
  if (options.maxBytes <= 0) return repository;
  const { es, alias, checkIntervalMs, logger = silentLogger, now = Date.now, version = catalogueVersion } = options;
  const onLookup = options.onLookup ?? (() => undefined);
  const lru = new ByteBudgetLru<Result>(options.maxBytes, options.ttlMs);
  const inFlight = new Map<string, Promise<Result>>();
  let fingerprint: string | null = null;
  let generation = 0;
  let confirmedAt = -Infinity;
  let attemptedAt = -Infinity;
  let checking: Promise<void> | null = null;

  function check(): Promise<void> {
    if (checking) return checking;
    const issuedAt = now();
    attemptedAt = issuedAt;
    checking = version(es, alias)
      .then(
        (seen) => {
          if (seen !== fingerprint) {
            if (fingerprint !== null) logger.debug('catalogue changed: response cache emptied', { alias });
            fingerprint = seen;
            generation++;
            lru.clear();
            inFlight.clear();
          }
          confirmedAt = issuedAt;
        },
        (err: unknown) => {
          logger.debug('catalogue check failed: response cache bypassed', { alias, reason: err instanceof Error ? err.message : String(err) });
        },
      )
      .finally(() => {
        checking = null;
      });
    return checking;
  }

  function cached<R extends Result>(key: string, load: () => Promise<R>, include?: readonly Include[]): Promise<R> {
    const at = now();
    if (at - attemptedAt >= checkIntervalMs / 2) void check();
    if (at - confirmedAt > checkIntervalMs) {
      onLookup('bypass');
      return load();
    }
    const hit = lru.get(key, at);
    if (hit !== undefined) {
      onLookup('hit');
      return Promise.resolve(hit as R);
    }
    onLookup('miss');
    const pending = inFlight.get(key);
    if (pending) return pending as Promise<R>;
    const startedIn = generation;
    const loading = load().then(
      (result) => {
        if (inFlight.get(key) === loading) inFlight.delete(key);
        if (generation === startedIn) lru.set(key, result, estimateBytes(key, result, include), now());
        return result;
      },
      (err: unknown) => {
        if (inFlight.get(key) === loading) inFlight.delete(key);
        throw err;
      },
    );
    inFlight.set(key, loading);
    return loading;
  }

  return {
    list: (params) => cached(keyOf('list', params), () => repository.list(params), params.include),
    search: (params) => cached(keyOf('search', params), () => repository.search(params), params.include),
    getById: (id) => cached(`get ${id}`, () => repository.getById(id)),
    getByIds: (ids) => cached(idsKey(ids), () => repository.getByIds(ids)),
    similar: (id, perPage) => cached(`similar ${id} ${perPage}`, () => repository.similar(id, perPage)),
    suggest: (params) => cached(suggestKey(params), () => repository.suggest(params)),
    // Never cached: a tail read must see a change as soon as the watermark admits it.
    changes: (after, perPage) => repository.changes(after, perPage),
  };
}
