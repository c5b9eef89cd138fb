import type { Context } from 'koa';
import { compileParams } from '../../http/query-validator.js';
import { invalidRequest } from '../../http/http-error.js';
import { parametersSchema } from '../../openapi/parameters.js';
import { type ListItem, toListItem } from '../catalogued.js';
import type { Include } from '../params.js';
import type { FeedPosition } from '../store/change-log.js';
import type { ChangePage } from '../store/repository.js';
import { type CursorCodec, FEED_POSITION, queryDigest } from './cursor.js';

// GET /v1/changes: what a page of the feed asks, and how it answers (see change-log.ts).

const parseChanges = compileParams<{ cursor?: string; per_page: number; include?: Include[] }>(parametersSchema('/v1/changes', 'get', 'query'));

// A feed cursor names no index (the feed outlives every index) and no query but the feed itself,
// so a list's cursor is refused here and a feed cursor there.
const FEED = FEED_POSITION;
const FEED_DIGEST = queryDigest(FEED, {});
// The codec's own rule: a cursor continues at page 2 or later; the feed has no pages.
const FEED_PAGE = 2;

export interface ChangesRequest {
  after: FeedPosition | null;
  per_page: number;
  include?: Include[];
}

const notAFeedCursor = () =>
  invalidRequest("Invalid query parameter 'cursor': not a cursor of this feed; pass meta.next_cursor of the previous page of /v1/changes unchanged");

export function readChangesRequest(ctx: Context, cursors: CursorCodec): ChangesRequest {
  const { cursor, per_page, include } = parseChanges(ctx.query);
  if (cursor === undefined) return { after: null, per_page, ...(include ? { include } : {}) };
  const { position, query, history } = cursors.decode(cursor);
  const [seq, id] = position.after;
  if (query !== FEED_DIGEST || position.index !== FEED || position.after.length !== 2 || !isCount(seq) || !isCount(id)) throw notAFeedCursor();
  return { after: { seq, id, ...(history === undefined ? {} : { history }) }, per_page, ...(include ? { include } : {}) };
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export interface ChangeItem {
  id: number;
  change: 'upsert' | 'delete';
  at: string;
  wallpaper?: ListItem;
}

export interface ChangeList {
  data: ChangeItem[];
  meta: { per_page: number; next_cursor: string; has_more: boolean };
}

/**
 * The page's envelope: its cursor always, from where the page ends (or where the walk stood, at
 * the end), in the history the page was read in (ChangePage.history).
 */
export function changeList(page: ChangePage, { after, per_page, include }: ChangesRequest, cursors: CursorCodec): ChangeList {
  const end = page.last ?? after ?? { seq: 0, id: 0 };
  return {
    data: page.items.map(({ id, change, at, wallpaper }) =>
      wallpaper === undefined ? { id, change, at } : { id, change, at, wallpaper: toListItem(wallpaper, include) },
    ),
    meta: {
      per_page,
      next_cursor: cursors.encode({
        position: { index: FEED, after: [end.seq, end.id] },
        page: FEED_PAGE,
        query: FEED_DIGEST,
        ...(page.history === undefined ? {} : { history: page.history }),
      }),
      has_more: page.more,
    },
  };
}
