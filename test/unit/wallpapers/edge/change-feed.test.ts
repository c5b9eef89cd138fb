import { expect } from 'chai';
import type { Context } from 'koa';
import { HttpError } from '../../../../src/http/http-error.js';
import { changeList, readChangesRequest } from '../../../../src/wallpapers/edge/change-feed.js';
import { createCursorCodec, queryDigest } from '../../../../src/wallpapers/edge/cursor.js';
import type { CataloguedWallpaper } from '../../../../src/wallpapers/catalogued.js';
import { toWallpaper } from '../../../../src/wallpapers/wallpaper.js';

const cursors = createCursorCodec('s'.repeat(32));
const ctx = (query: Record<string, string>) => ({ query }) as unknown as Context;

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(HttpError);
    return (err as HttpError).message;
  }
  throw new Error('expected a refusal');
}

const kept: CataloguedWallpaper = {
  id: 7,
  title: 'Harbour',
  description: '',
  url: 'https://i.example/7.jpg',
  thumbnail: 'https://i.example/t/7.jpg',
  resolution: '1920x1080',
  category: 'cityscapes',
  downloads: 3,
  created_at: '2024-01-01T00:00:00Z',
  tag_line: 'harbour|night',
  change_seq: 41,
};

describe('the change feed`s requests and pages', () => {
  it('when no cursor is given, then the walk starts at the beginning with the default page size', () => {
    expect(readChangesRequest(ctx({}), cursors)).to.deep.equal({ after: null, per_page: 20 });
  });

  it('when a page is answered, then its cursor says where it ended and reads back as that position', () => {
    const body = changeList(
      { items: [{ id: 7, change: 'upsert', at: 'then', wallpaper: kept }], last: { seq: 41, id: 7 }, more: true },
      { after: null, per_page: 5 },
      cursors,
    );
    expect(body.data).to.deep.equal([
      {
        id: 7,
        change: 'upsert',
        at: 'then',
        wallpaper: toWallpaper(kept),
      },
    ]);
    expect(body.meta).to.include({ per_page: 5, has_more: true });
    expect(readChangesRequest(ctx({ cursor: body.meta.next_cursor }), cursors).after).to.deep.equal({ seq: 41, id: 7 });
  });

  it('when the page is empty, then the cursor stays where the walk stood (or at the start)', () => {
    const at = { seq: 9, id: 3 };
    const body = changeList({ items: [], more: false }, { after: at, per_page: 20 }, cursors);
    expect(readChangesRequest(ctx({ cursor: body.meta.next_cursor }), cursors).after).to.deep.equal(at);
    const fresh = changeList({ items: [], more: false }, { after: null, per_page: 20 }, cursors);
    expect(readChangesRequest(ctx({ cursor: fresh.meta.next_cursor }), cursors).after).to.deep.equal({ seq: 0, id: 0 });
  });

  it('when a delete is answered, then it has no wallpaper field, and include adds fields to an upsert', () => {
    const body = changeList(
      {
        items: [
          { id: 3, change: 'delete', at: 'now' },
          { id: 7, change: 'upsert', at: 'then', wallpaper: kept },
        ],
        more: false,
      },
      { after: null, per_page: 20, include: ['tags'] },
      cursors,
    );
    expect(body.data[0]).to.deep.equal({ id: 3, change: 'delete', at: 'now' });
    expect(body.data[1]!.wallpaper!.tags).to.deep.equal(['harbour', 'night']);
  });

  it('when a list`s cursor, or one whose position is not the feed`s, comes, then 400 names cursor', () => {
    const list = cursors.encode({ position: { index: 'wallpapers-1', after: [1, 2] }, page: 2, query: queryDigest('list', { per_page: 20 }) });
    expect(refusal(() => readChangesRequest(ctx({ cursor: list }), cursors))).to.contain("'cursor'");
    const negative = cursors.encode({ position: { index: 'changes', after: [-1, 2] }, page: 2, query: queryDigest('changes', {}) });
    expect(refusal(() => readChangesRequest(ctx({ cursor: negative }), cursors))).to.contain("'cursor'");
    const text = cursors.encode({ position: { index: 'changes', after: ['x', 2] }, page: 2, query: queryDigest('changes', {}) });
    expect(refusal(() => readChangesRequest(ctx({ cursor: text }), cursors))).to.contain("'cursor'");
  });

  it('when a page is read in a history, then its cursor carries it back; a page read without one gives a cursor without one', () => {
    const page = { items: [{ id: 7, change: 'upsert' as const, at: 'then', wallpaper: kept }], last: { seq: 41, id: 7 }, more: false };
    const inHistory = changeList({ ...page, history: 'h-1_A' }, { after: null, per_page: 5 }, cursors);
    expect(readChangesRequest(ctx({ cursor: inHistory.meta.next_cursor }), cursors).after).to.deep.equal({ seq: 41, id: 7, history: 'h-1_A' });
    const without = changeList(page, { after: null, per_page: 5 }, cursors);
    expect(readChangesRequest(ctx({ cursor: without.meta.next_cursor }), cursors).after).to.deep.equal({ seq: 41, id: 7 });
  });

  it('when a sealed cursor names a history that is not text of the ids the tools write, then 400 names cursor', () => {
    for (const history of ['', 'a b', 'é', 'x'.repeat(65)]) {
      const cursor = cursors.encode({ position: { index: 'changes', after: [1, 2] }, page: 2, query: queryDigest('changes', {}), history });
      expect(refusal(() => readChangesRequest(ctx({ cursor }), cursors))).to.contain("'cursor'");
    }
  });
});
