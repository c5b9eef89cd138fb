import { expect } from 'chai';
import { FIXTURE_CATEGORIES, byNewestThenId } from '../support/fixtures.js';
import { type TestResponse, createIndexWithDocs, request } from '../support/harness.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { SortOrder } from '../../src/wallpapers/params.js';
import { asIssuedBeforeTheSeal } from '../support/legacy-cursor.js';
import { useCatalogue } from './catalogue-context.js';

interface Listed {
  id: number;
}

function nextLink(res: TestResponse): string | null {
  const link = res.headers.get('link');
  return link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
}

const ids = (docs: readonly { id: number }[]) => docs.map((d) => d.id);
const sortedIds = (docs: readonly { id: number }[]) => ids(docs).sort((a, b) => a - b);

describe('discovery on a real catalogue: sorts, cursors, filters, facets, ids', () => {
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });

  /** Follows Link headers from `path` to the end; every page must be 200. */
  async function walk(path: string): Promise<{ ids: number[]; pages: TestResponse[] }> {
    const seen: number[] = [];
    const pages: TestResponse[] = [];
    let next: string | null = path;
    while (next !== null) {
      const res = await get(next);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      pages.push(res);
      seen.push(...ids(res.body.data as Listed[]));
      next = nextLink(res);
    }
    return { ids: seen, pages };
  }

  const orders: [string, (a: WallpaperDocument, b: WallpaperDocument) => number][] = [
    ['newest', byNewestThenId],
    ['oldest', (a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id],
    ['downloads', (a, b) => b.downloads - a.downloads || a.id - b.id],
  ];
  for (const [sort, compare] of orders) {
    it(`when the list is walked by cursor in sort=${sort}, then every wallpaper comes once, in that order`, async () => {
      const { ids: walked, pages } = await walk(`/v1/wallpapers?sort=${sort}&per_page=7`);
      expect(walked).to.deep.equal(ids([...ctx.docs].sort(compare)));
      expect(pages.map((p) => p.body.meta.current_page)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(pages.at(-1)!.body.meta.next_cursor).to.equal(null);
      expect(new Set(pages.map((p) => p.body.meta.total_items))).to.deep.equal(new Set([ctx.docs.length]));
    });
  }

  it('when a walk goes on with a cursor issued before cursors were sealed, then it continues where that cursor stood, and its next cursor is sealed; one in relevance order has scores of an older scoring and expires', async () => {
    const relevance = '/v1/search?q=calm%20golden&per_page=3';
    const old = await get(`${relevance}&cursor=${asIssuedBeforeTheSeal((await get(relevance)).body.meta.next_cursor as string)}`);
    expect(old.status).to.equal(410);
    expect(old.body.error).to.equal('cursor_expired');
    for (const path of [
      '/v1/wallpapers?sort=newest&per_page=7',
      '/v1/search?q=calm%20golden&per_page=3&sort=newest',
      '/v1/wallpapers?sort=random&seed=tide42&per_page=7',
    ]) {
      const sealed = (await get(path)).body.meta.next_cursor as string;
      const legacy = asIssuedBeforeTheSeal(sealed);
      expect(legacy, path).to.include('.');
      const [fromSealed, fromLegacy] = [await get(`${path}&cursor=${sealed}`), await get(`${path}&cursor=${legacy}`)];
      expect(fromLegacy.status, fromLegacy.text).to.equal(200);
      expect(ids(fromLegacy.body.data), path).to.deep.equal(ids(fromSealed.body.data)).and.to.have.length.above(0);
      expect(fromLegacy.body.meta.current_page, path).to.equal(2);
      expect(fromLegacy.body.meta.next_cursor, path)
        .to.equal(fromSealed.body.meta.next_cursor)
        .and.to.match(/^[A-Za-z0-9_-]+$/);
    }
  });

  it('when sort=random has a seed, then the order is the same on every request and every page, and another seed gives another', async () => {
    const first = await walk('/v1/wallpapers?sort=random&seed=tide42&per_page=7');
    const again = await walk('/v1/wallpapers?sort=random&seed=tide42&per_page=7');
    expect(first.ids).to.deep.equal(again.ids);
    expect([...first.ids].sort((a, b) => a - b)).to.deep.equal(sortedIds(ctx.docs));
    const byPage: number[] = [];
    for (let page = 1; page <= 9; page++)
      byPage.push(...ids((await get(`/v1/wallpapers?sort=random&seed=tide42&per_page=7&page=${page}`)).body.data));
    expect(byPage).to.deep.equal(first.ids);
    const other = await walk('/v1/wallpapers?sort=random&seed=reef7&per_page=7');
    expect(other.ids).to.not.deep.equal(first.ids);
    expect(first.ids).to.not.deep.equal(sortedIds(ctx.docs));
  });

  it('when a search is walked by cursor, in relevance or random order, then every match comes once', async () => {
    const matches = ctx.docs.filter((d) => /calm|golden/i.test(`${d.title} ${d.description}`)).length;
    for (const sort of ['relevance', 'random', 'oldest']) {
      const { ids: walked, pages } = await walk(`/v1/search?q=calm%20OR%20golden&sort=${sort}&per_page=4`);
      expect(new Set(walked).size, sort).to.equal(walked.length);
      expect(walked.length, sort).to.equal(matches);
      expect(pages[0]!.body.meta.total_items).to.equal(matches);
    }
  });

  it('when size and shape filters are given, then only matching wallpapers come, lists within a filter meaning any of them', async () => {
    const count = async (query: string) => (await get(`/v1/wallpapers?per_page=100&${query}`)).body.meta.total_items as number;
    const expected = (keep: (d: WallpaperDocument) => boolean) => ctx.docs.filter(keep).length;
    expect(await count('min_resolution=2000x2000')).to.equal(expected((d) => d.width >= 2000 && d.height >= 2000));
    expect(await count('min_resolution=1080x2000')).to.equal(expected((d) => d.width >= 1080 && d.height >= 2000));
    expect(await count('orientation=portrait')).to.equal(expected((d) => d.height > d.width));
    expect(await count('orientation=square')).to.equal(0);
    expect(await count('ratio=16x9')).to.equal(expected((d) => d.resolution !== '1080x2340'));
    expect(await count('ratio=9x19.5,21x9')).to.equal(expected((d) => d.resolution === '1080x2340'));
    expect(await count('category=space,nature')).to.equal(expected((d) => d.category === 'space' || d.category === 'nature'));
    expect(await count('category=space&orientation=landscape&resolution=3840x2160,1920x1080')).to.equal(
      expected((d) => d.category === 'space' && d.width > d.height),
    );
  });

  it('when facets are asked under a filter, then each facet counts under the other filters but not its own', async () => {
    const res = await get('/v1/wallpapers?category=space&orientation=landscape&facets=category,orientation,ratio,resolution');
    expect(res.status).to.equal(200);
    const facets = res.body.meta.facets as Record<string, { value: string; count: number }[]>;
    const counts = (keep: (d: WallpaperDocument) => boolean, field: (d: WallpaperDocument) => string) => {
      const tally = new Map<string, number>();
      for (const d of ctx.docs.filter(keep)) tally.set(field(d), (tally.get(field(d)) ?? 0) + 1);
      return Object.fromEntries(tally);
    };
    const asObject = (list: { value: string; count: number }[]) => Object.fromEntries(list.map((f) => [f.value, f.count]));
    const landscape = (d: WallpaperDocument) => d.width > d.height;
    expect(asObject(facets['category']!)).to.deep.equal(counts(landscape, (d) => d.category));
    expect(asObject(facets['orientation']!)).to.deep.equal(
      counts(
        (d) => d.category === 'space',
        (d) => (d.width > d.height ? 'landscape' : 'portrait'),
      ),
    );
    expect(asObject(facets['resolution']!)).to.deep.equal(
      counts(
        (d) => d.category === 'space' && landscape(d),
        (d) => d.resolution,
      ),
    );
    const counted = facets['category']!.map((f) => f.count);
    expect(counted).to.deep.equal([...counted].sort((a, b) => b - a));
    expect(res.body.meta.total_items).to.equal(ctx.docs.filter((d) => d.category === 'space' && landscape(d)).length);
    expect(FIXTURE_CATEGORIES).to.include.members(Object.keys(asObject(facets['category']!)));
  });

  it('when a list filter is spelt in another order or with repeats, then it is the same query: its cursor goes on', async () => {
    const first = await get('/v1/wallpapers?category=space,nature&exclude_ids=9,3&per_page=5');
    const cursor = first.body.meta.next_cursor as string;
    const again = await get(`/v1/wallpapers?category=nature,space,space&exclude_ids=3,9,3&per_page=5&cursor=${cursor}`);
    expect(again.status).to.equal(200);
    expect(again.body.meta.current_page).to.equal(2);
  });

  it('when a facet asked has no values under the filters, then it is still told, as an empty list', async () => {
    const none = await get('/v1/wallpapers?orientation=square&facets=orientation,category,tone');
    expect(none.body.meta.total_items).to.equal(0);
    expect(Object.keys(none.body.meta.facets)).to.deep.equal(['orientation', 'category', 'tone']);
    expect(none.body.meta.facets.category).to.deep.equal([]);
    expect(none.body.meta.facets.tone).to.deep.equal([]);
    expect(none.body.meta.facets.orientation.map((f: { value: string }) => f.value)).to.have.members(['landscape', 'portrait']);
    const unmatched = await get('/v1/search?q=zzzzqqq&facets=category');
    expect(unmatched.status).to.equal(200);
    expect(unmatched.body.meta.facets).to.deep.equal({ category: [] });
  });

  it('when a deep cursor page ranges from its position instead of counting, then it returns what search_after alone returns, with the walk total', async () => {
    const repository = createEsRepository(ctx.es, ctx.alias);
    for (const sort of ['newest', 'oldest', 'downloads'] as SortOrder[]) {
      const first = await repository.list({ page: 1, per_page: 7, sort });
      let position = first.last!;
      for (let page = 2; page <= 9; page++) {
        const plain = await repository.list({ page: 1, per_page: 7, sort, position: { ...position, depth: 0 } });
        const ranged = await repository.list({ page: 1, per_page: 7, sort, position: { ...position, total: first.total, depth: 1_000_000 } });
        expect(ids(ranged.items), `${sort} page ${page}`).to.deep.equal(ids(plain.items));
        expect(ranged.total).to.equal(ctx.docs.length);
        if (!plain.last) break;
        position = plain.last;
      }
    }
  });

  it('when ids are asked, then the wallpapers come in the order asked with the missing ids named', async () => {
    const res = await get('/v1/wallpapers?ids=21,424242,7,13,21');
    expect(res.status).to.equal(200);
    expect(ids(res.body.data)).to.deep.equal([21, 7, 13]);
    expect(res.body.meta.missing).to.deep.equal([424242]);
    expect(res.body.meta).to.deep.include({ current_page: 1, per_page: 4, total_items: 3, total_pages: 1, next_cursor: null });
    const none = await get('/v1/wallpapers?ids=424242,424243');
    expect(none.body.data).to.deep.equal([]);
    expect(none.body.meta).to.deep.include({ total_items: 0, total_pages: 0, missing: [424242, 424243] });
    expect(res.body.data[0]).to.have.all.keys('id', 'title', 'description', 'url', 'thumbnail', 'resolution', 'category', 'downloads', 'created_at');
  });

  it('when the catalogue is reindexed in the middle of a walk, then the walk still returns every wallpaper once; once its index is deleted, 410', async () => {
    const first = await get('/v1/wallpapers?per_page=10');
    const second = await get(nextLink(first)!);
    // A walk that will not go on until its index is gone (a page already served may be answered from the response cache).
    const pending = nextLink(await get('/v1/wallpapers?per_page=11'))!;
    const old = (await ctx.es.indices.getAlias({ name: ctx.alias })) as Record<string, unknown>;
    const [oldIndex] = Object.keys(old);
    const changed = ctx.docs.map((d) => ({ ...d, created_at: '2030-01-01T00:00:00Z' }));
    const fresh = await createIndexWithDocs(ctx.es, ctx.alias, changed);
    await ctx.es.indices.updateAliases({ actions: [{ remove: { index: oldIndex!, alias: ctx.alias } }] });

    const rest = await walk(nextLink(second)!);
    const walked = [...ids(first.body.data), ...ids(second.body.data), ...rest.ids];
    expect(walked).to.deep.equal(ids([...ctx.docs].sort(byNewestThenId)));
    const restarted = await get('/v1/wallpapers?per_page=10');
    expect(restarted.body.data[0].created_at).to.equal('2030-01-01T00:00:00Z');

    await ctx.es.indices.delete({ index: oldIndex! });
    const expired = await get(pending);
    expect(expired.status).to.equal(410);
    expect(expired.body.error).to.equal('cursor_expired');
    expect(expired.body.message).to.match(/start the walk again without a cursor/);
    expect(fresh).to.not.equal(oldIndex);
  });
});
