import { expect } from 'chai';
import { Cluster } from 'ioredis';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { connectEs, createIndexWithDocs, dropIndicesOf, request, startApp, testConfig, uniqueName } from '../support/harness.js';
import { RedisServer } from '../support/redis-server.js';

describe('on Redis Cluster', function () {
  this.timeout(60_000);
  const es = connectEs();
  const alias = uniqueName('test-cluster');
  let server: RedisServer;
  let cluster: Cluster;

  before(async () => {
    await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 3));
    server = await RedisServer.start({ cluster: true });
    cluster = new Cluster([{ host: '127.0.0.1', port: server.port }], { redisOptions: { commandTimeout: 2000 }, enableOfflineQueue: true });
    await new Promise((resolve) => cluster.once('ready', resolve));
  });

  after(async () => {
    cluster.disconnect();
    await server.destroy();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('when keys are created, listed and revoked, then no command spans slots', async () => {
    const store = createKeyStore(cluster);
    const first = await store.createKey({ tier: 'free', account: 'cluster-a' });
    const second = await store.createKey({ tier: 'free', account: 'cluster-a' });
    expect(second.accountId).to.equal(first.accountId);
    expect((await store.listKeys()).map((k) => k.key_id)).to.include.members([first.keyId, second.keyId]);
    expect(await store.revokeKey(first.keyId)).to.equal(true);
  });

  it('when the API admits requests, then authentication and the rate limit run as one script in one slot', async () => {
    const store = createKeyStore(cluster);
    const live = await store.createKey({ tier: 'free', account: 'cluster-b' });
    const revoked = await store.createKey({ tier: 'free', account: 'cluster-c' });
    await store.revokeKey(revoked.keyId);
    const app = await startApp({ config: testConfig({ indexAlias: alias }, { tiers: { free: 3, premium: 30 } }), es, redis: cluster });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(app.url, '/v1/wallpapers/1', { key: live.apiKey })).status);
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      expect((await request(app.url, '/v1/wallpapers/1', { key: revoked.apiKey })).status).to.equal(403);
      expect((await request(app.url, '/v1/wallpapers/1', { key: 'guess' })).status).to.equal(403);
      expect((await request(app.url, '/readyz')).body.checks.redis).to.equal('ok');
    } finally {
      await app.close();
    }
  });
});
