import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { type Metrics, createMetrics } from '../../src/infra/metrics.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import {
  type RunningApp,
  connectEs,
  connectRedis,
  createIndexWithDocs,
  createKey,
  dropIndicesOf,
  request,
  startApp,
  testConfig,
  uniqueName,
} from '../support/harness.js';
import { type CapturedLogs, captureLogs } from '../support/log-capture.js';
import { RedisServer } from '../support/redis-server.js';
import { admissionLog } from '../support/admission-log.js';
import { sleep, until } from '../support/until.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { createAccountStore } from '../../src/access/store/account-store.js';

const COMMAND_TIMEOUT_MS = 300;

async function metricValue(metrics: Metrics, name: string): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric?.values ?? []).reduce((sum, v) => sum + Number(v.value), 0);
}

/** Calls the app made to Redis, answered or not: a request that never asked Redis leaves it unchanged. */
async function redisCalls(metrics: Metrics): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'wallpapers_redis_command_duration_seconds');
  return (metric?.values ?? [])
    .filter((v) => (v as { metricName?: string }).metricName?.endsWith('_count'))
    .reduce((sum, v) => sum + Number(v.value), 0);
}

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

describe('when Redis fails', function () {
  this.timeout(60_000);
  const es = connectEs();
  const alias = uniqueName('test-outage');
  let server: RedisServer;
  let redis: Redis;
  // The test's own calls (keys, the admission log) on a client of their own: the app's short command
  // timeout is what is under test, and a loaded machine would fail the setup on it.
  let setup: Redis;
  let app: RunningApp;
  let metrics: Metrics;
  let logs: CapturedLogs;

  before(async () => {
    await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 5));
  });

  beforeEach(async () => {
    server = await RedisServer.start();
    redis = connectRedis(server.url, COMMAND_TIMEOUT_MS);
    setup = connectRedis(server.url);
    await Promise.all([redis, setup].map((client) => new Promise((resolve) => client.once('ready', resolve))));
    logs = captureLogs('info');
    metrics = createMetrics();
    app = await startApp({
      config: testConfig(
        { indexAlias: alias, redisBreaker: { failureThreshold: 3, openMs: 400 } },
        { tiers: { free: 1000, premium: 10000, tiny: 3 }, authGraceMs: 500 },
      ),
      es,
      redis,
      logger: logs.logger,
      metrics,
    });
  });

  afterEach(async () => {
    await app.close();
    redis.disconnect();
    setup.disconnect();
    await server.destroy();
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
  });

  const get = (key?: string) => request(app.url, '/v1/wallpapers/1', { key });

  it('when it is stopped, then keys verified just before are served by the fallback, a key verified long before or never fails closed with 503, and it recovers', async () => {
    const stale = await createKey(setup, 'free');
    expect((await get(stale.apiKey)).status).to.equal(200);
    await sleep(700);
    const verified = await createKey(setup, 'free');
    const unverified = await createKey(setup, 'free');
    const first = await get(verified.apiKey);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-ratelimit-remaining')).to.equal('999');

    await server.stop();
    const fallback = await get(verified.apiKey);
    expect(fallback.status).to.equal(200);
    expect(fallback.headers.get('x-ratelimit-limit')).to.equal('1000');
    expect(await metricValue(metrics, 'wallpapers_rate_limit_fallback_total')).to.be.at.least(1);
    expect(logs.text()).to.include('falls back to the in-process limiter');
    // Time passing during the outage does not expire the grace: it is counted back from Redis's last answer.
    await sleep(700);
    expect((await get(verified.apiKey)).status).to.equal(200);

    for (const key of [stale.apiKey, unverified.apiKey]) {
      const refused = await get(key);
      expect(refused.status).to.equal(503);
      expect(refused.body).to.include({ error: 'service_unavailable', status: 503 });
    }
    expect((await get()).status).to.equal(401);
    expect((await get('nonsense')).status).to.equal(403);

    await server.start();
    expect(await until(async () => (await get(unverified.apiKey)).status === 200, 10_000)).to.equal(true);
    expect(logs.text()).to.include('redis answering again');
    // The shared counter survived the restart (AOF), and the two requests the fallback admitted
    // during the outage are charged to it in the background once Redis answers: one before, two
    // during, then this one.
    expect(await until(async () => (await admissionLog(setup, verified.accountId)).times.length === 3)).to.equal(true);
    expect((await get(verified.apiKey)).headers.get('x-ratelimit-remaining')).to.equal('996');
  });

  it('when keys it served are revoked, rotated out or their account disabled, and it then stops, then the fallback refuses them with 503 within a second of the change, and serves the rest', async function () {
    this.timeout(30_000);
    // A grace of a minute, as in production: without the withdrawal log every key here would be
    // admitted on this process's word.
    const client = connectRedis(server.url, COMMAND_TIMEOUT_MS);
    await new Promise((resolve) => client.once('ready', resolve));
    const patient = await startApp({
      config: testConfig(
        { indexAlias: alias, redisBreaker: { failureThreshold: 3, openMs: 400 } },
        { tiers: { free: 1000, premium: 10000 }, authGraceMs: 60_000 },
      ),
      es,
      redis: client,
      logger: logs.logger,
      metrics: createMetrics(),
    });
    try {
      const ask = (key: string) => request(patient.url, '/v1/wallpapers/1', { key });
      const keys = createKeyStore(setup);
      const kept = await createKey(setup, 'free');
      const revoked = await createKey(setup, 'free');
      const rotated = await createKey(setup, 'free');
      const retiring = await createKey(setup, 'free');
      const disabledAccount = uniqueName('acct');
      const disabled = await createKey(setup, 'free', disabledAccount);
      for (const key of [kept, revoked, rotated, retiring, disabled]) expect((await ask(key.apiKey)).status).to.equal(200);

      await keys.revokeKey(revoked.keyId);
      expect(await keys.rotateAccountKey(rotated.accountId, rotated.keyId, 0)).to.not.equal(null);
      const rotatedWithGraceAt = Date.now();
      expect(await keys.rotateAccountKey(retiring.accountId, retiring.keyId, 8)).to.not.equal(null);
      expect(await createAccountStore(setup).setDisabled({ name: disabledAccount }, true)).to.equal('done');
      await sleep(1_500);
      // Redis answered the kept key last: every verification above is well within the grace.
      expect((await ask(kept.apiKey)).status).to.equal(200);

      await server.stop();
      for (const key of [revoked, rotated, disabled]) expect((await ask(key.apiKey)).status, key.keyId).to.equal(503);
      expect((await ask(kept.apiKey)).status).to.equal(200);
      // Rotated with a grace of 8 s: served by the fallback until it ends (heard of up to a second
      // late), refused after.
      expect(Date.now() - rotatedWithGraceAt, 'still within the grace').to.be.below(7_000);
      expect((await ask(retiring.apiKey)).status).to.equal(200);
      await sleep(Math.max(0, rotatedWithGraceAt + 8_000 + 1_500 - Date.now()));
      expect((await ask(retiring.apiKey)).status).to.equal(503);
      expect((await ask(kept.apiKey)).status).to.equal(200);
    } finally {
      await patient.close();
      client.disconnect();
    }
  });

  it('when it stops while an account has little quota left, then the fallback admits only what Redis last said remained, and charges it once Redis is back', async () => {
    const { apiKey, accountId } = await createKey(setup, 'tiny');
    const other = await createKey(setup, 'free');
    expect((await get(apiKey)).status).to.equal(200);
    expect((await get(apiKey)).headers.get('x-ratelimit-remaining')).to.equal('1');
    await server.stop();
    const during = [await get(apiKey), await get(apiKey), await get(apiKey)];
    expect(during.map((r) => r.status)).to.deep.equal([200, 429, 429]);
    expect(during[0]!.headers.get('x-ratelimit-remaining')).to.equal('0');
    expect(Number(during[1]!.headers.get('retry-after'))).to.be.greaterThan(0);

    // Once Redis answers (here, for another key), the fallback's admission is charged to the
    // account: the window holds all three, so the key stays limited instead of getting one more.
    await server.start();
    expect(await until(async () => (await get(other.apiKey)).status === 200, 10_000)).to.equal(true);
    expect(await until(async () => (await admissionLog(setup, accountId)).times.length === 3)).to.equal(true);
    expect((await get(apiKey)).status).to.equal(429);
  });

  it('when it hangs (SIGSTOP), then known keys wait no longer than the admission deadline, the breaker opens after a few timeouts, and when it wakes it closes', async () => {
    const verified = await createKey(setup, 'free');
    const unverified = await createKey(setup, 'free');
    expect((await get(verified.apiKey)).status).to.equal(200);

    server.pause();
    // A verified key waits for Redis no longer than the admission deadline (100 ms at first),
    // below the command timeout; the calls behind them time out and open the breaker.
    const together = await timed(() => Promise.all(Array.from({ length: 20 }, () => get(verified.apiKey))));
    expect(together.value.map((r) => r.status)).to.deep.equal(Array(20).fill(200));
    expect(together.ms).to.be.lessThan(COMMAND_TIMEOUT_MS);
    expect(await until(async () => (await metricValue(metrics, 'wallpapers_redis_circuit_open')) === 1, 3000)).to.equal(true);
    expect(logs.text()).to.include('redis circuit open');

    // The breaker is open: nobody waits for Redis any more, because nobody asks it. Calls made before it
    // opened still end after it, each by its own timeout; the count starts once a timeout's length has
    // passed with none ending (on a loaded machine they end spread out).
    let callsWhenOpened = await redisCalls(metrics);
    const settled = await until(async () => {
      await sleep(COMMAND_TIMEOUT_MS);
      const calls = await redisCalls(metrics);
      const steady = calls === callsWhenOpened;
      callsWhenOpened = calls;
      return steady;
    }, 10_000);
    expect(settled, 'calls made before the breaker opened have ended').to.equal(true);
    expect(await metricValue(metrics, 'wallpapers_redis_circuit_open'), 'the breaker is still open').to.equal(1);
    for (let i = 0; i < 10; i++) expect((await get(verified.apiKey)).status).to.equal(200);
    const refused = await get(unverified.apiKey);
    expect(refused.status).to.equal(503);
    expect(await redisCalls(metrics), 'Redis calls while the breaker is open').to.equal(callsWhenOpened);

    server.resume();
    expect(await until(async () => (await metricValue(metrics, 'wallpapers_redis_circuit_open')) === 0, 5000)).to.equal(true);
    expect(logs.text()).to.include('redis circuit closed');
    const back = await get(unverified.apiKey);
    expect(back.status).to.equal(200);
    expect(back.headers.get('x-ratelimit-remaining')).to.equal('999');
  });

  it('when it hangs (SIGSTOP), then GET /v1/usage answers 503 without waiting past the command timeout, at once when the breaker is open, and reads again when it wakes', async () => {
    const { apiKey } = await createKey(setup, 'free');
    const usage = () => request(app.url, '/v1/usage', { key: apiKey });
    expect((await usage()).status).to.equal(200);

    server.pause();
    // Bounded by the command timeout (a read with none would wait until the harness gives up).
    const failuresBefore = await metricValue(metrics, 'wallpapers_redis_failures_total');
    const first = await timed(usage);
    expect(first.value.status).to.equal(503);
    expect(first.value.body.message).to.equal('Usage is temporarily unavailable, please retry shortly');
    expect(await metricValue(metrics, 'wallpapers_redis_failures_total'), 'the read timed out').to.equal(failuresBefore + 1);
    expect(first.ms).to.be.lessThan(10 * COMMAND_TIMEOUT_MS);
    await Promise.all(Array.from({ length: 3 }, () => usage()));
    expect(await metricValue(metrics, 'wallpapers_redis_circuit_open')).to.equal(1);
    const callsWhenOpened = await redisCalls(metrics);
    const open = await usage();
    expect(open.status).to.equal(503);
    expect(await redisCalls(metrics), 'Redis calls while the breaker is open').to.equal(callsWhenOpened);

    server.resume();
    expect(await until(async () => (await usage()).status === 200, 5000)).to.equal(true);
  });
});
