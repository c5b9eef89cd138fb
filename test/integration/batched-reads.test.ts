import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { BackendUnavailable, DomainError, InvalidInput } from '../../src/errors.js';
import { RANKING, buildListRequest } from '../../src/wallpapers/store/build-queries.js';
import { buildGetRequest, buildSearchRequest } from '../../bench/api/direct-requests.js';
import type { ListParams, SearchParams } from '../../src/wallpapers/params.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { Page } from '../../src/wallpapers/store/repository.js';
import { type CataloguedWallpaper, toDetail } from '../../src/wallpapers/catalogued.js';
import type { WallpaperDetail, WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { FIXTURE_CATEGORIES, FIXTURE_RESOLUTIONS, fixtureWallpapers } from '../support/fixtures.js';
import { connectEs, createIndexWithDocs, dropIndicesOf, testConfig, uniqueName } from '../support/harness.js';
import { hungServer } from '../support/hung-server.js';
import { slowServer } from '../support/slow-server.js';
import { searchParams } from '../support/search-params.js';

/** What one direct request to Elasticsearch answers: the reference the batched repository must equal. */
async function directSearch(es: Client, request: ReturnType<typeof buildListRequest>): Promise<Page> {
  const response = await es.search<WallpaperDocument>(request);
  const total = response.hits.total;
  const hits = response.hits.hits ?? [];
  const last = hits.at(-1);
  return {
    ...(last?.sort ? { last: { index: last._index, after: last.sort as (string | number)[], ranking: RANKING } } : {}),
    items: hits.map((hit) => hit._source as CataloguedWallpaper),
    total: typeof total === 'number' ? total : (total?.value ?? 0),
  };
}

async function directGet(es: Client, alias: string, id: number): Promise<WallpaperDetail | null> {
  const doc = await es.get<WallpaperDocument>(buildGetRequest(alias, id), { ignore: [404] });
  return doc.found && doc._source ? toDetail(doc._source) : null;
}

/** A client of one node that accepts connections and never answers. */
async function hungElasticsearch() {
  const hung = await hungServer();
  const client = connectEs(hung.url, 60_000);
  return {
    client,
    close: async () => {
      await client.close();
      await hung.close();
    },
  };
}

describe('batched reads on Elasticsearch', function () {
  this.timeout(60_000);
  let es: Client;
  let alias: string;
  let docs: WallpaperDocument[];

  before(async () => {
    es = connectEs();
    alias = uniqueName('test-batched');
    docs = fixtureWallpapers();
    await createIndexWithDocs(es, alias, docs);
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
  });

  function recording(maxInFlight = 1, maxBatchSize = 32) {
    const batches: { operation: string; size: number }[] = [];
    const repository = createEsRepository(es, alias, {
      batching: { maxInFlight, maxBatchSize, maxQueued: 1000, timeoutMs: 10_000, onBatch: (operation, size) => batches.push({ operation, size }) },
    });
    return { repository, batches };
  }

  it('when many gets of existing and unknown ids arrive at once, then they share multi-gets and each answer equals a direct get', async () => {
    const { repository, batches } = recording();
    const ids = [...docs.map((doc) => doc.id), 999_001, 999_002, docs[0]!.id, docs[3]!.id];
    const batched = await Promise.all(ids.map((id) => repository.getById(id)));
    const direct = await Promise.all(ids.map((id) => directGet(es, alias, id)));
    expect(batched).to.deep.equal(direct);
    expect(batched.filter((doc) => doc === null)).to.have.length(2);
    const mgets = batches.filter((b) => b.operation === 'mget');
    expect(Math.max(...mgets.map((b) => b.size)), 'some multi-get carried several ids').to.be.greaterThan(1);
    expect(
      mgets.reduce((sum, b) => sum + b.size, 0),
      'repeated ids waiting together are asked once',
    ).to.be.lessThan(ids.length);
  });

  it('when many lists and searches arrive at once, then they share multi-searches and each page equals a direct search', async () => {
    const { repository, batches } = recording();
    const lists: ListParams[] = [];
    const searches: Omit<SearchParams, 'text'>[] = [];
    for (const [i, category] of FIXTURE_CATEGORIES.entries()) {
      const resolution = FIXTURE_RESOLUTIONS[i % FIXTURE_RESOLUTIONS.length];
      lists.push(
        { page: 1, per_page: 20, category: [category] },
        { page: 2, per_page: 3, category: [category], resolution: [resolution!] },
        { page: 1 + i, per_page: 7 },
      );
      searches.push(
        { q: 'aurora', page: 1, per_page: 20, category: [category] },
        { q: 'lighthuose', page: 1, per_page: 5 },
        { q: 'nebula harbor', page: 1 + i, per_page: 2 },
      );
    }
    lists.push({ page: 1, per_page: 20, resolution: ['7680x4320'] }, { page: 40, per_page: 20 });
    // Every order in one batch: each page, and its cursor position, must still be its own.
    for (const sort of ['oldest', 'downloads', 'newest'] as const) lists.push({ page: 2, per_page: 9, sort });
    for (const sort of ['oldest', 'downloads', 'relevance'] as const) searches.push({ q: 'aurora', page: 1, per_page: 4, sort });
    searches.push({ q: 'zzzzqqq', page: 1, per_page: 20 });
    // A random page may take several reads (shuffled-pages.ts): its reference is the same page read alone.
    const randomLists: ListParams[] = [1, 2, 5].map((page) => ({ page, per_page: 9, sort: 'random', seed: 'batch7' }));
    const randomSearches = [1, 2].map((page) => searchParams({ q: 'calm OR golden', page, per_page: 3, sort: 'random', seed: 'batch7' }));

    const [batchedLists, batchedSearches, batchedRandom] = await Promise.all([
      Promise.all(lists.map((params) => repository.list(params))),
      Promise.all(searches.map((params) => repository.search(searchParams(params)))),
      Promise.all([...randomLists.map((params) => repository.list(params)), ...randomSearches.map((params) => repository.search(params))]),
    ]);
    const alone = recording().repository;
    const randomAlone: Page[] = [];
    for (const params of randomLists) randomAlone.push(await alone.list(params));
    for (const params of randomSearches) randomAlone.push(await alone.search(params));
    expect(batchedRandom).to.deep.equal(randomAlone);
    expect(batchedRandom.every((page) => page.items.length > 0)).to.equal(true);
    const directLists = await Promise.all(lists.map((params) => directSearch(es, buildListRequest(alias, params))));
    const directSearches = await Promise.all(searches.map((params) => directSearch(es, buildSearchRequest(alias, params))));
    expect(batchedLists).to.deep.equal(directLists);
    expect(batchedSearches).to.deep.equal(directSearches);
    expect(
      batchedLists.some((page) => page.items.length === 0 && page.total > 0),
      'a page past the end',
    ).to.equal(true);
    expect(batchedSearches.at(-1), 'a search matching nothing').to.deep.equal({ items: [], total: 0 });
    expect(Math.max(...batches.filter((b) => b.operation === 'msearch').map((b) => b.size))).to.be.greaterThan(1);
  });

  it('when identical faceted pages are asked at once, then they share one page with its facets', async () => {
    const { repository } = recording();
    const params: ListParams = { page: 1, per_page: 5, category: ['space'], facets: ['category', 'ratio'] };
    const [a, b] = await Promise.all([repository.list(params), repository.list({ ...params })]);
    expect(a).to.equal(b);
    expect(a.facets?.category?.length).to.be.greaterThan(0);
  });

  it('when Elasticsearch refuses one search of a batch, then only its caller fails (400 naming page, nothing leaked) and the others are answered', async () => {
    const { repository, batches } = recording();
    // Past max_result_window: the routes refuse this up front, so only a direct repository call can send it.
    const tooDeep = repository.list({ page: 600, per_page: 20 }).then(
      () => 'answered',
      (err: unknown) => err,
    );
    const fine = [repository.list({ page: 1, per_page: 5 }), repository.search(searchParams({ q: 'aurora', page: 1, per_page: 5 }))];
    const [refused, ...answered] = await Promise.all([tooDeep, ...fine]);
    expect(batches[0], 'all three went in one multi-search').to.deep.equal({ operation: 'msearch', size: 3 });
    expect(refused, "a page the index cannot serve is the client's to change").to.be.instanceOf(InvalidInput);
    expect((refused as InvalidInput).parameter).to.equal('page');
    expect((refused as InvalidInput).message)
      .to.include("'page'")
      .and.not.match(/result window|elasticsearch/i);
    expect(answered).to.deep.equal([
      await directSearch(es, buildListRequest(alias, { page: 1, per_page: 5 })),
      await directSearch(es, buildSearchRequest(alias, { q: 'aurora', page: 1, per_page: 5 })),
    ]);
    expect((answered[0] as Page).items).to.have.length(5);
  });

  it('when the alias does not exist, then gets, lists and searches fail with 503 as unbatched calls did', async () => {
    const missing = createEsRepository(es, uniqueName('test-batched-missing'));
    const outcomes = await Promise.all(
      [
        missing.getById(1),
        missing.getById(2),
        missing.list({ page: 1, per_page: 20 }),
        missing.search(searchParams({ q: 'sky', page: 1, per_page: 20 })),
      ].map((call) =>
        call.then(
          () => 'answered',
          (err: unknown) => (err instanceof BackendUnavailable ? 503 : String(err)),
        ),
      ),
    );
    expect(outcomes).to.deep.equal([503, 503, 503, 503]);
  });

  it('when requests arrive one at a time, then each goes alone (no waiting for company)', async () => {
    const { repository, batches } = recording(4);
    await repository.getById(docs[0]!.id);
    await repository.list({ page: 1, per_page: 20 });
    await repository.search(searchParams({ q: 'aurora', page: 1, per_page: 20 }));
    expect(batches).to.deep.equal([
      { operation: 'mget', size: 1 },
      { operation: 'msearch', size: 1 },
      { operation: 'msearch', size: 1 },
    ]);
  });

  it('when Elasticsearch stops answering, then every read fails with 503 within its own timeout, time spent waiting for a free call included', async function () {
    this.timeout(20_000);
    const { client: silent, close } = await hungElasticsearch();
    // Scaled so a machine running slow cannot blur the two outcomes apart: each read ends one
    // timeout after it was asked (3 s), where waiting for the slot first would end at 4.5 s.
    const timeoutMs = 3000;
    const repository = createEsRepository(silent, alias, { batching: { maxInFlight: 1, maxBatchSize: 32, maxQueued: 1000, timeoutMs } });
    const timed = async (call: () => Promise<unknown>) => {
      const started = Date.now();
      const outcome = await call().then(
        () => 'answered',
        (err: unknown) => (err instanceof BackendUnavailable ? 503 : String(err)),
      );
      return { outcome, ms: Date.now() - started };
    };
    try {
      const first = timed(() => repository.getById(1));
      await new Promise((resolve) => setTimeout(resolve, timeoutMs / 2));
      // These wait half a timeout for the one call slot before they can be sent.
      const queued = [timed(() => repository.getById(2)), timed(() => repository.getById(3)), timed(() => repository.getById(4))];
      const results = await Promise.all([first, ...queued]);
      expect(results.map((r) => r.outcome)).to.deep.equal([503, 503, 503, 503]);
      for (const { ms } of results) expect(ms, 'each read ends about one timeout after it was asked').to.be.within(timeoutMs - 50, timeoutMs + 1000);
    } finally {
      await close();
    }
  });

  /** Pages made of several reads: each with the options that make a small catalogue read that way. */
  const SEVERAL_READS = [
    // Along a key from a cursor: the span and its count, side by side.
    [
      { page: 1, per_page: 5, sort: 'random', seed: 'hung1', position: { index: '', after: [12345, 7], total: 60, shuffled: true } },
      { shuffleFromTotal: 0 },
    ],
    // Along a key by number: the count, then the rank read it sizes.
    [{ page: 3, per_page: 5, sort: 'random', seed: 'hung2' }, { shuffleFromTotal: 0 }],
    // Oldest first: the catalogue's extent, then the window and its count.
    [{ page: 2, per_page: 5, sort: 'oldest' }, { windowFromCount: 0 }],
    // Oldest first on a catalogue too small for windows: the extent, then the page.
    [{ page: 2, per_page: 5, sort: 'oldest' }, { windowFromCount: Number.POSITIVE_INFINITY }],
  ] as const;

  /** How a page read ends (503 for BackendUnavailable), and after how long. */
  async function pageOutcome(client: Client, [params, options]: (typeof SEVERAL_READS)[number], timeoutMs: number) {
    const batching = { maxInFlight: 2, maxBatchSize: 32, maxQueued: 1000, timeoutMs };
    const repository = createEsRepository(client, alias, { batching, ...options });
    const at = 'position' in params ? { ...params, position: { ...params.position, index: alias } } : params;
    const started = Date.now();
    const outcome = await repository.list(at).then(
      () => 'answered',
      (err: unknown) => (err instanceof BackendUnavailable ? 503 : String(err)),
    );
    return { outcome, ms: Date.now() - started };
  }

  it('when Elasticsearch stops answering, then a page of several reads fails with 503 within one timeout', async function () {
    this.timeout(30_000);
    const { client: silent, close } = await hungElasticsearch();
    const timeoutMs = 2000;
    try {
      for (const page of SEVERAL_READS) {
        const { outcome, ms } = await pageOutcome(silent, page, timeoutMs);
        expect(outcome, JSON.stringify(page[0])).to.equal(503);
        expect(ms, JSON.stringify(page[0])).to.be.within(timeoutMs - 50, timeoutMs + 1000);
      }
    } finally {
      await close();
    }
  });

  it('when Elasticsearch answers slowly, then a page of reads one after another fails with 503 within one timeout in all, not one each', async function () {
    this.timeout(30_000);
    const timeoutMs = 2000;
    // Each answer takes 0.6 of the timeout: a page of two reads in turn would take 1.2.
    const slow = await slowServer(testConfig().elasticsearchUrl, 0.6 * timeoutMs);
    const client = connectEs(slow.url, 60_000);
    try {
      for (const page of SEVERAL_READS.slice(1)) {
        const { outcome, ms } = await pageOutcome(client, page, timeoutMs);
        expect(outcome, JSON.stringify(page[0])).to.equal(503);
        expect(ms, JSON.stringify(page[0])).to.be.within(timeoutMs - 50, timeoutMs + 500);
      }
    } finally {
      await client.close();
      await slow.close();
    }
  });

  it('when Elasticsearch hangs and the wait queue is full, then further reads are refused with 503 at once instead of waiting', async function () {
    this.timeout(20_000);
    const { client: silent, close } = await hungElasticsearch();
    const repository = createEsRepository(silent, alias, { batching: { maxInFlight: 1, maxBatchSize: 32, maxQueued: 2, timeoutMs: 800 } });
    const outcome = (call: Promise<unknown>) =>
      call.then(
        () => 'answered',
        (err: unknown) => (err instanceof DomainError ? `${err.name} ${err.message}` : String(err)),
      );
    try {
      const sent = outcome(repository.getById(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const queued = [outcome(repository.getById(2)), outcome(repository.getById(3))];
      // Refused at once: settled before the event loop takes another turn, with no I/O or timer.
      const turn = new Promise<string>((resolve) => setImmediate(() => resolve('still waiting after a turn of the event loop')));
      const shed = await Promise.race([outcome(repository.getById(4)), turn]);
      expect(shed).to.equal('Overloaded The service is busy, please retry shortly');
      expect(await outcome(repository.getById(2)).then(String), 'an equal read joins the waiting one rather than being shed').to.match(
        /^BackendUnavailable The search backend/,
      );
      expect((await Promise.all([sent, ...queued])).every((o) => o.startsWith('BackendUnavailable The search backend'))).to.equal(true);
    } finally {
      await close();
    }
  });
});
