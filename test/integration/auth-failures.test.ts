import { expect } from 'chai';
import { ApiError, QuotaExhausted, createWallpaperClient } from '../../clients/typescript/src/index.js';
import type { Config } from '../../src/config.js';
import { type RunningApp, createKey, request, startApp, testConfig } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('failed authentications per client', function () {
  this.timeout(30_000);
  const ctx = useCatalogue();
  const apps: RunningApp[] = [];

  async function appWith(rateLimit: Partial<Config['rateLimit']>, trustProxyHops: number): Promise<RunningApp> {
    const app = await startApp({ config: testConfig({ indexAlias: ctx.alias, trustProxyHops }, rateLimit), es: ctx.es, redis: ctx.redis });
    apps.push(app);
    return app;
  }

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  // Failure counters outlive a test by up to a minute, so every client address is new: a run of
  // addresses from a random place in 100.64.0.0/10 (4 million), never repeated within the run.
  let nextV4 = Math.floor(Math.random() * 2 ** 21);
  const randomV4 = () => {
    const n = nextV4++ % 2 ** 22;
    return `100.${64 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
  };
  const via = (forwardedFor: string) => ({ 'X-Forwarded-For': forwardedFor });
  const guess = (app: RunningApp, headers: Record<string, string>, i = 0) => request(app.url, '/v1/wallpapers', { key: `guess-${i}`, headers });

  it('when a client behind one trusted proxy forges the left of X-Forwarded-For, then its failures still count against the address the proxy saw', async () => {
    const app = await appWith({ authFailureLimit: 3 }, 1);
    const client = randomV4();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess(app, via(`10.${i}.0.1, ${client}`), i)).status);
    expect(statuses).to.deep.equal([403, 403, 403, 429]);
  });

  it('when a client is blocked, then its failing requests get 429, while a valid key from it, new to the process or not, and other clients are served', async () => {
    // A key is 238 random bits: a block sheds a failing client's noise; it never locks a customer
    // behind the same address out (refusing keys the process had not served yet did, for as long
    // as a neighbour kept failing: review).
    const app = await appWith({ authFailureLimit: 3 }, 1);
    const client = randomV4();
    for (let i = 0; i < 3; i++) await guess(app, via(client), i);
    const blocked = await request(app.url, '/v1/wallpapers', { headers: via(client) });
    expect(blocked.status).to.equal(429);
    expect(blocked.body).to.include({ error: 'too_many_auth_failures', status: 429 });
    expect(blocked.body.message).to.match(
      /^Too many failed authentications from this address: requests without a valid API key are refused for \d+ seconds?\. Check the API key$/,
    );
    expect(blocked.headers.get('x-ratelimit-remaining')).to.equal(null);
    expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 60);
    const { apiKey } = await createKey(ctx.redis, 'free');
    expect((await request(app.url, '/v1/wallpapers', { key: apiKey, headers: via(client) })).status).to.equal(200);
    expect((await request(app.url, '/v1/usage', { key: apiKey, headers: via(client) })).status).to.equal(200);
    expect((await guess(app, via('203.0.113.9'))).status).to.equal(403);
  });

  it('when the TypeScript client is refused for failed authentications, then it throws that ApiError at once, without waiting or asking again', async () => {
    // Waiting the block out would only bring back the 403 it hides: the key itself is wrong.
    const app = await appWith({ authFailureLimit: 2 }, 1);
    const client = randomV4();
    for (let i = 0; i < 2; i++) await guess(app, via(client), i);
    const sent: string[] = [];
    const waits: number[] = [];
    // The client hands its fetch a Request: the proxy's header is set on it.
    const forwarded: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      request.headers.set('X-Forwarded-For', client);
      sent.push(request.url);
      return fetch(request);
    };
    const refused = await createWallpaperClient({ baseUrl: app.url, apiKey: 'guess-again', fetch: forwarded, onWait: (ms) => waits.push(ms) })
      .wallpapers.list()
      .catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ApiError).and.not.instanceOf(QuotaExhausted);
    expect(refused).to.include({ status: 429, error: 'too_many_auth_failures' });
    expect(sent).to.have.length(1);
    expect(waits).to.deep.equal([]);
  });

  it('when failures come from one IPv6 /64, then they count as one client; the next /64 is another', async () => {
    const app = await appWith({ authFailureLimit: 3 }, 1);
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    for (const host of ['::1', '::2', ':ffff:ffff:ffff:ffff']) expect((await guess(app, via(`${prefix}${host}`))).status).to.equal(403);
    expect((await guess(app, via(`${prefix}::abcd`))).status).to.equal(429);
    expect((await guess(app, via(`${prefix.slice(0, -1)}2::1`))).status).to.equal(403);
  });

  it('when no proxy is trusted, then X-Forwarded-For is ignored and the peer address counts', async () => {
    for (const key of await ctx.redis.keys('wpc:auth-failures:*')) await ctx.redis.del(key);
    const app = await appWith({ authFailureLimit: 3, authFailureWindowSeconds: 2 }, 0);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess(app, via(randomV4()), i)).status);
    expect(statuses).to.deep.equal([403, 403, 403, 429]);
    await sleep(2100);
  });

  it('when the chosen X-Forwarded-For entry is not an address, then the peer address counts', async () => {
    for (const key of await ctx.redis.keys('wpc:auth-failures:*')) await ctx.redis.del(key);
    const app = await appWith({ authFailureLimit: 2, authFailureWindowSeconds: 2 }, 1);
    const statuses = [];
    for (const entry of ['garbage', '<script>', '1.2.3.4.5']) statuses.push((await guess(app, via(`${randomV4()}, ${entry}`))).status);
    expect(statuses).to.deep.equal([403, 403, 429]);
    await sleep(2100);
  });

  it('when the window of a block ends, then the client is refused with 403 again rather than 429', async () => {
    const app = await appWith({ authFailureLimit: 2, authFailureWindowSeconds: 2 }, 1);
    const client = randomV4();
    await guess(app, via(client));
    await guess(app, via(client));
    expect((await guess(app, via(client))).status).to.equal(429);
    await sleep(2200);
    expect((await guess(app, via(client))).status).to.equal(403);
  });

  it('when failures are counted in Redis, then the counter names carry no client address', async () => {
    const app = await appWith({ authFailureLimit: 100 }, 1);
    const client = randomV4();
    await guess(app, via(client));
    const names = await ctx.redis.keys('wpc:auth-failures:*');
    expect(names.length).to.be.greaterThan(0);
    for (const name of names) {
      expect(name).to.not.include(client);
      expect(name).to.match(/^wpc:auth-failures:[A-Za-z0-9_-]{22}$/);
    }
  });
});
