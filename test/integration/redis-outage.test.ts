import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { type Metrics, createMetrics } from '../../src/metrics.js';
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function metricValue(metrics: Metrics, name: string): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric?.values ?? []).reduce((sum, v) => sum + Number(v.value), 0);
}

describe('when Redis stops and comes back', function () {
  this.timeout(60_000);
  const es = connectEs();
  const alias = uniqueName('test-outage');
  let server: RedisServer;
  let redis: Redis;
  let app: RunningApp;
  let metrics: Metrics;
  let logs: CapturedLogs;

  before(async () => {
    await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 5));
    server = await RedisServer.start();
    redis = connectRedis(server.url, 300);
    await new Promise((resolve) => redis.once('ready', resolve));
    logs = captureLogs('info');
    metrics = createMetrics();
    app = await startApp({
      config: testConfig({ indexAlias: alias }, { tiers: { free: 1000, premium: 10000 }, authGraceMs: 1000 }),
      es,
      redis,
      logger: logs.logger,
      metrics,
    });
  });

  after(async () => {
    await app.close();
    redis.disconnect();
    await server.destroy();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('then recently verified keys are served by the fallback, others fail closed with 503, never 500, and it recovers', async () => {
    const verified = await createKey(redis, 'free');
    const unverified = await createKey(redis, 'free');
    const first = await request(app.url, '/v1/wallpapers/1', { key: verified.apiKey });
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-ratelimit-remaining')).to.equal('999');

    await server.stop();
    const duringGrace = await request(app.url, '/v1/wallpapers/1', { key: verified.apiKey });
    expect(duringGrace.status).to.equal(200);
    expect(duringGrace.headers.get('x-ratelimit-limit')).to.equal('1000');
    expect(await metricValue(metrics, 'wallpapers_rate_limit_fallback_total')).to.be.at.least(1);
    expect(logs.text()).to.include('falls back to the in-process limiter');

    const neverVerified = await request(app.url, '/v1/wallpapers/1', { key: unverified.apiKey });
    expect(neverVerified.status).to.equal(503);
    expect(neverVerified.body).to.include({ error: 'service_unavailable', status: 503 });

    await sleep(1100);
    const started = Date.now();
    const afterGrace = await request(app.url, '/v1/wallpapers/1', { key: verified.apiKey });
    expect(afterGrace.status).to.equal(503);
    expect(Date.now() - started).to.be.lessThan(2000);
    const noKey = await request(app.url, '/v1/wallpapers/1');
    expect(noKey.status).to.equal(401);
    const badKey = await request(app.url, '/v1/wallpapers/1', { key: 'nonsense' });
    expect(badKey.status).to.equal(403);

    await server.start();
    const deadline = Date.now() + 10_000;
    let recovered: number | undefined;
    while (Date.now() < deadline) {
      const res = await request(app.url, '/v1/wallpapers/1', { key: unverified.apiKey });
      expect(res.status).to.be.oneOf([200, 503]);
      if (res.status === 200) {
        recovered = res.status;
        break;
      }
      await sleep(100);
    }
    expect(recovered).to.equal(200);
    expect(logs.text()).to.include('redis answering again');
    const shared = await request(app.url, '/v1/wallpapers/1', { key: verified.apiKey });
    // The shared counter survived the restart (AOF): one request before the outage, this one now.
    expect(shared.headers.get('x-ratelimit-remaining')).to.equal('998');
  });
});
