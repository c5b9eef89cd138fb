import { expect } from 'chai';
import { CursorExpired } from '../../src/errors.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import type { ListParams, SearchParams } from '../../src/wallpapers/params.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import { WINDOWED_ORDERS } from '../../src/wallpapers/store/build-queries.js';
import type { Page } from '../../src/wallpapers/store/repository.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { toIndexDocument } from '../../src/wallpapers/store/index-document.js';
import { parseSearchQuery } from '../../src/wallpapers/search-query.js';
import { useCatalogue } from './catalogue-context.js';

const START = Date.parse('2020-01-01T00:00:00Z');

/** 3,000 wallpapers whose dates crowd towards the newest (the first days a tenth as dense), half of them at midnight, so many share a date. */
function unevenCatalogue(): WallpaperDocument[] {
  const docs = [...generateWallpapers({ count: 3000, seed: 5, imageBaseUrl: 'https://images.example' })];
  return docs.map((doc, i) => {
    const spread = Math.floor(86_400 * 400 * Math.sqrt(i / docs.length));
    const seconds = i % 2 === 0 ? spread - (spread % 86_400) : spread;
    return { ...doc, created_at: new Date(START + seconds * 1000).toISOString().replace('.000Z', 'Z') };
  });
}

describe('sort=oldest and sort=downloads within a window of their leading field, as on a catalogue of 200,000 or more', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: unevenCatalogue });
  const ids = (page: Page) => page.items.map((item) => item.id);

  /** Every page by number and the whole walk by cursor, from a repository. */
  async function pages(list: (params: ListParams) => Promise<Page>, perPage: number, numbers: number[], sort: 'oldest' | 'downloads' = 'oldest') {
    const byNumber = [];
    for (const page of numbers) byNumber.push(await list({ page, per_page: perPage, sort }));
    const walk: number[] = [];
    let last = await list({ page: 1, per_page: perPage, sort });
    const totals = [last.total];
    walk.push(...ids(last));
    while (last.last && walk.length < last.total) {
      const position = { ...last.last, total: last.total, depth: walk.length };
      last = await list({ page: 1, per_page: perPage, sort, position });
      totals.push(last.total);
      walk.push(...ids(last));
    }
    return { byNumber: byNumber.map((page) => ({ ids: ids(page), total: page.total })), walk, totals };
  }

  /** The client, with each page it reads counted as a window of dates with an end, or not, and each count of a window. */
  function watched() {
    const reads = { windows: 0, others: 0, probes: 0, downloads: 0 };
    const es = new Proxy(ctx.es, {
      get(target, name, receiver) {
        if (name !== 'msearch') return Reflect.get(target, name, receiver);
        return (request: { searches: object[] }, options: object) => {
          // A body goes out as the string the repository serialised once (es-repository.ts).
          for (const body of request.searches.filter((_, i) => i % 2 === 1) as unknown[]) {
            const text = typeof body === 'string' ? body : JSON.stringify(body);
            if (text.includes('"size":0')) {
              if (text.includes('"created_at":{')) reads.probes++;
              continue;
            }
            if (text.includes('"created_at":{') && text.includes('"lte"')) reads.windows++;
            else if (text.includes('"range":{"downloads":{')) reads.downloads++;
            else reads.others++;
          }
          return target.msearch(request, options);
        };
      },
    });
    return { es, reads };
  }

  it('when pages are read by number or by cursor, with or without filters, then they equal the whole order', async () => {
    const { es, reads } = watched();
    const windowed = createEsRepository(es, ctx.alias, { windowFromCount: 0 });
    const whole = createEsRepository(ctx.es, ctx.alias, { windowFromCount: Number.POSITIVE_INFINITY });
    const numbers = [1, 2, 3, 10, 29, 30, 31, 99];
    for (const filters of [{}, { category: ['space'] }, { orientation: 'portrait' as const }]) {
      for (const perPage of [25, 100]) {
        const list = (repository: typeof whole) => (params: ListParams) => repository.list({ ...params, ...filters });
        const expected = await pages(list(whole), perPage, numbers);
        const before = { ...reads };
        const actual = await pages(list(windowed), perPage, numbers);
        expect(actual, `${JSON.stringify(filters)} ${perPage}`).to.deep.equal(expected);
        // Unfiltered, each page read a bounded window; a window with no end only near the newest
        // dates. A filter that matches few spreads them thin, and its pages read to the newest.
        if (Object.keys(filters).length === 0) expect(reads.windows - before.windows).to.be.greaterThan(5 * (reads.others - before.others));
      }
    }
    const all = await pages((params) => windowed.list(params), 100, []);
    const sorted = [...ctx.docs].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
    expect(all.walk).to.deep.equal(sorted.map((doc) => doc.id));
  });

  it('when pages are most downloaded first, by number or by cursor, with or without filters, then they equal the whole order', async () => {
    const { es, reads } = watched();
    const windowed = createEsRepository(es, ctx.alias, { windowFromCount: 0 });
    const whole = createEsRepository(ctx.es, ctx.alias, { windowFromCount: Number.POSITIVE_INFINITY });
    // Pages by number from the windowed depth on, inside the 3,000 wallpapers, and shallower ones.
    const numbers: Record<number, number[]> = { 25: [1, 2, 41, 60, 99], 100: [1, 2, 7, 12, 20] };
    let deep = 0;
    for (const filters of [{}, { category: ['space'] }]) {
      for (const perPage of [25, 100]) {
        const list = (repository: typeof whole) => (params: ListParams) => repository.list({ ...params, ...filters });
        const expected = await pages(list(whole), perPage, numbers[perPage]!, 'downloads');
        const before = reads.downloads;
        const actual = await pages(list(windowed), perPage, numbers[perPage]!, 'downloads');
        expect(actual, `${JSON.stringify(filters)} ${perPage}`).to.deep.equal(expected);
        if (Object.keys(filters).length === 0) {
          deep += numbers[perPage]!.filter((page) => page * perPage >= WINDOWED_ORDERS.downloads!.fromDepth).length;
          // Each deep page read a window of downloads; a cursor page and a shallower one, the whole order.
          expect(reads.downloads - before, `${perPage}`).to.be.at.least(numbers[perPage]!.filter((page) => page * perPage >= 1000).length);
        }
      }
    }
    expect(deep).to.equal(5);
    const sorted = [...ctx.docs].sort((a, b) => b.downloads - a.downloads || a.id - b.id);
    expect((await pages((params) => windowed.list(params), 100, [], 'downloads')).walk).to.deep.equal(sorted.map((doc) => doc.id));
  });

  it('when a search is in date order, then its windowed pages equal the whole order', async () => {
    const windowed = createEsRepository(ctx.es, ctx.alias, { windowFromCount: 0 });
    const whole = createEsRepository(ctx.es, ctx.alias, { windowFromCount: Number.POSITIVE_INFINITY });
    const text = parseSearchQuery('sky');
    for (const page of [1, 2, 5]) {
      const params: SearchParams = { page, per_page: 20, sort: 'oldest', q: 'sky', text };
      const [a, b] = await Promise.all([windowed.search(params), whole.search(params)]);
      expect(ids(a), `page ${page}`).to.deep.equal(ids(b));
      expect(a.total).to.equal(b.total).and.to.be.greaterThan(40);
    }
  });

  it('when a wallpaper older than any the extent knew arrives, then the next page 1 starts with it', async () => {
    const windowed = createEsRepository(ctx.es, ctx.alias, { windowFromCount: 0 });
    const before = await windowed.list({ page: 1, per_page: 10, sort: 'oldest' });
    const oldest = { ...ctx.docs[0]!, id: 900_001, created_at: '2001-01-01T00:00:00Z' };
    await ctx.es.index({ index: ctx.alias, id: String(oldest.id), document: toIndexDocument(oldest), refresh: true });
    try {
      const after = await windowed.list({ page: 1, per_page: 10, sort: 'oldest' });
      expect(ids(after)).to.deep.equal([oldest.id, ...ids(before).slice(0, 9)]);
      expect(after.total).to.equal(before.total + 1);
    } finally {
      await ctx.es.delete({ index: ctx.alias, id: String(oldest.id), refresh: true });
    }
  });

  it('when the index a walk began on is gone, then its next page is refused as an expired cursor, not as a backend failure', async () => {
    const windowed = createEsRepository(ctx.es, ctx.alias, { windowFromCount: 0 });
    const first = await windowed.list({ page: 1, per_page: 10, sort: 'oldest' });
    const position = { ...first.last!, index: `${ctx.alias}-gone`, total: first.total, depth: 10 };
    const outcome = await windowed.list({ page: 2, per_page: 10, sort: 'oldest', position }).then(
      () => 'answered',
      (err: unknown) => err,
    );
    expect(outcome).to.be.instanceOf(CursorExpired);
  });

  it('when a query not seen before reads its windows, then the windows another query has learned stay as they were', async () => {
    const { es, reads } = watched();
    const windowed = createEsRepository(es, ctx.alias, { windowFromCount: 0 });
    const page = (more: Partial<ListParams> = {}) => windowed.list({ page: 3, per_page: 20, sort: 'oldest', ...more });
    for (let i = 0; i < 3; i++) await page();
    const settled = { ...reads };
    await page();
    expect(reads.windows - settled.windows, 'a page learned').to.equal(1);
    // A filter that few wallpapers match, first seen: sized as if it matched them all, its windows grow.
    await page({ category: ['space'], orientation: 'portrait' });
    const after = { ...reads };
    await page();
    expect([reads.windows - after.windows, reads.others - after.others, reads.probes - after.probes]).to.deep.equal([1, 0, 0]);
  });

  it('when a query matches fewer than the windowed size, then it reads the whole order, counted first once it is new', async () => {
    const { es, reads } = watched();
    const windowed = createEsRepository(es, ctx.alias, { windowFromCount: 1000 });
    const whole = createEsRepository(ctx.es, ctx.alias, { windowFromCount: Number.POSITIVE_INFINITY });
    const few = { page: 2, per_page: 20, sort: 'oldest', category: ['space'] } as const;
    expect(ids(await windowed.list(few))).to.deep.equal(ids(await whole.list(few)));
    expect(reads.windows).to.equal(0);
    const many = { page: 2, per_page: 20, sort: 'oldest' } as const;
    expect(ids(await windowed.list(many))).to.deep.equal(ids(await whole.list(many)));
    expect(reads.windows).to.be.at.least(1);
  });
});
