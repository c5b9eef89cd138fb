import { expect } from 'chai';
import { request } from '../support/harness.js';
import { createCursorCodec } from '../../src/wallpapers/edge/cursor.js';
import type { Position } from '../../src/wallpapers/params.js';
import { useCatalogue } from './catalogue-context.js';

// A cursor is sealed, so only this API makes one; but a client keeps it for as long as it likes
// (a mirror's walk, a change-feed position), and the build that reads it may not be the build
// that wrote it. A position its order cannot continue must end the walk cleanly, never as a 500
// carrying whatever Elasticsearch made of it.
describe('cursors whose position the order cannot continue', function () {
  this.timeout(30_000);
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });

  /** The next page's path with the cursor's position replaced, sealed with the app's own secret. */
  async function withPosition(path: string, change: (position: Position) => Position): Promise<string> {
    const first = await get(path);
    expect(first.status).to.equal(200);
    const cursor = first.body.meta.next_cursor as string;
    const codec = createCursorCodec(ctx.config.cursorSecret!);
    const state = codec.decode(cursor);
    return `${path}&cursor=${codec.encode({ ...state, position: change(state.position) })}`;
  }

  const walks = [
    '/v1/wallpapers?per_page=3',
    '/v1/wallpapers?per_page=3&sort=oldest',
    '/v1/wallpapers?per_page=3&sort=downloads',
    '/v1/search?q=picture+desktop&per_page=3',
    '/v1/search?q=picture+desktop&per_page=3&sort=newest',
  ];
  const misfits: [string, (p: Position) => Position][] = [
    ['one value more', (p) => ({ ...p, after: [...p.after, 1] })],
    ['one value fewer', (p) => ({ ...p, after: p.after.slice(1) })],
    ['a word for a number', (p) => ({ ...p, after: p.after.map((v, i) => (i === 0 ? 'soon' : v)) })],
    ['a fraction for the id', (p) => ({ ...p, after: p.after.map((v, i) => (i === p.after.length - 1 ? 2.5 : v)) })],
    ['a place along a shuffle key', (p) => ({ ...p, after: [5, 7], shuffled: true })],
  ];
  for (const path of walks) {
    it(`when a cursor of ${path} holds a position its order cannot continue, then 410 cursor_expired, never a 500`, async () => {
      for (const [what, change] of misfits) {
        const res = await get(await withPosition(path, change));
        expect(res.status, what).to.equal(410);
        expect(res.body, what).to.deep.equal({ error: 'cursor_expired', message: res.body.message, status: 410 });
        expect(res.body.message, what).to.match(/start the walk again without a cursor/);
        expect(res.text, what).not.to.match(/search_after|elasticsearch|exception/i);
      }
    });
  }

  it('when a sort=random cursor holds a position of another order, then 410 cursor_expired', async () => {
    const res = await get(await withPosition('/v1/wallpapers?per_page=3&sort=random&seed=7', (p) => ({ index: p.index, after: [1, 2, 3] })));
    expect(res.status).to.equal(410);
    expect(res.body.error).to.equal('cursor_expired');
  });

  it('when a relevance cursor holds scores of another scoring, or of a build before scorings were numbered, then 410 cursor_expired; other orders go on', async () => {
    const unnumbered = ({ ranking: _dropped, ...rest }: Position): Position => rest;
    for (const change of [(p: Position) => ({ ...p, ranking: (p.ranking ?? 0) + 1 }), unnumbered]) {
      const res = await get(await withPosition('/v1/search?q=picture+desktop&per_page=3', change));
      expect(res.status).to.equal(410);
      expect(res.body.error).to.equal('cursor_expired');
      const newest = await get(await withPosition('/v1/search?q=picture+desktop&per_page=3&sort=newest', change));
      expect(newest.status, 'scores play no part in sort=newest').to.equal(200);
    }
  });

  it('when a cursor holds a position that fits its order, then the walk goes on from it', async () => {
    for (const path of [...walks, '/v1/wallpapers?per_page=3&sort=random&seed=7']) {
      const res = await get(await withPosition(path, (p) => p));
      expect(res.status, path).to.equal(200);
      expect(res.body.meta.current_page, path).to.equal(2);
    }
  });
});
