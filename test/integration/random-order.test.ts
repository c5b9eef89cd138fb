import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { readIndexDefinition } from '../../src/catalogue/admin/index-admin.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { SHUFFLE_FIELDS, shuffleKey, shuffleOf } from '../../src/wallpapers/store/shuffle.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import type { ListParams, Position } from '../../src/wallpapers/params.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { Page } from '../../src/wallpapers/store/repository.js';
import { runScript, toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { type TestResponse, request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';
import { cycle, firstLap } from '../support/shuffle-cycle.js';

const ids = (res: TestResponse) => (res.body.data as { id: number }[]).map((item) => item.id);

/** The project's mapping as it was before sort=random had keys. */
function mappingBeforeKeys() {
  const { settings, mappings } = readIndexDefinition();
  for (const field of SHUFFLE_FIELDS) delete mappings.properties![field];
  const source = mappings._source as { excludes: string[] };
  source.excludes = source.excludes.filter((field) => !SHUFFLE_FIELDS.includes(field));
  return { settings, mappings };
}

function walkers(get: (path: string) => Promise<TestResponse>) {
  return {
    async byCursor(path: string): Promise<number[]> {
      const seen: number[] = [];
      let next: string | null = path;
      while (next !== null) {
        const res = await get(next);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        seen.push(...ids(res));
        const link = res.headers.get('link');
        next = link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
      }
      return seen;
    },
    async byNumber(path: string, perPage: number, total: number): Promise<number[]> {
      const seen: number[] = [];
      for (let page = 1; (page - 1) * perPage < total; page++) seen.push(...ids(await get(`${path}&per_page=${perPage}&page=${page}`)));
      return seen;
    },
  };
}

describe('sort=random through the API, on a catalogue below the size shuffled along a key', () => {
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });
  const walk = walkers(get);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

  it('when a seed is walked by cursor or by page number, then both give one order, each wallpaper once, and another seed another', async () => {
    const orders: number[][] = [];
    for (const seed of ['tide42', 'reef7']) {
      const byCursor = await walk.byCursor(`/v1/wallpapers?sort=random&seed=${seed}&per_page=7`);
      expect(sorted(byCursor), seed).to.deep.equal(sorted(ctx.docs.map((doc) => doc.id)));
      expect(await walk.byNumber(`/v1/wallpapers?sort=random&seed=${seed}`, 7, ctx.docs.length), seed).to.deep.equal(byCursor);
      orders.push(byCursor);
    }
    expect(orders[0]).to.not.deep.equal(orders[1]);
  });

  it('when a walk without a seed is followed by meta.next_cursor alone, then it keeps the seed picked and gives each wallpaper once', async () => {
    const seen: number[] = [];
    let res = await get('/v1/wallpapers?sort=random&per_page=9');
    const seed = res.body.meta.seed as string;
    for (;;) {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.meta.seed).to.equal(seed);
      seen.push(...ids(res));
      if (res.body.meta.next_cursor === null) break;
      res = await get(`/v1/wallpapers?sort=random&per_page=9&cursor=${res.body.meta.next_cursor as string}`);
    }
    expect(seen).to.deep.equal(await walk.byNumber(`/v1/wallpapers?sort=random&seed=${seed}`, 9, ctx.docs.length));
    expect(sorted(seen)).to.deep.equal(sorted(ctx.docs.map((doc) => doc.id)));
  });

  it('when filters or a search narrow it, then every match comes once, and the total is exact', async () => {
    const space = ctx.docs.filter((doc) => doc.category === 'space');
    const res = await get('/v1/wallpapers?sort=random&seed=tide42&category=space&per_page=100');
    expect(sorted(ids(res))).to.deep.equal(sorted(space.map((doc) => doc.id)));
    expect(res.body.meta.total_items).to.equal(space.length);
    const walked = await walk.byCursor('/v1/search?q=calm%20OR%20golden&sort=random&seed=tide42&per_page=3');
    const matches = ctx.docs.filter((doc) => /calm|golden/i.test(`${doc.title} ${doc.description}`));
    expect(sorted(walked)).to.deep.equal(sorted(matches.map((doc) => doc.id)));
  });

  it('when facets are asked with a random page, then they count the whole query, on page 1 and on a numbered page', async () => {
    for (const page of [1, 3]) {
      const res = await get(`/v1/wallpapers?sort=random&seed=reef7&per_page=5&page=${page}&facets=category`);
      const counted = (res.body.meta.facets.category as { count: number }[]).reduce((sum, facet) => sum + facet.count, 0);
      expect(counted, `page ${page}`).to.equal(ctx.docs.length);
      expect(res.body.meta.total_items).to.equal(ctx.docs.length);
    }
  });
});

describe('sort=random along a key, as on a catalogue of a million or more', () => {
  const ctx = useCatalogue();

  async function walk(read: (params: ListParams) => Promise<Page>, seed: string, perPage: number, filters: Partial<ListParams> = {}) {
    const seen: number[] = [];
    let position: Position | undefined;
    for (let page = 1; page < 200; page++) {
      const result = await read({ page: 1, per_page: perPage, sort: 'random', seed, ...filters, ...(position ? { position } : {}) });
      seen.push(...result.items.map((item) => item.id));
      if (!result.last || result.items.length < perPage || seen.length >= result.total) return seen;
      position = { ...result.last, total: result.total, depth: seen.length };
    }
    throw new Error('the walk did not end');
  }

  it("when every query counts as large, then walks by cursor and by number give the seed's cycle of the key", async () => {
    const spans = createEsRepository(ctx.es, ctx.alias, { shuffleFromTotal: 0 });
    for (const seed of ['tide42', 'reef7']) {
      for (const filters of [{}, { category: ['space', 'nature'] }]) {
        const expected = cycle(
          ctx.docs.filter((doc) => !('category' in filters) || ['space', 'nature'].includes(doc.category)),
          seed,
        );
        expect(await walk((p) => spans.list(p), seed, 4, filters), `${seed} by span`).to.deep.equal(expected);
        const byNumber: number[] = [];
        for (let page = 1; (page - 1) * 4 < expected.length; page++) {
          byNumber.push(...(await spans.list({ page, per_page: 4, sort: 'random', seed, ...filters })).items.map((item) => item.id));
        }
        expect(byNumber, `${seed} by number`).to.deep.equal(expected);
      }
    }
  });
});

// Keys are a bijection of ids below 2^32 (shuffle.ts), so two wallpapers share a key only past it:
// key 0 of these two is 1,773,399,996.
const TIED = [101_981, 2 ** 32 + 640] as const;

describe("sort=random along a key, when a walk's start shares its key with another wallpaper", () => {
  const ctx = useCatalogue(
    {},
    {
      docs: () =>
        [...generateWallpapers({ count: 60, seed: 11, imageBaseUrl: 'https://images.example' })].map((doc, i) =>
          i < 2 ? { ...doc, id: TIED[i]! } : doc,
        ),
    },
  );

  it('when walked by cursor and by number, then the wallpaper of the lower id comes last, and each comes once', async () => {
    expect(shuffleKey(TIED[0], 0)).to.equal(shuffleKey(TIED[1], 0));
    const repository = createEsRepository(ctx.es, ctx.alias, { shuffleFromTotal: 0 });
    // Seeds on key 0 whose walk starts at the higher id of the two: the lower one lies just before it.
    const seeds = Array.from({ length: 20_000 }, (_, n) => `t${n}`)
      .filter((s) => shuffleOf(s).key === 0 && cycle(ctx.docs, s)[0] === TIED[1])
      .slice(0, 2);
    expect(seeds).to.have.length(2);
    for (const seed of seeds) {
      const expected = cycle(ctx.docs, seed);
      expect(expected.at(-1)).to.equal(TIED[0]);
      for (const perPage of [1, 7]) {
        const byCursor: number[] = [];
        let position: Position | undefined;
        do {
          const page = await repository.list({ page: 1, per_page: perPage, sort: 'random', seed, ...(position ? { position } : {}) });
          byCursor.push(...page.items.map((item) => item.id));
          position =
            page.items.length === perPage && byCursor.length < page.total ? { ...page.last!, total: page.total, depth: byCursor.length } : undefined;
        } while (position);
        expect(byCursor, `${seed} by cursor, ${perPage} a page`).to.deep.equal(expected);
        const byNumber: number[] = [];
        for (let page = 1; (page - 1) * perPage < expected.length; page++)
          byNumber.push(...(await repository.list({ page, per_page: perPage, sort: 'random', seed })).items.map((item) => item.id));
        expect(byNumber, `${seed} by number, ${perPage} a page`).to.deep.equal(expected);
      }
    }
  });
});

describe('sort=random on 20,000 wallpapers, where a span of the key holds a page and little more', function () {
  this.timeout(120_000);
  const ctx = useCatalogue({}, { docs: () => [...generateWallpapers({ count: 20_000, seed: 7, imageBaseUrl: 'https://images.example' })] });

  it('when a walk crosses the top of the key, then spans, cursors and page numbers agree with the cycle, past the wrap', async () => {
    const repository = createEsRepository(ctx.es, ctx.alias, { shuffleFromTotal: 0 });
    const all = ctx.docs.map((doc) => doc.id);
    // A seed whose first lap holds between 100 and 300 wallpapers: the walk wraps on an early page.
    const seed = Array.from({ length: 5000 }, (_, n) => `w${n}`).find((s) => {
      const { key, offset, skip } = shuffleOf(s);
      const above = all.filter((id) => shuffleKey(id, key) >= offset).length;
      return above - skip >= 100 && above - skip <= 300;
    })!;
    expect(firstLap(ctx.docs, seed)).to.be.within(100, 300);
    const expected = cycle(ctx.docs, seed).slice(0, 600);
    const byCursor: number[] = [];
    let position: Position | undefined;
    while (byCursor.length < 600) {
      const page = await repository.list({ page: 1, per_page: 20, sort: 'random', seed, ...(position ? { position } : {}) });
      expect(page.total).to.equal(20_000);
      byCursor.push(...page.items.map((item) => item.id));
      position = { ...page.last!, total: page.total, depth: byCursor.length };
    }
    expect(byCursor).to.deep.equal(expected);
    const byNumber: number[] = [];
    for (let page = 1; page <= 30; page++)
      byNumber.push(...(await repository.list({ page, per_page: 20, sort: 'random', seed })).items.map((item) => item.id));
    expect(byNumber).to.deep.equal(expected);
  });
});

describe('sort=random along a key, pages by number as deep as the result window', function () {
  this.timeout(120_000);
  const ctx = useCatalogue({}, { docs: () => [...generateWallpapers({ count: 3000, seed: 9, imageBaseUrl: 'https://images.example' })] });

  it("when a page's ranks from the offset would pass the window, then it is read from the walk's start and served, in the seed's cycle", async () => {
    // A window of 1,000 (Elasticsearch's and the API's alike): the deepest pages of 50 would pass it by the skip.
    await ctx.es.indices.putSettings({ index: ctx.alias, settings: { max_result_window: 1000 } });
    try {
      const repository = createEsRepository(ctx.es, ctx.alias, { shuffleFromTotal: 0, resultWindow: 1000 });
      for (const seed of ['tide42', 'reef7']) {
        expect(shuffleOf(seed).skip, 'a skip that pushes the last pages past the window').to.be.above(50);
        const byNumber: number[] = [];
        for (let page = 1; page * 50 <= 1000; page++)
          byNumber.push(...(await repository.list({ page, per_page: 50, sort: 'random', seed })).items.map((item) => item.id));
        expect(byNumber, seed).to.deep.equal(cycle(ctx.docs, seed).slice(0, 1000));
      }
    } finally {
      await ctx.es.indices.putSettings({ index: ctx.alias, settings: { max_result_window: 10_100 } });
    }
  });
});

describe('sort=random on a catalogue loaded before the keys', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({ responseCache: { maxBytes: 0, ttlMs: 1000, checkIntervalMs: 1000 } }, { mapping: mappingBeforeKeys() });
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });
  const walk = walkers(get);
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'random-order-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function checkWalks(docs: readonly WallpaperDocument[] | readonly { id: number }[]) {
    const all = docs.map((doc) => doc.id).sort((a, b) => a - b);
    const byCursor = await walk.byCursor('/v1/wallpapers?sort=random&seed=tide42&per_page=7');
    expect([...byCursor].sort((a, b) => a - b)).to.deep.equal(all);
    expect(byCursor, 'not the id order').to.not.deep.equal(all);
    expect(byCursor, 'not a key order').to.not.deep.equal(cycle(docs, 'tide42'));
    expect(await walk.byNumber('/v1/wallpapers?sort=random&seed=tide42', 7, all.length)).to.deep.equal(byCursor);
  }

  it('when walked, then it is shuffled by score, each wallpaper once, by cursor and by page number alike', async () => {
    await checkWalks(ctx.docs);
  });

  it('when an incremental import adds wallpapers, then they are written without keys and the walk still covers them all once', async () => {
    const added = wallpapers(5, { startId: 9001 });
    const path = join(dir, 'more.ndjson');
    writeFileSync(path, toNdjson(added));
    const run = await runScript('import', [path, '--incremental'], { env: { INDEX_ALIAS: ctx.alias }, cwd: dir });
    expect(run.status, run.stderr).to.equal(0);
    await ctx.es.indices.refresh({ index: ctx.alias });
    const mapping = await ctx.es.indices.getMapping({ index: ctx.alias });
    expect(Object.values(mapping)[0]!.mappings.properties, 'no keys added to half a catalogue').to.not.have.property(SHUFFLE_FIELDS[0]!);
    await checkWalks([...ctx.docs, ...added]);
  });
});
