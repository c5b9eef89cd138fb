import { expect } from 'chai';
import type { Redis } from 'ioredis';
import type { Config } from '../../src/config.js';
import { createKeyStore } from '../../src/keys/key-store.js';
import { rateLimitKey } from '../../src/keys/redis-keys.js';
import { AUTHENTICATE_LUA, locateKey } from '../../src/keys/authenticate-key.js';
import { PREVIOUS_SLIDING_WINDOW_LUA } from '../support/previous-sliding-window-lua.js';
import { type RunningApp, type TestResponse, createKey, request, startApp, testConfig } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const HEADER_NAMES = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit'];

/** The sum of the account's bucket counts; checks that the kept total (-1) and oldest bucket (-2) agree with them. */
async function countedInRedis(redis: Redis, accountId: string): Promise<number> {
  const { '-1': total, '-2': oldest, ...buckets } = await redis.hgetall(rateLimitKey(accountId));
  const counted = Object.values(buckets).reduce((sum, n) => sum + Number(n), 0);
  expect(Object.keys(buckets).every((bucket) => /^\d+$/.test(bucket)), 'only bucket fields besides -1 and -2').to.equal(true);
  if (counted > 0) {
    expect(Number(total), 'the kept total equals the sum of the buckets').to.equal(counted);
    expect(Number(oldest), 'the oldest bucket present').to.equal(Math.min(...Object.keys(buckets).map(Number)));
  }
  return counted;
}

async function redisNowMs(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function parseRateLimit(res: TestResponse) {
  const policy = /^"([a-z0-9_-]+)";q=(\d+);w=(\d+)$/.exec(res.headers.get('ratelimit-policy') ?? '');
  const current = /^"([a-z0-9_-]+)";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
  expect(policy, 'RateLimit-Policy syntax').to.not.equal(null);
  expect(current, 'RateLimit syntax').to.not.equal(null);
  return {
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    reset: Number(res.headers.get('x-ratelimit-reset')),
    policy: { tier: policy![1], q: Number(policy![2]), w: Number(policy![3]) },
    current: { tier: current![1], r: Number(current![2]), t: Number(current![3]) },
  };
}

function expectConsistentHeaders(res: TestResponse, tier: string, limit: number, windowSeconds: number) {
  const h = parseRateLimit(res);
  expect(h.limit).to.equal(limit);
  expect(h.policy).to.deep.equal({ tier, q: limit, w: windowSeconds });
  expect(h.current.tier).to.equal(tier);
  expect(h.current.r).to.equal(h.remaining);
  expect(h.current.t).to.be.within(1, windowSeconds * 2);
  expect(Math.abs(h.reset - (Date.now() / 1000 + h.current.t))).to.be.at.most(2);
  return h;
}

describe('rate limiting', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();
  const apps: RunningApp[] = [];

  async function appWith(rateLimit: Partial<Config['rateLimit']>, overrides: Partial<Config> = {}): Promise<RunningApp> {
    const app = await startApp({
      config: testConfig({ ...overrides, indexAlias: ctx.alias }, rateLimit),
      es: ctx.es,
      redis: ctx.redis,
    });
    apps.push(app);
    return app;
  }

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function burst(app: RunningApp, key: string, n: number, path = '/v1/wallpapers/1') {
    return Promise.all(Array.from({ length: n }, () => request(app.url, path, { key })));
  }

  for (const [tier, limit] of [
    ['free', 100],
    ['premium', 400],
  ] as const) {
    it(`when limit + 50 requests of a ${tier} key arrive at once, then exactly ${limit} succeed and 50 get 429`, async () => {
      const app = await appWith({ tiers: { free: 100, premium: 400 } });
      const { apiKey, accountId } = await createKey(ctx.redis, tier);
      const responses = await burst(app, apiKey, limit + 50);
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(limit);
      expect(statuses.filter((s) => s === 429)).to.have.length(50);
      expect(await countedInRedis(ctx.redis, accountId)).to.equal(limit);
    });
  }

  it('when 1,050 requests of a key on the real free tier (1,000/hour) arrive at once, then exactly 1,000 succeed', async function () {
    this.timeout(120_000);
    const app = await appWith({ tiers: { free: 1000, premium: 10000 }, windowSeconds: 3600 });
    const { apiKey } = await createKey(ctx.redis, 'free');
    const statuses = (await burst(app, apiKey, 1050)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(1000);
    expect(statuses.filter((s) => s === 429)).to.have.length(50);
  });

  it('when the quota is spent late in a window, then the start of the next window does not refill it', async function () {
    this.timeout(30_000);
    const windowSeconds = 3;
    const app = await appWith({ tiers: { free: 5, premium: 50 }, windowSeconds, buckets: 30 });
    const { apiKey } = await createKey(ctx.redis, 'free');
    const windowMs = windowSeconds * 1000;
    // Spend the quota 2.2 s into a fixed 3 s window (by Redis's clock).
    const now = await redisNowMs(ctx.redis);
    const intoWindow = now % windowMs;
    await sleep((2200 - intoWindow + windowMs) % windowMs);
    const spentAt = await redisNowMs(ctx.redis);
    for (let i = 0; i < 5; i++) expect((await request(app.url, '/v1/wallpapers/1', { key: apiKey })).status).to.equal(200);
    expect((await request(app.url, '/v1/wallpapers/1', { key: apiKey })).status).to.equal(429);
    // Just past the fixed boundary, a fixed-window limiter would have a fresh quota; this one does not.
    await sleep(windowMs - (spentAt % windowMs) + 200);
    const atBoundary = await request(app.url, '/v1/wallpapers/1', { key: apiKey });
    expect(atBoundary.status).to.equal(429);
    const retryAfter = Number(atBoundary.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, windowSeconds + 1);
    // Once the spent requests have left the sliding window (plus one 100 ms bucket), capacity is back.
    const waitMs = spentAt + windowMs + 100 + 400 - (await redisNowMs(ctx.redis));
    await sleep(Math.max(0, waitMs));
    expect((await request(app.url, '/v1/wallpapers/1', { key: apiKey })).status).to.equal(200);
  });

  it('when requests keep coming while buckets leave the window, then the kept total stays exact and old buckets are deleted', async function () {
    this.timeout(30_000);
    // 2 s window of 20 buckets of 100 ms; the limit is never reached, so every request is counted.
    const app = await appWith({ tiers: { free: 1000, premium: 10000 }, windowSeconds: 2, buckets: 20 });
    const { apiKey, accountId } = await createKey(ctx.redis, 'free');
    const sent: number[] = [];
    const until = Date.now() + 4500;
    while (Date.now() < until) {
      const res = await request(app.url, '/v1/wallpapers/1', { key: apiKey });
      expect(res.status).to.equal(200);
      sent.push(await redisNowMs(ctx.redis));
      const counted = await countedInRedis(ctx.redis, accountId);
      expect(Number(res.headers.get('x-ratelimit-remaining')), 'remaining = limit - counted').to.equal(1000 - counted);
      const buckets = Object.keys(await ctx.redis.hgetall(rateLimitKey(accountId))).filter((field) => /^\d+$/.test(field)).map(Number);
      const oldestAllowed = Math.floor(sent.at(-1)! / 100) - 20 - 1;
      expect(Math.min(...buckets), 'no bucket older than the window survives a request').to.be.at.least(oldestAllowed);
      await sleep(15);
    }
    // Well past the first window: early requests must have left the count.
    expect(await countedInRedis(ctx.redis, accountId)).to.be.lessThan(sent.length);
  });

  it('when the previous version of the script shares an account (rolling deploy, rollback), then neither fails and the count stays exact', async () => {
    const tiers = { free: 100, premium: 1000 };
    const app = await appWith({ tiers });
    const { apiKey, accountId } = await createKey(ctx.redis, 'free');
    const location = locateKey(apiKey)!;
    const previous = (): Promise<unknown[]> =>
      ctx.redis.eval(
        AUTHENTICATE_LUA + PREVIOUS_SLIDING_WINDOW_LUA,
        3,
        location.keyRecord,
        location.account,
        rateLimitKey(accountId),
        3_600_000,
        60,
        'free',
        100,
        'premium',
        1000,
      ) as Promise<unknown[]>;
    for (let i = 0; i < 3; i++) expect((await request(app.url, '/v1/wallpapers/1', { key: apiKey })).status).to.equal(200);
    for (let i = 0; i < 2; i++) expect((await previous())[0], 'the previous script admits').to.equal(1);
    expect((await previous())[4], 'the previous script counts 3 + 3').to.equal(100 - 6);
    const next = await request(app.url, '/v1/wallpapers/1', { key: apiKey });
    expect(Number(next.headers.get('x-ratelimit-remaining')), 'this version counts 3 + 3 + 1').to.equal(100 - 7);
    expect(await countedInRedis(ctx.redis, accountId)).to.equal(7);
  });

  it('when two keys belong to one account, then they share its quota and another account is unaffected', async () => {
    const app = await appWith({ tiers: { free: 6, premium: 60 } });
    const first = await createKey(ctx.redis, 'free');
    const second = await createKey(ctx.redis, 'free', first.account);
    const other = await createKey(ctx.redis, 'free');
    const a = await burst(app, first.apiKey, 4);
    const b = await burst(app, second.apiKey, 4);
    const statuses = [...a, ...b].map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(6);
    expect(statuses.filter((s) => s === 429)).to.have.length(2);
    const res = await request(app.url, '/v1/wallpapers/1', { key: other.apiKey });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal('5');
  });

  it('when requests succeed or fail with 400 and 404, then every response carries consistent headers that count down', async () => {
    const app = await appWith({ tiers: { free: 4, premium: 40 }, windowSeconds: 600 });
    const { apiKey } = await createKey(ctx.redis, 'free');
    const seen = [];
    for (const [path, status] of [
      ['/v1/wallpapers', 200],
      ['/v1/wallpapers?page=0', 400],
      ['/v1/wallpapers/999999', 404],
      ['/v1/search?q=', 400],
    ] as const) {
      const res = await request(app.url, path, { key: apiKey });
      expect(res.status).to.equal(status);
      seen.push(expectConsistentHeaders(res, 'free', 4, 600).remaining);
    }
    expect(seen).to.deep.equal([3, 2, 1, 0]);
  });

  it('when over the limit, then 429 has the error body, Retry-After equal to the reset delay, and the headers', async () => {
    const app = await appWith({ tiers: { free: 2, premium: 20 }, windowSeconds: 600 });
    const { apiKey, accountId } = await createKey(ctx.redis, 'free');
    await burst(app, apiKey, 2);
    for (let i = 0; i < 5; i++) {
      const res = await request(app.url, '/v1/search?q=aurora', { key: apiKey });
      expect(res.status).to.equal(429);
      expect(res.body.error).to.equal('rate_limit_exceeded');
      expect(res.body.status).to.equal(429);
      expect(res.body.message).to.match(/^Rate limit exceeded\. Please try again in \d+ (seconds?|minutes)$/);
      const h = expectConsistentHeaders(res, 'free', 2, 600);
      expect(h.remaining).to.equal(0);
      expect(Number(res.headers.get('retry-after'))).to.equal(h.current.t);
      expect(res.body.message).to.include(h.current.t >= 120 ? `${Math.ceil(h.current.t / 60)} minutes` : `${h.current.t} second`);
    }
    // 429s are not counted: the account's counter still holds exactly the two admitted requests.
    expect(await countedInRedis(ctx.redis, accountId)).to.equal(2);
  });

  it('when authentication fails with 401 or 403, then no rate-limit headers are sent and nothing is counted', async () => {
    const app = await appWith({ tiers: { free: 3, premium: 30 } });
    const live = await createKey(ctx.redis, 'free');
    const revoked = await createKey(ctx.redis, 'free', live.account);
    await createKeyStore(ctx.redis).revokeKey(revoked.keyId);
    const failures = [
      await request(app.url, '/v1/wallpapers'),
      await request(app.url, '/v1/wallpapers', { key: 'nonsense' }),
      await request(app.url, '/v1/wallpapers', { key: revoked.apiKey }),
      await request(app.url, '/v1/wallpapers', { key: revoked.apiKey }),
    ];
    expect(failures.map((r) => r.status)).to.deep.equal([401, 403, 403, 403]);
    for (const res of failures) for (const name of HEADER_NAMES) expect(res.headers.has(name), name).to.equal(false);
    expect(await countedInRedis(ctx.redis, live.accountId)).to.equal(0);
    const ok = await request(app.url, '/v1/wallpapers/1', { key: live.apiKey });
    expect(ok.headers.get('x-ratelimit-remaining')).to.equal('2');
  });

  it('when requests are served, then authentication and the rate-limit decision cost one Redis round trip each', async () => {
    const app = await appWith({ tiers: { free: 100, premium: 1000 } });
    const { apiKey, accountId } = await createKey(ctx.redis, 'free');
    await request(app.url, '/v1/wallpapers/1', { key: apiKey });
    const observer = ctx.redis.duplicate();
    const monitor = await observer.monitor();
    const commands: { source: string; args: string[] }[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => commands.push({ source, args }));
    await sleep(100);
    const n = 25;
    for (let i = 0; i < n; i++) await request(app.url, `/v1/wallpapers?per_page=1&page=${i + 1}`, { key: apiKey });
    await sleep(200);
    monitor.disconnect();
    observer.disconnect();
    // MONITOR sees every client of the server; only this account's commands count.
    const ours = commands.filter((c) => c.source !== 'lua' && c.args.some((a) => a.includes(`{${accountId}}:key:`)));
    expect(ours).to.have.length(n);
    expect(new Set(ours.map((c) => c.args[0]!.toLowerCase()))).to.deep.equal(new Set(['evalsha']));
    const fromAppConnection = commands.filter((c) => c.source !== 'lua' && c.source === ours[0]!.source);
    expect(fromAppConnection).to.have.length(n);
  });
});
