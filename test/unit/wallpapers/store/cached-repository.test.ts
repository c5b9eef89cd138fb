import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { withResponseCache } from '../../../../src/wallpapers/store/cached-repository.js';
import type { Page, WallpaperRepository } from '../../../../src/wallpapers/store/repository.js';
import { type CataloguedWallpaper, toDetail } from '../../../../src/wallpapers/catalogued.js';
import type { WallpaperDetail } from '../../../../src/wallpapers/wallpaper.js';
import { type Shared, isShared, share } from '../../../../src/infra/shared-result.js';
import { searchParams } from '../../../support/search-params.js';

const kept = (id: number, title = `Title ${id}`): CataloguedWallpaper => ({
  id,
  title,
  description: 'd',
  url: `https://i.example/full/${id}.jpg`,
  thumbnail: `https://i.example/thumb/${id}.jpg`,
  resolution: '1920x1080',
  category: 'nature',
  downloads: id,
  created_at: '2024-01-01T00:00:00Z',
});
const wallpaper = (id: number, title = `Title ${id}`): WallpaperDetail => toDetail(kept(id, title));

/** A repository that counts its calls and answers from a mutable catalogue. */
function fakeRepository() {
  const state = { calls: 0, title: 'A', fail: false, delayMs: 0 };
  const answer = async (): Promise<Shared<Page>> => {
    state.calls++;
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.fail) throw new Error('backend down');
    return share({ items: [kept(1, state.title)], total: 1 });
  };
  const repository: WallpaperRepository = {
    list: answer,
    search: answer,
    getById: async (id) => {
      state.calls++;
      return id === 404 ? null : share(wallpaper(id, state.title));
    },
    similar: async (id) => {
      state.calls++;
      return id === 404 ? null : share({ items: [kept(id + 1, state.title)], total: 1 });
    },
    getByIds: async (ids) => {
      state.calls++;
      return share({ items: ids.filter((id) => id !== 404).map((id) => wallpaper(id, state.title)), missing: ids.filter((id) => id === 404) });
    },
    suggest: async () => {
      state.calls++;
      return share({ texts: [state.title] });
    },
    changes: async () => {
      state.calls++;
      return { items: [], more: false };
    },
  };
  return { state, repository };
}

function setup({ checkIntervalMs = 1000, ttlMs = 60_000 } = {}) {
  const { state, repository } = fakeRepository();
  const clock = { now: 0 };
  const catalogue = { version: 'v1', checks: 0, fail: false };
  const cached = withResponseCache(repository, {
    es: {} as Client,
    alias: 'w',
    maxBytes: 1_000_000,
    ttlMs,
    checkIntervalMs,
    now: () => clock.now,
    version: async () => {
      catalogue.checks++;
      if (catalogue.fail) throw new Error('no answer');
      return catalogue.version;
    },
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { state, clock, catalogue, cached, settle };
}

const params = { page: 1, per_page: 20 };

describe('response cache', () => {
  it('when the catalogue has not been checked yet, then requests go to the repository and nothing is cached', async () => {
    const { state, cached } = setup();
    await cached.list(params);
    await cached.list(params);
    expect(state.calls).to.equal(2);
  });

  it('when the catalogue was confirmed recently, then a repeated request is served from memory with an equal result', async () => {
    const { state, cached, settle } = setup();
    await cached.list(params);
    await settle();
    const first = await cached.list(params);
    const second = await cached.list({ page: 1, per_page: 20 });
    expect(second).to.equal(first);
    expect(second).to.deep.equal({ items: [kept(1, 'A')], total: 1 });
    expect(state.calls).to.equal(2);
  });

  it('when parameters differ in any field, then they are separate entries', async () => {
    const { state, cached, settle } = setup();
    await cached.list(params);
    await settle();
    await cached.list(params);
    await cached.list({ ...params, category: ['space'] });
    await cached.list({ ...params, page: 2 });
    await cached.search(searchParams({ ...params, q: 'a' }));
    await cached.search(searchParams({ ...params, q: 'a ' }));
    await cached.getById(1);
    await cached.getById(404);
    expect(await cached.getById(404)).to.equal(null);
    expect(state.calls).to.equal(8);
  });

  it('when discovery parameters differ (sort, seed, filters, facets, cursor position, ids), then each is an entry of its own; their order does not matter', async () => {
    const { state, cached, settle } = setup();
    await cached.list(params);
    await settle();
    const variants = [
      { ...params, sort: 'oldest' as const },
      { ...params, sort: 'random' as const, seed: 'a' },
      { ...params, sort: 'random' as const, seed: 'b' },
      { ...params, ratio: ['16x9'] },
      { ...params, orientation: 'portrait' as const },
      { ...params, min_resolution: '2560x1440' },
      { ...params, facets: ['category' as const] },
      { ...params, position: { index: 'w-1', after: [1, 2] } },
      { ...params, position: { index: 'w-2', after: [1, 2] } },
    ];
    for (const variant of variants) await cached.list(variant);
    for (const variant of variants) await cached.list(variant);
    expect(state.calls).to.equal(1 + variants.length);
    await cached.list({ ratio: ['16x9'], ...params });
    expect(state.calls, 'the same parameters in another order').to.equal(1 + variants.length);
    await cached.getByIds([1, 2]);
    await cached.getByIds([2, 1]);
    await cached.getByIds([1, 2]);
    expect(state.calls).to.equal(3 + variants.length);
  });

  it('when the catalogue fingerprint changes, then the cache is emptied at the next check', async () => {
    const { state, clock, catalogue, cached, settle } = setup();
    await cached.list(params);
    await settle();
    await cached.list(params);
    state.title = 'B';
    catalogue.version = 'v2';
    expect((await cached.list(params)).items[0]?.title).to.equal('A');
    clock.now = 500;
    await cached.list(params);
    await settle();
    expect((await cached.list(params)).items[0]?.title).to.equal('B');
  });

  it('when the check is overdue, then requests bypass the cache until a check succeeds', async () => {
    const { state, clock, catalogue, cached, settle } = setup();
    await cached.list(params);
    await settle();
    catalogue.fail = true;
    clock.now = 1001;
    state.title = 'B';
    expect((await cached.list(params)).items[0]?.title).to.equal('B');
    await settle();
    clock.now = 1600;
    expect((await cached.list(params)).items[0]?.title).to.equal('B');
    expect(catalogue.checks).to.equal(3);
  });

  it('when a result arrives after the catalogue changed, then it is not cached', async () => {
    const { state, clock, catalogue, cached, settle } = setup();
    await cached.list(params);
    await settle();
    state.delayMs = 30;
    const slow = cached.search(searchParams({ ...params, q: 'x' }));
    catalogue.version = 'v2';
    clock.now = 600;
    await cached.list(params);
    await slow;
    await settle();
    const calls = state.calls;
    await cached.search(searchParams({ ...params, q: 'x' }));
    expect(state.calls).to.equal(calls + 1);
  });

  it('when identical requests miss at the same time, then one repository call serves them all', async () => {
    const { state, cached, settle } = setup();
    await cached.list(params);
    await settle();
    state.delayMs = 20;
    const results = await Promise.all([1, 2, 3].map(() => cached.search(searchParams({ ...params, q: 'same' }))));
    expect(state.calls).to.equal(2);
    expect(results[0]).to.equal(results[2]);
  });

  it('when the repository fails, then the error reaches every caller and is not cached', async () => {
    const { state, cached, settle } = setup();
    await cached.list(params);
    await settle();
    state.fail = true;
    const outcomes = await Promise.allSettled([
      cached.search(searchParams({ ...params, q: 'f' })),
      cached.search(searchParams({ ...params, q: 'f' })),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    state.fail = false;
    expect((await cached.search(searchParams({ ...params, q: 'f' }))).total).to.equal(1);
  });

  it('when an entry is older than its time to live, then it is fetched again', async () => {
    const { state, clock, cached, settle } = setup({ checkIntervalMs: 10_000, ttlMs: 100 });
    await cached.list(params);
    await settle();
    await cached.list(params);
    await cached.list(params);
    clock.now = 150;
    await cached.list(params);
    expect(state.calls).to.equal(3);
  });

  it('when a hit is served, then it is the very shared result the repository gave, not a copy', async () => {
    const { cached, settle } = setup();
    await cached.list(params);
    await settle();
    const loaded = await cached.list(params);
    const hit = await cached.list(params);
    expect(hit).to.equal(loaded);
    expect(isShared(hit)).to.equal(true);
  });

  it('when the budget is 0, then the repository is returned as it is', () => {
    const { repository } = fakeRepository();
    const cached = withResponseCache(repository, { es: {} as Client, alias: 'w', maxBytes: 0, ttlMs: 1, checkIntervalMs: 1000 });
    expect(cached).to.equal(repository);
  });
});
