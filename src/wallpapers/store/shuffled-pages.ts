import { type Shared, share } from '../../infra/shared-result.js';
import type { ListParams, Position } from '../params.js';
import type { ShuffledRead } from './build-queries.js';
import type { Page } from './repository.js';
import { NO_KEY, type Shuffle, aboveOffset, shuffleKey, shuffleOf } from './shuffle.js';

/**
 * One search of the page's query (a list's or a search's), as `read` says: on `index` when given
 * (the one the page's first part came from, so an alias moved meanwhile cannot mix two catalogues
 * in a page), else where the page's params say.
 */
export type ShuffledReader = (read: ShuffledRead, index?: string) => Promise<Shared<Page>>;

/** A catalogue loaded before the keys sorts every wallpaper as NO_KEY: one hit tells. */
const unkeyed = (page: Page) => page.last?.after[0] === NO_KEY;

/** The wallpapers of a page from the bottom of the key, up to the offset, where the walk began. */
function upToOffset(page: Page, shuffle: Shuffle): Page['items'] {
  const end = page.items.findIndex((item) => aboveOffset(shuffle, shuffleKey(item.id, shuffle.key)));
  return end === -1 ? page.items : page.items.slice(0, end);
}

/** Where a page made of `parts` ends: the last wallpaper's key and id, on the walk's index. */
function lastOf(items: Page['items'], parts: readonly Page[], shuffle: Shuffle): Position | undefined {
  const last = items.at(-1);
  const index = parts.find((part) => part.last)?.last?.index;
  if (!last || !index) return undefined;
  return { index, after: [shuffleKey(last.id, shuffle.key), last.id], shuffled: true };
}

function page(items: Page['items'], total: number, parts: readonly Page[], shuffle: Shuffle): Shared<Page> {
  const last = lastOf(items, parts, shuffle);
  return share({ items, total, ...(last ? { last } : {}) });
}

/**
 * Page 1, or the page after a cursor's position. On the first lap (keys from the offset up) one
 * search_after read, and when the lap ends inside the page, a second from the bottom for the rest.
 * On the second lap, one read, cut where the keys reach the offset again: the walk is over.
 */
async function fromPosition(params: ListParams, shuffle: Shuffle, read: ShuffledReader): Promise<Shared<Page>> {
  const { position, per_page } = params;
  const after = position ? position.after : [shuffle.offset, 0];
  const first = await read({ read: 'from', after, size: per_page, counts: position === undefined });
  if (position === undefined && unkeyed(first)) return read({ read: 'scored' });
  const total = first.total;
  if (!aboveOffset(shuffle, Number(after[0]))) return page(upToOffset(first, shuffle), total, [first], shuffle);
  // A full page, or the walk's last: nothing to read from the bottom (an empty result asks once).
  const served = (position?.depth ?? 0) + first.items.length;
  if (first.items.length === per_page || served >= total) return page(first.items, total, [first], shuffle);
  const rest = await read({ read: 'from', after: null, size: per_page - first.items.length, counts: false }, first.last?.index);
  return page([...first.items, ...upToOffset(rest, shuffle)], total, [rest, first], shuffle);
}

/**
 * Page N by number: no search_after with `from`, so the keys at or above the offset are a range,
 * read from the page's place, beside a count of the whole (its total, and one hit that says
 * whether the catalogue has keys); a page past the first lap reads the keys below the offset.
 * The range makes these pages cost more as the catalogue grows; a cursor does not.
 */
async function byNumber(params: ListParams, shuffle: Shuffle, read: ShuffledReader): Promise<Shared<Page>> {
  const { page: number, per_page } = params;
  const from = (number - 1) * per_page;
  const [whole, above] = await Promise.all([read({ read: 'count' }), read({ read: 'above', from, size: per_page })]);
  if (unkeyed(whole)) return read({ read: 'scored' });
  if (above.items.length === per_page || from + above.items.length >= whole.total) {
    return page(above.items, whole.total, [above], shuffle);
  }
  const firstLap = above.total;
  const below = await read({ read: 'below', from: Math.max(0, from - firstLap), size: per_page - above.items.length }, whole.last?.index);
  return page([...above.items, ...below.items], whole.total, [below, above], shuffle);
}

/**
 * A page of sort=random: the seed's walk along one key (shuffle.ts). A walk a cursor began by
 * score goes on by score, and so does any page of a catalogue loaded before the keys.
 */
export function readShuffledPage(params: ListParams, read: ShuffledReader): Promise<Shared<Page>> {
  if (params.position && !params.position.shuffled) return read({ read: 'scored' });
  const shuffle = shuffleOf(params.seed ?? '');
  return params.position === undefined && params.page > 1 ? byNumber(params, shuffle, read) : fromPosition(params, shuffle, read);
}
