import { expect } from 'chai';
import { toWallpaper } from '../../src/wallpapers/wallpaper.js';
import { byNewestThenId } from '../support/fixtures.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

describe('GET /v1/wallpapers', () => {
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });

  it('when no parameters are given, then page 1 of 20 newest-first wallpapers is returned with exact totals', async () => {
    const res = await get('/v1/wallpapers');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    const expected = [...ctx.docs].sort(byNewestThenId).slice(0, 20).map(toWallpaper);
    expect(res.body.data).to.deep.equal(expected);
    expect(res.body.meta).to.deep.include({ current_page: 1, per_page: 20, total_items: 60, total_pages: 3 });
    expect(res.body.meta.next_cursor).to.be.a('string');
  });

  it('when created_at ties, then the higher id comes first', async () => {
    const res = await get('/v1/wallpapers?per_page=100');
    const ids = res.body.data.map((w: { id: number }) => w.id);
    expect(ids.indexOf(59)).to.be.lessThan(ids.indexOf(58));
    expect(ids).to.deep.equal([...ctx.docs].sort(byNewestThenId).map((d) => d.id));
  });

  it('when page and per_page are given, then that slice is returned and meta reports them', async () => {
    const res = await get('/v1/wallpapers?page=2&per_page=7');
    const expected = [...ctx.docs].sort(byNewestThenId).slice(7, 14).map(toWallpaper);
    expect(res.body.data).to.deep.equal(expected);
    expect(res.body.meta).to.deep.include({ current_page: 2, per_page: 7, total_items: 60, total_pages: 9 });
    expect(res.body.meta.next_cursor).to.be.a('string');
  });

  it('when per_page is above 100, then 100 is used and reported in meta.per_page', async () => {
    const res = await get('/v1/wallpapers?per_page=1000');
    expect(res.status).to.equal(200);
    expect(res.body.meta.per_page).to.equal(100);
    expect(res.body.meta.total_pages).to.equal(1);
    expect(res.body.data).to.have.length(60);
  });

  it('when filtering by category, then only that category is returned with its exact total', async () => {
    const res = await get('/v1/wallpapers?category=space&per_page=5');
    const expected = ctx.docs.filter((d) => d.category === 'space').sort(byNewestThenId);
    expect(res.body.meta).to.deep.include({ current_page: 1, per_page: 5, total_items: expected.length, total_pages: 3 });
    expect(res.body.data).to.deep.equal(expected.slice(0, 5).map(toWallpaper));
  });

  it('when filtering by category and resolution, then both filters apply', async () => {
    const res = await get('/v1/wallpapers?category=nature&resolution=3840x2160&per_page=100');
    const expected = ctx.docs.filter((d) => d.category === 'nature' && d.resolution === '3840x2160').sort(byNewestThenId);
    expect(expected.length).to.be.greaterThan(0);
    expect(res.body.data).to.deep.equal(expected.map(toWallpaper));
    expect(res.body.meta.total_items).to.equal(expected.length);
  });

  it('when a well-formed resolution matches nothing, then an empty page with zero totals is returned', async () => {
    const res = await get('/v1/wallpapers?resolution=7680x4320');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: [], meta: { current_page: 1, per_page: 20, total_items: 0, total_pages: 0, next_cursor: null } });
  });

  it('when the page is past the last page, then 200 with empty data and true meta', async () => {
    const res = await get('/v1/wallpapers?page=4');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: [], meta: { current_page: 4, per_page: 20, total_items: 60, total_pages: 3, next_cursor: null } });
  });

  it('when a page ends at the result window, then Elasticsearch serves it', async () => {
    const res = await get('/v1/wallpapers?page=100&per_page=100');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal([]);
  });

  it('when a page starts within the result window and ends past it, then Elasticsearch serves it: every page total_pages counts is there', async () => {
    for (const path of [
      '/v1/wallpapers?page=1429&per_page=7',
      '/v1/wallpapers?sort=random&seed=tide42&page=1429&per_page=7',
      '/v1/search?q=wallpaper&page=1429&per_page=7',
    ]) {
      const res = await get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body.meta, path).to.include({ current_page: 1429, per_page: 7 });
    }
  });

  it('when a page starts past the result window, then 400 states the limit', async () => {
    const res = await get('/v1/wallpapers?page=101&per_page=100');
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ error: 'invalid_request', status: 400 });
    expect(res.body.message).to.include('page').and.include('10000');
  });

  it('when every wallpaper is returned, then each has exactly the nine spec fields in their formats', async () => {
    const res = await get('/v1/wallpapers?per_page=100');
    for (const w of res.body.data) {
      expect(Object.keys(w).sort()).to.deep.equal([
        'category',
        'created_at',
        'description',
        'downloads',
        'id',
        'resolution',
        'thumbnail',
        'title',
        'url',
      ]);
      expect(w.id).to.be.a('number');
      expect(w.downloads).to.be.a('number');
      expect(w.created_at).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(w.resolution).to.match(/^\d+x\d+$/);
      expect(new URL(w.url).protocol).to.equal('https:');
      expect(new URL(w.thumbnail).protocol).to.equal('https:');
    }
  });
});
