import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import type { ListParams, Position, SearchParams, SortOrder } from '../../src/wallpapers/params.js';
import { DEFAULT_BATCHING, createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import { toIndexDocument } from '../../src/wallpapers/store/index-document.js';
import type { Page } from '../../src/wallpapers/store/repository.js';
import { parseSearchQuery } from '../../src/wallpapers/search-query.js';
import { walkGoesOn } from '../../src/wallpapers/edge/page-envelope.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { type TestResponse, request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';
import { cycle, firstLap } from '../support/shuffle-cycle.js';

const PER_PAGE = 7;
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
const idsOf = (docs: readonly { id: number }[]) => docs.map((doc) => doc.id);
const nextOf = (res: TestResponse): string | null => /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;

/**
 * How many of the first two pages' wallpapers to delete so that the walk's count falls to the last
 * multiple of a page below the matches: a full page then brings what the walk served to the count
 * while wallpapers are still ahead of it.
 */
const deletionsToMislead = (matches: number) => matches - PER_PAGE * Math.floor((matches - 1) / PER_PAGE);

/**
 * Elasticsearch as a repository sees it, with each kind of call made slower or failing as told, and
 * the size of every search it was sent.
 */
function troubled(real: Client) {
  const trouble = { searchesMs: (_sizes: number[]) => 0, extentMs: 0, failReadingOn: false, sizes: [] as number[] };
  const es = new Proxy(real, {
    get(target, name, receiver) {
      if (name === 'msearch') {
        return async (request: { searches: unknown[] }, options: object) => {
          const sizes = request.searches.filter((_, i) => i % 2 === 1).map((body) => (JSON.parse(body as string) as { size: number }).size);
          trouble.sizes.push(...sizes);
          if (trouble.failReadingOn && sizes.includes(1)) throw new errors.ConnectionError('connection refused');
          await sleep(trouble.searchesMs(sizes));
          return target.msearch(request as never, options);
        };
      }
      if (name === 'search') {
        return async (request: object, options: object) => {
          await sleep(trouble.extentMs);
          return target.search(request, options);
        };
      }
      return Reflect.get(target, name, receiver);
    },
  });
  return { es, trouble };
}

describe('a walk by cursor, when wallpapers it already served are deleted', () => {
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });

  /** Deletes these wallpapers for the length of `during`, then puts them back. */
  async function withDeleted<T>(docs: readonly WallpaperDocument[], during: () => Promise<T>): Promise<T> {
    for (const doc of docs) await ctx.es.delete({ index: ctx.alias, id: String(doc.id), refresh: true });
    try {
      return await during();
    } finally {
      for (const doc of docs) await ctx.es.index({ index: ctx.alias, id: String(doc.id), document: toIndexDocument(doc), refresh: true });
    }
  }
  const byId = (id: number) => ctx.docs.find((doc) => doc.id === id)!;

  const paths = [
    '/v1/wallpapers?sort=newest',
    '/v1/wallpapers?sort=downloads&category=space,nature,ocean',
    '/v1/wallpapers?sort=random&seed=tide42',
    '/v1/search?q=desktop',
  ];
  for (const path of paths) {
    it(`when the walk is ${path}, then it still returns every wallpaper once, and ends on its last`, async () => {
      const first = await get(`${path}&per_page=${PER_PAGE}`);
      const matches = first.body.meta.total_items as number;
      const pages: TestResponse[] = [first, await get(nextOf(first)!)];
      const served = pages.flatMap((page) => idsOf(page.body.data as { id: number }[]));
      const deleted = served.slice(0, deletionsToMislead(matches)).map(byId);
      const rest = await withDeleted(deleted, async () => {
        const seen: number[] = [];
        for (let next = nextOf(pages.at(-1)!); next !== null; next = nextOf(pages.at(-1)!)) {
          const res = await get(next);
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          pages.push(res);
          seen.push(...idsOf(res.body.data as { id: number }[]));
        }
        return seen;
      });
      expect(sorted([...served, ...rest])).to.deep.equal(sorted(await allMatches(path, matches)));
      expect(pages.at(-1)!.body.meta.next_cursor).to.equal(null);
    });
  }

  /** Every match of the walk's query, read as one page (the catalogue as it was). */
  async function allMatches(path: string, matches: number): Promise<number[]> {
    const res = await get(`${path}&per_page=100`);
    expect(res.body.meta.total_items).to.equal(matches);
    return idsOf(res.body.data as { id: number }[]);
  }

  // Orders that read another way once a catalogue or query is large: here made to at any size.
  const repositories: [string, Partial<SearchParams>, () => ReturnType<typeof createEsRepository>][] = [
    ['sort=oldest within windows', { sort: 'oldest' }, () => createEsRepository(ctx.es, ctx.alias, { windowFromCount: 0 })],
    ['sort=random along a key', { sort: 'random', seed: 'reef7' }, () => createEsRepository(ctx.es, ctx.alias, { shuffleFromTotal: 0 })],
    [
      'a search counted apart',
      { q: 'desktop', text: parseSearchQuery('desktop') },
      () => createEsRepository(ctx.es, ctx.alias, { countApartFrom: 0 }),
    ],
  ];
  /**
   * Walks a query by cursor from its first page, with `deletions` of that page's wallpapers deleted
   * after it was read (all of them when not told): what it served, and every match before.
   */
  async function walkAfterDeleting(read: (params: ListParams) => Promise<Page>, query: Partial<SearchParams>, deletions?: number) {
    const all = await read({ page: 1, per_page: 100, ...query });
    const first = await read({ page: 1, per_page: PER_PAGE, ...query });
    const served = idsOf(first.items);
    const deleted = served.slice(0, deletions ?? deletionsToMislead(all.total)).map(byId);
    const rest = await withDeleted(deleted, async () => {
      const seen: number[] = [];
      let position: Position | undefined = { ...first.last!, total: first.total, depth: PER_PAGE };
      while (position) {
        const page = await read({ page: 1, per_page: PER_PAGE, ...query, position });
        seen.push(...idsOf(page.items));
        const depth: number = position.depth! + page.items.length;
        position = walkGoesOn(page, PER_PAGE, depth) ? { ...page.last!, total: page.total, depth } : undefined;
      }
      return seen;
    });
    return { walked: [...served, ...rest], all: idsOf(all.items) };
  }

  for (const [name, query, make] of repositories) {
    it(`when the walk is ${name}, then it still returns every wallpaper once`, async () => {
      const repository = make();
      const read = (params: ListParams): Promise<Page> => ('q' in query ? repository.search(params as SearchParams) : repository.list(params));
      const { walked, all } = await walkAfterDeleting(read, query);
      expect(sorted(walked)).to.deep.equal(sorted(all));
    });
  }

  it('when a walk along a key reaches the top of the key on a page that brings it to the count, then it reads on from the bottom', async () => {
    const repository = createEsRepository(ctx.es, ctx.alias, { shuffleFromTotal: 0 });
    // A seed whose first lap ends inside a page, 53 to 59 wallpapers in: deleting the rest of the
    // 60 from the first page makes that page's first-lap part bring the walk to the count.
    const seed = Array.from({ length: 5000 }, (_, n) => `lap${n}`).find((s) => {
      const lap = firstLap(ctx.docs, s);
      return lap >= 60 - PER_PAGE && lap < 60 && lap % PER_PAGE !== 0;
    })!;
    const lap = firstLap(ctx.docs, seed);
    const { walked } = await walkAfterDeleting((params) => repository.list(params), { sort: 'random', seed }, 60 - lap);
    expect(walked).to.deep.equal(cycle(ctx.docs, seed));
  });

  it('when nothing is deleted, then a walk reads one wallpaper on only after a full last page', async () => {
    const { es, trouble } = troubled(ctx.es);
    const repository = createEsRepository(es, ctx.alias);
    for (const [perPage, pages] of [
      [7, 9],
      [6, 10],
    ] as const) {
      trouble.sizes.length = 0;
      let page = await repository.list({ page: 1, per_page: perPage, sort: 'newest' });
      for (let depth = perPage; walkGoesOn(page, perPage, depth); depth += perPage) {
        page = await repository.list({ page: 1, per_page: perPage, sort: 'newest', position: { ...page.last!, total: page.total, depth } });
      }
      const extra = 60 % perPage === 0 ? [1] : [];
      expect(trouble.sizes, `${perPage} a page`).to.deep.equal([...Array<number>(pages).fill(perPage), ...extra]);
    }
  });

  it('when a deep walk goes by the total its cursor carries, then wallpapers added since are walked too, and its true last page ends it', async () => {
    const repository = createEsRepository(ctx.es, ctx.alias);
    const perPage = 6;
    const first = await repository.list({ page: 1, per_page: perPage, sort: 'newest' });
    // As deep as a walk that ranges from its position rather than counting (build-queries.ts),
    // whose cursor carries a count below what there is now.
    const deep = 1_000_000;
    const early = await repository.list({
      page: 1,
      per_page: perPage,
      sort: 'newest',
      position: { ...first.last!, total: deep + perPage, depth: deep },
    });
    expect(early.items).to.have.length(perPage);
    expect(walkGoesOn(early, perPage, deep + perPage)).to.equal(true);
    const ninth = await repository.list({ page: 9, per_page: perPage, sort: 'newest' });
    const last = await repository.list({
      page: 1,
      per_page: perPage,
      sort: 'newest',
      position: { ...ninth.last!, total: deep + 60, depth: deep + 54 },
    });
    expect(last.items).to.have.length(perPage);
    expect(walkGoesOn(last, perPage, deep + 60)).to.equal(false);
  });
});

describe("a walk's full last page, when reading on cannot be done in the page's time", () => {
  const ctx = useCatalogue();
  const PER_PAGE_HERE = 6;

  /** Where the walk stands before its last page: 54 of the 60 served, in sort=newest. */
  async function beforeLastPage(repository: ReturnType<typeof createEsRepository>, sort: SortOrder = 'newest'): Promise<Position> {
    const ninth = await repository.list({ page: 9, per_page: PER_PAGE_HERE, sort });
    return { ...ninth.last!, total: ninth.total, depth: 54 };
  }

  it('when reading on fails, then the page is answered and the walk goes on, to an empty page at worst', async () => {
    const { es, trouble } = troubled(ctx.es);
    const repository = createEsRepository(es, ctx.alias);
    const position = await beforeLastPage(repository);
    trouble.failReadingOn = true;
    const last = await repository.list({ page: 1, per_page: PER_PAGE_HERE, sort: 'newest', position });
    expect(last.items).to.have.length(PER_PAGE_HERE);
    expect(walkGoesOn(last, PER_PAGE_HERE, 60)).to.equal(true);
    trouble.failReadingOn = false;
    const after = await repository.list({
      page: 1,
      per_page: PER_PAGE_HERE,
      sort: 'newest',
      position: { ...last.last!, total: last.total, depth: 60 },
    });
    expect(after.items).to.deep.equal([]);
  });

  it('when the page took more than half its time, then it does not read on, and the walk goes on', async () => {
    const { es, trouble } = troubled(ctx.es);
    const repository = createEsRepository(es, ctx.alias, { batching: { ...DEFAULT_BATCHING, timeoutMs: 1000 } });
    const position = await beforeLastPage(repository);
    trouble.searchesMs = () => 600;
    trouble.sizes.length = 0;
    const last = await repository.list({ page: 1, per_page: PER_PAGE_HERE, sort: 'newest', position });
    expect(trouble.sizes.length, 'searches sent').to.equal(1);
    expect(walkGoesOn(last, PER_PAGE_HERE, 60)).to.equal(true);
  });

  it('when requests that share the page differ in the time they have left, then they all get the answer of the first', async () => {
    const { es, trouble } = troubled(ctx.es);
    const repository = createEsRepository(es, ctx.alias, { batching: { ...DEFAULT_BATCHING, timeoutMs: 1000, maxInFlight: 1 } });
    const position = await beforeLastPage(repository);
    // One search at a time, and the one before theirs slow: the two wait, 100 ms apart, and are sent
    // as one. The first has then used more than half its time, the second not.
    trouble.searchesMs = (sizes) => (sizes.includes(7) ? 550 : 0);
    const before = repository.list({ page: 1, per_page: 7, sort: 'newest' });
    await sleep(5);
    const ask = () => repository.list({ page: 1, per_page: PER_PAGE_HERE, sort: 'newest', position });
    const first = ask();
    await sleep(100);
    const [a, b] = await Promise.all([first, ask(), before]);
    expect(a.items).to.equal(b.items);
    expect([a.more, b.more]).to.deep.equal([true, true]);
  });

  it("when reading on in a windowed order must read the catalogue's extent again, then it waits for it no longer than the page's time", async () => {
    const { es, trouble } = troubled(ctx.es);
    const timeoutMs = 1000;
    const repository = createEsRepository(es, ctx.alias, { windowFromCount: 0, extentTtlMs: 300, batching: { ...DEFAULT_BATCHING, timeoutMs } });
    const position = await beforeLastPage(repository, 'oldest');
    // The extent, read for the page, expires while its searches take their time; read again for
    // reading on, it takes longer than the whole page may.
    trouble.searchesMs = () => 350;
    trouble.extentMs = 3000;
    const started = Date.now();
    const last = await repository.list({ page: 1, per_page: PER_PAGE_HERE, sort: 'oldest', position });
    const took = Date.now() - started;
    expect(last.items).to.have.length(PER_PAGE_HERE);
    expect(walkGoesOn(last, PER_PAGE_HERE, 60)).to.equal(true);
    expect(took, 'ms').to.be.within(timeoutMs - 100, timeoutMs + 250);
  });
});
