import { expect } from 'chai';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import type { SearchParams, SortOrder } from '../../src/wallpapers/params.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { Page } from '../../src/wallpapers/store/repository.js';
import { parseSearchQuery } from '../../src/wallpapers/search-query.js';
import { toIndexDocument } from '../../src/wallpapers/store/index-document.js';
import { useCatalogue } from './catalogue-context.js';

/** How a search sent counted: its whole total (`true`), up to a number, not at all (`false`); and whether it was a count alone. */
interface Sent {
  counts: boolean | number;
  countOnly: boolean;
  text: string;
}

/** Searches sent, as the bodies the repository serialised. */
function watched(es: ReturnType<typeof useCatalogue>['es']) {
  const lines: Sent[] = [];
  const proxy = new Proxy(es, {
    get(target, name, receiver) {
      if (name !== 'msearch') return Reflect.get(target, name, receiver);
      return (request: { searches: unknown[] }, options: object) => {
        for (const body of request.searches.filter((_, i) => i % 2 === 1)) {
          const text = typeof body === 'string' ? body : JSON.stringify(body);
          const parsed = JSON.parse(text) as { track_total_hits: boolean | number; size: number };
          lines.push({ text, counts: parsed.track_total_hits, countOnly: parsed.size === 0 });
        }
        return target.msearch(request as never, options);
      };
    },
  });
  /** What was sent since the last call, without the bodies. */
  const taken = () => lines.splice(0).map(({ counts, countOnly }) => ({ counts, countOnly }));
  return { es: proxy, lines, taken };
}

const WHOLE = { counts: true, countOnly: false };
const UNCOUNTED = { counts: false, countOnly: false };
const COUNT = { counts: true, countOnly: true };

describe('a search of many matches, its total counted apart from its page', function () {
  this.timeout(60_000);
  // Generated titles repeat their patterns, so scores tie by the hundred and the order's
  // tie-breaks (downloads, then id) decide most pages.
  const ctx = useCatalogue({}, { docs: () => [...generateWallpapers({ count: 3000, seed: 11, imageBaseUrl: 'https://images.example' })] });
  const ids = (page: Page) => page.items.map((item) => item.id);
  const searchOf = (q: string, more: Partial<SearchParams> = {}): SearchParams => ({ page: 1, per_page: 20, q, text: parseSearchQuery(q), ...more });
  /** Lets the first search's background read of the catalogue's size answer. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

  it('when pages are read by number and by cursor in every order, with facets, then they equal the single read, totals included', async () => {
    const { es, lines } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 1 });
    const single = createEsRepository(ctx.es, ctx.alias, { countApartFrom: Number.POSITIVE_INFINITY });
    await apart.search(searchOf('aurora'));
    await settle();
    const sorts: (SortOrder | undefined)[] = [undefined, 'newest', 'oldest', 'downloads'];
    let compared = 0;
    for (const q of ['sky', 'mountain lake', 'nigth city']) {
      for (const sort of sorts) {
        for (const more of [{}, { facets: ['category' as const] }, { include: ['tags' as const] }]) {
          for (const [page, perPage] of [
            [1, 15],
            [2, 15],
            [7, 15],
            [1, 100],
            [3, 100],
          ] as const) {
            const params = searchOf(q, { page, per_page: perPage, ...(sort ? { sort } : {}), ...more });
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
    // Only a query's first page, before its total was known, was not read apart.
    expect(lines.filter((line) => line.countOnly).length).to.be.greaterThan(
      lines.filter((line) => line.counts !== false && !line.countOnly).length * 10,
    );
  });

  it('when a search is known to match many, then its later pages are read uncounted beside a count that is the same body for every page and length', async () => {
    const { es, lines, taken } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 100 });
    await apart.search(searchOf('aurora'));
    await settle();
    taken();
    // Not seen before: one read that counts, as before, and teaches the total.
    const first = await apart.search(searchOf('sky', { per_page: 10 }));
    expect(taken()).to.deep.equal([WHOLE]);
    const second = await apart.search(searchOf('sky', { page: 2, per_page: 25 }));
    const third = await apart.search(searchOf('sky', { page: 3, per_page: 40, sort: 'newest' }));
    expect([second.total, third.total]).to.deep.equal([first.total, first.total]);
    expect(first.total).to.be.greaterThan(100);
    const countLines = lines.filter((line) => line.countOnly).map((line) => line.text);
    expect(taken()).to.deep.equal([UNCOUNTED, COUNT, UNCOUNTED, COUNT]);
    expect(countLines).to.have.length(2);
    expect(countLines[0]).to.equal(countLines[1]);
  });

  it('when a search matches fewer than the threshold, then each of its pages counts in one read', async () => {
    const { es, taken } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 100 });
    await apart.search(searchOf('aurora'));
    await settle();
    taken();
    const few = searchOf('sourdough');
    const first = await apart.search(few);
    expect(first.total).to.be.greaterThan(0).and.lessThan(100);
    const again = await apart.search({ ...few, per_page: 5 });
    expect(again.total).to.equal(first.total);
    expect(taken()).to.deep.equal([WHOLE, WHOLE]);
  });

  it('when a search has a filter or excludes a word, then it is read whole: Elasticsearch does not skip such a read, so a count apart only adds to it', async () => {
    const { es, taken } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: 1 });
    await apart.search(searchOf('aurora'));
    await settle();
    for (const more of [{ category: ['space'] }, { orientation: 'landscape' as const }, { tags: ['night'] }, { exclude_ids: [1] }]) {
      taken();
      for (const page of [1, 2]) await apart.search(searchOf('sky', { page, ...more }));
      expect(taken(), JSON.stringify(more)).to.deep.equal([WHOLE, WHOLE]);
    }
    taken();
    for (const page of [1, 2]) await apart.search(searchOf('sky -night', { page }));
    expect(taken(), 'sky -night').to.deep.equal([WHOLE, WHOLE]);
    // The same words without the exclusion are split once known.
    for (const page of [1, 2]) await apart.search(searchOf('sky night', { page }));
    expect(taken(), 'sky night').to.deep.equal([WHOLE, UNCOUNTED, COUNT]);
  });

  it('when wallpapers are added while a search is read again and again, then no page shows a total other than its items', async () => {
    const apart = createEsRepository(ctx.es, ctx.alias, { countApartFrom: 1 });
    await apart.search(searchOf('aurora'));
    await settle();
    const added: number[] = [];
    let done = false;
    const writer = (async () => {
      for (let n = 0; n < 60; n++) {
        const doc = { ...ctx.docs[n]!, id: 800_000 + n, title: `Raceword ${n}` };
        await ctx.es.index({ index: ctx.alias, id: String(doc.id), document: toIndexDocument(doc), refresh: true });
        added.push(doc.id);
      }
      done = true;
    })();
    let pages = 0;
    const disagreeing: { items: number; total: number }[] = [];
    try {
      // One page of 100 holds every match, so its total must be its items, read apart or not.
      while (!done) {
        const page = await apart.search(searchOf('raceword', { per_page: 100 }));
        pages++;
        if (page.items.length !== page.total) disagreeing.push({ items: page.items.length, total: page.total });
      }
      await writer;
    } finally {
      await Promise.all(added.map((id) => ctx.es.delete({ index: ctx.alias, id: String(id) })));
      await ctx.es.indices.refresh({ index: ctx.alias });
    }
    expect(pages).to.be.greaterThan(60);
    expect(disagreeing).to.deep.equal([]);
  });

  it('when the catalogue holds fewer wallpapers than the threshold, then no search is counted apart', async () => {
    const { es, taken } = watched(ctx.es);
    const apart = createEsRepository(es, ctx.alias, { countApartFrom: ctx.docs.length + 1 });
    await apart.search(searchOf('aurora'));
    await settle();
    for (const q of ['sky', 'sky', 'sky', 'mountain lake']) {
      taken();
      const page = await apart.search(searchOf(q));
      expect(page.total).to.be.greaterThan(20);
      expect(taken(), q).to.deep.equal([WHOLE]);
    }
  });
});
