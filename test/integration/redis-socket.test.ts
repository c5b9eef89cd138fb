import { expect } from 'chai';
import { createRedis } from '../../src/infra/redis.js';
import { startServer } from '../../src/start-server.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { connectEs, createIndexWithDocs, createKey, dropIndicesOf, readyRedis, request, testConfig, uniqueName } from '../support/harness.js';
import { admissionLog } from '../support/admission-log.js';
import { captureLogs } from '../support/log-capture.js';
import { RedisServer } from '../support/redis-server.js';

describe('when REDIS_URL names a Unix socket', function () {
  this.timeout(60_000);
  const es = connectEs();
  const alias = uniqueName('test-socket');
  let server: RedisServer;

  before(async () => {
    await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 5));
    server = await RedisServer.start({ socket: true });
  });

  after(async () => {
    await server.destroy();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('then the server admits keys through it and counts each request once, in the Redis behind that socket', async () => {
    const overTcp = await readyRedis(server.url);
    const api = await startServer(testConfig({ indexAlias: alias, redisUrl: server.socketUrl, port: 0, host: '127.0.0.1', metricsPort: 0 }), {});
    try {
      const key = await createKey(overTcp, 'free');
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await request(api.url, '/v1/wallpapers/1', { key: key.apiKey });
        expect(res.status).to.equal(200);
        remaining.push(res.headers.get('x-ratelimit-remaining'));
      }
      expect(remaining).to.deep.equal(['999', '998', '997']);
      expect((await admissionLog(overTcp, key.accountId)).times).to.have.length(3);
      expect((await request(api.url, '/v1/wallpapers/1', { key: 'not-a-key' })).status).to.equal(403);
    } finally {
      await api.close({ drainMs: 0 });
      overTcp.disconnect();
    }
  });

  it('then a client of it sends its commands by that socket, not by TCP', async () => {
    const bySocket = await readyRedis(server.socketUrl);
    try {
      const id = String(await bySocket.client('ID'));
      const clients = String(await bySocket.client('LIST'));
      const own = clients.split('\n').find((line) => line.startsWith(`id=${id} `));
      // A Unix socket client has no TCP peer: Redis lists its address as "/path:0".
      expect(own, clients).to.match(/ addr=\/[^ ]*redis\.sock:0 /);
    } finally {
      bySocket.disconnect();
    }
  });

  it('then a Redis that asks for a password is signed in to with the one in its query, and refuses a client without it', async () => {
    const guarded = await RedisServer.start({ socket: true });
    const admin = await readyRedis(guarded.url);
    try {
      await admin.config('SET', 'requirepass', 'socket-s3cret');
      const signedIn = createRedis({ url: `${guarded.socketUrl}?password=socket-s3cret`, commandTimeoutMs: 2000 });
      const anonymous = createRedis({ url: guarded.socketUrl, commandTimeoutMs: 2000 });
      const refused = new Promise<unknown>((resolve) => {
        anonymous.once('error', resolve);
        anonymous.once('ready', () => void anonymous.ping().then(resolve, resolve));
      });
      try {
        if (signedIn.status !== 'ready') await new Promise((resolve) => signedIn.once('ready', resolve));
        expect(await signedIn.ping()).to.equal('PONG');
        expect(String(await refused)).to.match(/NOAUTH|Authentication required/i);
      } finally {
        signedIn.disconnect();
        anonymous.disconnect();
      }
    } finally {
      admin.disconnect();
      await guarded.destroy();
    }
  });

  it('then with no Redis on that socket, the server still starts, says why, and a keyed request answers 503 at once rather than hanging', async () => {
    // A key of the right form, kept by another Redis: the API cannot tell it from a real one.
    const elsewhere = await readyRedis(server.url);
    const wellFormed = (await createKey(elsewhere, 'free')).apiKey;
    elsewhere.disconnect();
    const logs = captureLogs('info');
    const missing = `unix:///tmp/${uniqueName('no-redis')}.sock`;
    const api = await startServer(testConfig({ indexAlias: alias, redisUrl: missing, port: 0, host: '127.0.0.1', metricsPort: 0 }), {
      logger: logs.logger,
    });
    try {
      expect(logs.text()).to.include('redis connection error');
      const started = performance.now();
      const res = await request(api.url, '/v1/wallpapers/1', { key: wellFormed });
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ error: 'service_unavailable', status: 503 });
      expect(performance.now() - started).to.be.below(2_000);
    } finally {
      await api.close({ drainMs: 0 });
    }
  });
});
