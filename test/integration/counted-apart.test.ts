import { expect } from 'chai';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import type { SearchParams, SortOrder } from '../../src/wallpapers/params.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { Page } from '../../src/wallpapers/store/repository.js';
import { parseSearchQuery } from '../../src/wallpapers/search-query.js';
import { useCatalogue } from './catalogue-context.js';

/** Searches sent, as the bodies the repository serialised: whether each counted, and the counts alone. */
function watched(es: ReturnType<typeof useCatalogue>['es']) {
  const lines: { counts: boolean; countOnly: boolean; text: string }[] = [];
  const proxy = new Proxy(es, {
    get(target, name, receiver) {
      if (name !== 'msearch') return Reflect.get(target, name, receiver);
      return (request: { searches: unknown[] }, options: object) => {
        for (const body of request.searches.filter((_, i) => i % 2 === 1)) {
          const text = typeof body === 'string' ? body : JSON.stringify(body);
          lines.push({ text, counts: text.includes('"track_total_hits":true'), countOnly: text.includes('"size":0') });
        }
        return target.msearch(request as never, options);
      };
    },
  });
  return { es: proxy, lines };
}

describe('a search of many matches, its total counted apart from its page', function () {
  this.timeout(60_000);
  // Generated titles repeat their patterns, so scores tie by the hundred and the order's
  // tie-breaks (downloads, then id) decide most pages.
  const ctx = useCatalogue({}, { docs: () => [...generateWallpapers({ count: 3000, seed: 11, imageBaseUrl: 'https://images.example' })] });
  const ids = (page: Page) => page.items.map((item) => item.id);
  const searchOf = (q: string, more: Partial<SearchParams> = {}): SearchParams => ({ page: 1, per_page: 20, q, text: parseSearchQuery(q), ...more });

  it('when pages are read by number and by cursor in every order, with filters and facets, then they equal the single read, totals included', async () => {
    const { es, lines } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 0 });
    const single = createEsRepository(ctx.es, ctx.alias, { countApartFrom: Number.POSITIVE_INFINITY });
    const sorts: (SortOrder | undefined)[] = [undefined, 'newest', 'oldest', 'downloads'];
    let compared = 0;
    for (const q of ['sky', 'mountain lake', 'nigth city']) {
      for (const sort of sorts) {
        for (const more of [{}, { orientation: 'landscape' as const }, { facets: ['category' as const] }]) {
          for (const page of [1, 2, 7]) {
            const params = searchOf(q, { page, per_page: 15, ...(sort ? { sort } : {}), ...more });
            const [a, b] = await Promise.all([apart.search(params), single.search(params)]);
            expect({ ids: ids(a), total: a.total, facets: a.facets }, JSON.stringify({ q, sort, more, page })).to.deep.equal({
              ids: ids(b),
              total: b.total,
              facets: b.facets,
            });
            compared += a.items.length;
          }
          // A walk by cursor: each page counts again (an import may add to it), apart as well.
          const next = (from: Page, step: number) => searchOf(q, { sort, position: { ...from.last!, total: from.total, depth: 20 * step } });
          let [a, b]: Page[] = await Promise.all([apart.search(searchOf(q, { sort })), single.search(searchOf(q, { sort }))]);
          for (let step = 1; step <= 3 && a!.last; step++) {
            expect({ ids: ids(a!), total: a!.total }).to.deep.equal({ ids: ids(b!), total: b!.total });
            [a, b] = await Promise.all([apart.search(next(a!, step)), single.search(next(b!, step))]);
          }
        }
      }
    }
    expect(compared).to.be.greaterThan(1000);
    // Only a query's first page, before anything was known of its matches, counted in one read.
    expect(lines.filter((line) => line.countOnly).length).to.be.greaterThan(lines.filter((line) => line.counts && !line.countOnly).length * 10);
  });

  it('when a search matches many, then its page is read without a total and the count beside it is the same body for every page and length', async () => {
    const { es, lines } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 100 });
    // Nothing known yet of the query or the catalogue: one read that counts, and teaches its total.
    const first = await apart.search(searchOf('sky', { per_page: 10 }));
    const second = await apart.search(searchOf('sky', { page: 2, per_page: 25 }));
    const third = await apart.search(searchOf('sky', { page: 3, per_page: 40, sort: 'newest' }));
    expect([second.total, third.total]).to.deep.equal([first.total, first.total]);
    expect(first.total).to.be.greaterThan(100);
    const pages = lines.filter((line) => !line.countOnly);
    const counts = lines.filter((line) => line.countOnly);
    expect(pages.map((line) => line.counts)).to.deep.equal([true, false, false]);
    expect(counts).to.have.length(2);
    expect(counts[0]!.text).to.equal(counts[1]!.text);
  });

  it('when a search is known to match fewer than the threshold, then its page counts in one read', async () => {
    const { es, lines } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 100 });
    // First seen: one read, which teaches its total.
    const few = searchOf('sourdough');
    const first = await apart.search(few);
    expect(first.total).to.be.greaterThan(0).and.lessThan(100);
    const sent = lines.length;
    const again = await apart.search({ ...few, per_page: 5 });
    expect(again.total).to.equal(first.total);
    expect(lines.slice(sent).map(({ counts, countOnly }) => ({ counts, countOnly }))).to.deep.equal([{ counts: true, countOnly: false }]);
  });

  it('when a query not seen before arrives once the catalogue is known to be large, then its first page is counted apart', async () => {
    const { es, lines } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 100, windowFromCount: ctx.docs.length });
    // The first search starts reading the catalogue's count in the background, and does not wait for it.
    await apart.search(searchOf('sky'));
    expect(lines.map(({ counts, countOnly }) => ({ counts, countOnly }))).to.deep.equal([{ counts: true, countOnly: false }]);
    let split = false;
    for (const q of ['mountain', 'forest', 'city', 'ocean', 'night', 'space', 'flower', 'river']) {
      const sent = lines.length;
      const page = await apart.search(searchOf(q));
      split = lines.slice(sent).some((line) => line.countOnly);
      if (split) {
        expect(page.total).to.equal((await createEsRepository(ctx.es, ctx.alias).search(searchOf(q))).total);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(split, 'a first page counted apart').to.equal(true);
  });

  it('when the catalogue is smaller than windows take, then a query not seen before counts in one read, and is counted apart once known to match many', async () => {
    const { es, lines } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 100, windowFromCount: ctx.docs.length + 1 });
    const kinds = () => lines.splice(0).map(({ counts, countOnly }) => ({ counts, countOnly }));
    await apart.search(searchOf('aurora'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const q of ['sky', 'mountain lake', 'nigth city']) {
      kinds();
      const first = await apart.search(searchOf(q));
      expect(first.total).to.be.greaterThan(100);
      expect(kinds(), q).to.deep.equal([{ counts: true, countOnly: false }]);
      const second = await apart.search(searchOf(q, { page: 2 }));
      expect(second.total).to.equal(first.total);
      expect(kinds(), q).to.deep.equal([
        { counts: false, countOnly: false },
        { counts: true, countOnly: true },
      ]);
    }
  });
});
