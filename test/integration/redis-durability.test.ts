import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { connectEs, createIndexWithDocs, dropIndicesOf, readyRedis, request, startApp, testConfig, uniqueName } from '../support/harness.js';
import { RedisServer } from '../support/redis-server.js';

const PROJECT_REDIS_CONF = fileURLToPath(new URL('../../scripts/redis.conf', import.meta.url));

describe('Redis durability with the project redis.conf', function () {
  this.timeout(60_000);
  const es = connectEs();
  const alias = uniqueName('test-durable');
  let server: RedisServer;

  before(async () => {
    await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 3));
    server = await RedisServer.start({ configFile: PROJECT_REDIS_CONF });
  });

  after(async () => {
    await server.destroy();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('when a key is revoked and Redis is killed with SIGKILL at once, then after a restart the key is still revoked and a new key still works', async () => {
    let redis = await readyRedis(server.url);
    const store = createKeyStore(redis);
    const revoked = await store.createKey({ tier: 'free', account: 'durable-a' });
    const kept = await store.createKey({ tier: 'free', account: 'durable-b' });
    const config = testConfig({ indexAlias: alias });
    let app = await startApp({ config, es, redis });
    expect((await request(app.url, '/v1/wallpapers/1', { key: revoked.apiKey })).status).to.equal(200);
    expect(await store.revokeKey(revoked.keyId)).to.include({ already: false });
    expect((await request(app.url, '/v1/wallpapers/1', { key: revoked.apiKey })).status).to.equal(403);
    await app.close();
    redis.disconnect();

    await server.kill();
    await server.start();

    redis = await readyRedis(server.url);
    app = await startApp({ config, es, redis });
    try {
      expect((await request(app.url, '/v1/wallpapers/1', { key: revoked.apiKey })).status).to.equal(403);
      expect((await request(app.url, '/v1/wallpapers/1', { key: kept.apiKey })).status).to.equal(200);
    } finally {
      await app.close();
      redis.disconnect();
    }
  });

  it('when the project configuration is loaded, then Redis keeps an append-only file synced every second and never evicts keys', async () => {
    const redis = await readyRedis(server.url);
    try {
      expect(await redis.config('GET', 'appendonly')).to.deep.equal(['appendonly', 'yes']);
      expect(await redis.config('GET', 'appendfsync')).to.deep.equal(['appendfsync', 'everysec']);
      expect(await redis.config('GET', 'maxmemory-policy')).to.deep.equal(['maxmemory-policy', 'noeviction']);
    } finally {
      redis.disconnect();
    }
  });
});
