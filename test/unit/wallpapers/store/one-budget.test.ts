import { expect } from 'chai';
import { errors, type Client } from '@elastic/elasticsearch';
import { BackendUnavailable } from '../../../../src/errors.js';
import { createEsRepository } from '../../../../src/wallpapers/store/es-repository.js';
import { fixtureWallpapers } from '../../../support/fixtures.js';

const BUDGET_MS = 400;
const FIRST_READ_MS = 300;
const BATCHING = { maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000, timeoutMs: BUDGET_MS };
const [wallpaper] = fixtureWallpapers();

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** As the client does: no answer within the request's timeout is a TimeoutError. */
function unanswered(options: { requestTimeout?: number } | undefined): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new errors.TimeoutError('Request timed out')), options?.requestTimeout ?? 30_000));
}

/** One node whose first read (the seed, the feed's watermark) answers slowly, and whose searches never do. */
function slowThenHung() {
  const given: number[] = [];
  const es = {
    connectionPool: { size: 1, connections: [{ id: 'http://n0/', request: () => Promise.resolve({ statusCode: 200, body: '{"nodes":{"a":{}}}' }) }] },
    mget: () => after(FIRST_READ_MS, { docs: [{ _id: String(wallpaper!.id), found: true, _source: wallpaper }] }),
    get: () => after(FIRST_READ_MS, { found: true, _source: { change_seq: 5 } }),
    msearch: (_: unknown, options?: { requestTimeout?: number }) => {
      given.push(options?.requestTimeout ?? Infinity);
      return unanswered(options);
    },
    search: (_: unknown, options?: { requestTimeout?: number }) => {
      given.push(options?.requestTimeout ?? Infinity);
      return unanswered(options);
    },
  } as unknown as Client;
  return { es, given };
}

async function timed(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call().then(
    () => null,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

describe('a request of several reads, one after another, against a slow node', () => {
  it('when the similar wallpapers` seed took most of the budget, then the search gets what is left and the 503 comes within one budget', async () => {
    const { es, given } = slowThenHung();
    const { error, ms } = await timed(() => createEsRepository(es, 'w', { batching: BATCHING }).similar(wallpaper!.id, 5));
    expect(error).to.be.instanceOf(BackendUnavailable);
    expect(given).to.have.length(1);
    expect(given[0]).to.be.at.most(BUDGET_MS - FIRST_READ_MS + 20);
    expect(ms).to.be.below(BUDGET_MS + 150);
  });

  it('when the feed`s watermark took most of the budget, then its page gets what is left and the 503 comes within one budget', async () => {
    const { es, given } = slowThenHung();
    const { error, ms } = await timed(() => createEsRepository(es, 'w', { batching: BATCHING }).changes(null, 5));
    expect(error).to.be.instanceOf(BackendUnavailable);
    expect(given).to.have.length(1);
    expect(given[0]).to.be.at.most(BUDGET_MS - FIRST_READ_MS + 20);
    expect(ms).to.be.below(BUDGET_MS + 150);
  });
});
