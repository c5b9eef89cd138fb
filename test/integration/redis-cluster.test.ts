import { expect } from 'chai';
import { Cluster, Redis } from 'ioredis';
import { createAdmissionStore } from '../../src/access/store/admission-store.js';
import { locateKey } from '../../src/access/store/authenticate-lua.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { createWithdrawalLog } from '../../src/access/store/withdrawal-log.js';
import { createAccountStore } from '../../src/access/store/account-store.js';
import { createRedis } from '../../src/infra/redis.js';
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
    expect(await store.revokeKey(first.keyId)).to.include({ already: false });
  });

  it('when keys are revoked and rotated out and an account disabled and enabled, then the withdrawal log records each, read back on the cluster in order', async () => {
    const store = createKeyStore(cluster);
    const log = createWithdrawalLog(cluster);
    let after = '0-0';
    for (let read = await log.readAfter(after); read.last !== after; read = await log.readAfter(after)) after = read.last;
    const revoked = await store.createKey({ tier: 'free', account: 'cluster-d' });
    const rotated = await store.createKey({ tier: 'free', account: 'cluster-d' });
    await store.revokeKey(revoked.keyId);
    const rotation = await store.rotateAccountKey(rotated.accountId, rotated.keyId, 60);
    const accounts = createAccountStore(cluster);
    expect(await accounts.setDisabled({ name: 'cluster-d' }, true)).to.equal('done');
    expect(await accounts.setDisabled({ name: 'cluster-d' }, false)).to.equal('done');
    const { withdrawals } = await log.readAfter(after);
    expect(withdrawals.map((w) => [w.kind, w.kind === 'key' ? w.hash : w.accountId])).to.deep.equal([
      ['key', locateKey(revoked.apiKey)!.hash],
      ['key', locateKey(rotated.apiKey)!.hash],
      ['account', revoked.accountId],
      ['account-restored', revoked.accountId],
    ]);
    expect(withdrawals.map((w) => (w.kind === 'key' ? w.fromMs : null))).to.deep.equal([0, Date.parse(rotation!.expiresAt), null, null]);
    expect(await log.oldest()).to.not.equal(null);
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

const ready = async (client: { status: string; once(event: 'ready', listener: () => void): unknown }) => {
  if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', resolve));
};

/** Every write so far is on the replica (before the master is made to hang). */
async function inSync(master: RedisServer): Promise<void> {
  const direct = new Redis(master.port, '127.0.0.1');
  try {
    expect(await direct.call('WAIT', '1', '2000')).to.equal(1);
  } finally {
    direct.disconnect();
  }
}

describe('on Redis Cluster, when the master of a key`s slot hangs', function () {
  this.timeout(60_000);
  const es = connectEs();
  const alias = uniqueName('test-replica');
  let master: RedisServer;
  let replica: RedisServer;

  before(async () => {
    await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 3));
    master = await RedisServer.start({ cluster: true });
    replica = await RedisServer.start({ replicaOf: master });
  });

  after(async () => {
    await replica.destroy();
    await master.destroy();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('when a key is verified with its master hung, then the replica answers: its id and tier, or unknown once revoked', async () => {
    const seeds = `${master.url},${replica.url}`;
    const client = createRedis({ url: seeds, commandTimeoutMs: 1000 });
    client.on('error', () => undefined);
    try {
      await ready(client);
      const keys = createKeyStore(client);
      const live = await keys.createKey({ tier: 'premium', account: 'replica-verify' });
      const revoked = await keys.createKey({ tier: 'free', account: 'replica-verify-revoked' });
      await keys.revokeKey(revoked.keyId);
      await inSync(master);
      const store = createAdmissionStore(client, { windowMs: 3_600_000, tiers: { free: 5, premium: 30 } });
      master.pause();
      expect(await store.verifyOnAnyCopy(locateKey(live.apiKey)!)).to.deep.equal([1, live.keyId, 'premium']);
      expect(await store.verifyOnAnyCopy(locateKey(revoked.apiKey)!)).to.deep.equal([0]);
    } finally {
      master.resume();
      client.disconnect();
    }
  });

  it('when a key this process never saw arrives, then the replica verifies it, the fallback admits it, and it is charged once the master wakes', async () => {
    const seeds = `${master.url},${replica.url}`;
    const admin = createRedis({ url: seeds, commandTimeoutMs: 2000 });
    const api = createRedis({ url: seeds, commandTimeoutMs: 1000 });
    admin.on('error', () => undefined);
    api.on('error', () => undefined);
    const store = createKeyStore(admin);
    await ready(admin);
    const live = await store.createKey({ tier: 'free', account: 'replica-live' });
    const revoked = await store.createKey({ tier: 'free', account: 'replica-revoked' });
    await store.revokeKey(revoked.keyId);
    await inSync(master);
    const app = await startApp({ config: testConfig({ indexAlias: alias }, { tiers: { free: 5, premium: 30 } }), es, redis: api });
    try {
      await ready(api);
      master.pause();
      const started = Date.now();
      const during = await request(app.url, '/v1/wallpapers/1', { key: live.apiKey });
      expect(during.status).to.equal(200);
      expect(Date.now() - started).to.be.below(1000);
      master.resume();
      const after = await request(app.url, '/v1/wallpapers/1', { key: live.apiKey });
      expect(after.status).to.equal(200);
      // The one admitted while the master hung was charged by the master as it woke (its answer
      // came within the command timeout, so nothing was owed): 2 of 5.
      expect(after.headers.get('x-ratelimit-remaining')).to.equal('3');
      master.pause();
      const refused = await request(app.url, '/v1/wallpapers/1', { key: revoked.apiKey });
      expect(refused.status).to.equal(503);
      expect(refused.body.message).to.match(/^Authentication is temporarily unavailable/);
    } finally {
      master.resume();
      await app.close();
      admin.disconnect();
      api.disconnect();
    }
  });
});
