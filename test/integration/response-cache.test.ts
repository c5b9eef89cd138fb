import { expect } from 'chai';
import { searchParams } from '../support/search-params.js';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import { withResponseCache } from '../../src/wallpapers/store/cached-repository.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import type { WallpaperRepository } from '../../src/wallpapers/store/repository.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import {
  connectEs,
  createIndexWithDocs,
  createKey,
  dropIndicesOf,
  readyRedis,
  request,
  startApp,
  testConfig,
  uniqueName,
} from '../support/harness.js';

type Call = (repository: WallpaperRepository) => Promise<unknown>;

const CALLS: [string, Call][] = [
  ['list page 1', (r) => r.list({ page: 1, per_page: 20 })],
  ['list page 3 of 7', (r) => r.list({ page: 3, per_page: 7 })],
  ['list past the end', (r) => r.list({ page: 9, per_page: 20 })],
  ['list by category', (r) => r.list({ page: 1, per_page: 5, category: ['space'] })],
  ['list by category and resolution', (r) => r.list({ page: 1, per_page: 100, category: ['nature'], resolution: ['3840x2160'] })],
  ['list matching nothing', (r) => r.list({ page: 1, per_page: 20, resolution: ['7680x4320'] })],
  ['search', (r) => r.search(searchParams({ q: 'aurora', page: 1, per_page: 20 }))],
  ['search with a typo', (r) => r.search(searchParams({ q: 'lighthuose', page: 1, per_page: 20 }))],
  ['search with a filter', (r) => r.search(searchParams({ q: 'harbor', page: 1, per_page: 20, category: ['animals'] }))],
  ['get', (r) => r.getById(21)],
  ['get unknown', (r) => r.getById(999_999)],
];

/** Counts the calls that reach Elasticsearch. */
function counting(repository: WallpaperRepository) {
  const counter = { calls: 0 };
  const count =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A) => {
      counter.calls++;
      return fn(...args);
    };
  const wrapped: WallpaperRepository = {
    similar: count((id, perPage) => repository.similar(id, perPage)),
    list: count((params) => repository.list(params)),
    search: count((params) => repository.search(params)),
    getById: count((id) => repository.getById(id)),
    getByIds: count((ids) => repository.getByIds(ids)),
    suggest: count((params) => repository.suggest(params)),
    changes: count((after, perPage) => repository.changes(after, perPage)),
  };
  return { counter, wrapped };
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Requests until one is served from memory, i.e. the catalogue check has completed. */
async function warm(cached: WallpaperRepository, counter: { calls: number }): Promise<void> {
  await eventually(async () => {
    const before = counter.calls;
    await cached.list({ page: 1, per_page: 1 });
    await cached.list({ page: 1, per_page: 1 });
    return counter.calls < before + 2;
  });
}

function renamed(docs: WallpaperDocument[], prefix: string): WallpaperDocument[] {
  return docs.map((doc) => ({ ...doc, title: `${prefix} ${doc.title}` }));
}

/** Points `alias` at a new index holding `docs`, in one atomic alias update. */
async function moveAlias(es: Client, alias: string, docs: WallpaperDocument[]): Promise<void> {
  const staging = `${alias}-next`;
  const index = await createIndexWithDocs(es, staging, docs);
  await es.indices.updateAliases({
    actions: [{ remove: { index: `${alias}-*`, alias } }, { add: { index, alias } }, { remove: { index, alias: staging } }],
  });
}

describe('response cache on Elasticsearch', function () {
  this.timeout(60_000);
  let es: Client;
  let redis: Redis;
  const aliases: string[] = [];

  async function catalogue(docs = fixtureWallpapers()): Promise<string> {
    const alias = uniqueName('test-cache');
    aliases.push(alias);
    await createIndexWithDocs(es, alias, docs);
    return alias;
  }

  /** An uncached repository and a cached one over the same alias, the cached one already serving from memory. */
  async function warmedPair(alias: string, checkIntervalMs: number) {
    const uncached = createEsRepository(es, alias);
    const { counter, wrapped } = counting(createEsRepository(es, alias));
    const cached = withResponseCache(wrapped, { es, alias, maxBytes: 8 << 20, ttlMs: 60_000, checkIntervalMs });
    await warm(cached, counter);
    return { uncached, counter, cached };
  }

  before(async () => {
    es = connectEs();
    redis = await readyRedis();
  });

  after(async () => {
    for (const alias of aliases) await dropIndicesOf(es, alias);
    await es.close();
    redis.disconnect();
  });

  it('when requests are answered from the cache, then every result equals the uncached one', async () => {
    const alias = await catalogue();
    const { uncached, counter, cached } = await warmedPair(alias, 60_000);
    const before = counter.calls;
    for (const [name, call] of CALLS) {
      const first = await call(cached);
      const again = await call(cached);
      const fresh = await call(uncached);
      expect(first, name).to.deep.equal(fresh);
      expect(again, name).to.deep.equal(fresh);
    }
    expect(counter.calls - before, 'each distinct request reaches Elasticsearch once').to.equal(CALLS.length);
  });

  it('when the same HTTP requests go to a cached and an uncached app, then the bodies are byte for byte the same', async () => {
    const alias = await catalogue();
    const key = (await createKey(redis)).apiKey;
    const plain = await startApp({
      config: testConfig({ indexAlias: alias, responseCache: { maxBytes: 0, ttlMs: 1000, checkIntervalMs: 1000 } }),
      es,
      redis,
    });
    const cachedApp = await startApp({ config: testConfig({ indexAlias: alias }), es, redis });
    try {
      const paths = [
        '/v1/wallpapers',
        '/v1/wallpapers?category=space&per_page=5&page=2',
        '/v1/search?q=nebula',
        '/v1/search?q=aurora&per_page=1',
        '/v1/wallpapers/21',
        '/v1/wallpapers/999999',
      ];
      for (let round = 0; round < 3; round++) {
        for (const path of paths) {
          const [a, b] = [await request(cachedApp.url, path, { key }), await request(plain.url, path, { key })];
          expect(a.status, path).to.equal(b.status);
          expect(a.text, path).to.equal(b.text);
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    } finally {
      await Promise.all([plain.close(), cachedApp.close()]);
    }
  });

  it('when the alias moves to another index, then cached results give way to the new index within the check interval', async () => {
    const docs = fixtureWallpapers();
    const alias = await catalogue(docs);
    const { uncached, cached } = await warmedPair(alias, 200);
    const oldPage = await cached.list({ page: 1, per_page: 20 });
    const oldHit = await cached.search(searchParams({ q: 'aurora', page: 1, per_page: 20 }));
    const oldDoc = await cached.getById(7);

    await moveAlias(es, alias, renamed(docs.slice(0, 50), 'Moved'));
    const newPage = await uncached.list({ page: 1, per_page: 20 });
    expect(newPage).to.not.deep.equal(oldPage);
    // The exact interval is the unit test's (a fake clock); here, only that the move is seen.
    await eventually(async () => JSON.stringify(await cached.list({ page: 1, per_page: 20 })) === JSON.stringify(newPage));
    expect(await cached.search(searchParams({ q: 'aurora', page: 1, per_page: 20 }))).to.deep.equal(
      await uncached.search(searchParams({ q: 'aurora', page: 1, per_page: 20 })),
    );
    expect(await cached.getById(7)).to.deep.equal(await uncached.getById(7));
    expect(await cached.getById(7)).to.not.deep.equal(oldDoc);
    expect(oldHit).to.not.deep.equal(await cached.search(searchParams({ q: 'aurora', page: 1, per_page: 20 })));
  });

  it('when a document is rewritten in place, then the cached answer follows once the write is visible', async () => {
    const docs = fixtureWallpapers();
    const alias = await catalogue(docs);
    const { uncached, cached } = await warmedPair(alias, 200);
    await cached.getById(21);
    const target = docs.find((doc) => doc.id === 21) as WallpaperDocument;
    await es.index({ index: alias, id: '21', document: { ...target, title: 'Rewritten Nebula' }, refresh: 'wait_for' });
    await eventually(async () => (await cached.getById(21))?.title === 'Rewritten Nebula');
    expect(await cached.getById(21)).to.deep.equal(await uncached.getById(21));
  });

  it('when the alias does not exist, then the cached repository fails exactly like the uncached one', async () => {
    const alias = uniqueName('test-cache-missing');
    const uncached = createEsRepository(es, alias);
    const cached = withResponseCache(createEsRepository(es, alias), { es, alias, maxBytes: 8 << 20, ttlMs: 60_000, checkIntervalMs: 200 });
    const outcome = async (repository: WallpaperRepository) => {
      try {
        await repository.list({ page: 1, per_page: 20 });
        return 'resolved';
      } catch (err) {
        return { name: (err as Error).name, status: (err as { status?: number }).status, message: (err as Error).message };
      }
    };
    for (let i = 0; i < 3; i++) {
      expect(await outcome(cached)).to.deep.equal(await outcome(uncached));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
