import { expect } from 'chai';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { generateApiKey } from '../../src/access/api-key.js';
import { createKey, request, startApp } from '../support/harness.js';
import { captureLogs } from '../support/log-capture.js';
import { useCatalogue } from './catalogue-context.js';

const UNAUTHORIZED = { error: 'unauthorized', message: 'No API key provided', status: 401 };
const FORBIDDEN = { error: 'forbidden', message: 'Invalid API key', status: 403 };

describe('authentication', () => {
  const ctx = useCatalogue();
  const endpoints = ['/v1/wallpapers', '/v1/wallpapers/1', '/v1/search?q=aurora'];

  for (const path of endpoints) {
    it(`when ${path} is requested without Authorization, then 401 with the spec's exact body`, async () => {
      const res = await request(ctx.app.url, path);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(UNAUTHORIZED);
      expect(res.headers.get('www-authenticate')).to.equal('Bearer realm="wallpapers"');
    });
  }

  it('when an unknown /v1 path is requested without Authorization, then 404: no route, so nothing to guard or count', async () => {
    const res = await request(ctx.app.url, '/v1/unknown');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ error: 'not_found', status: 404 });
    expect(res.headers.get('x-ratelimit-remaining')).to.equal(null);
  });

  for (const header of ['Bearer', 'Bearer ', 'Bearer    ', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Token abc', '']) {
    it(`when Authorization is '${header}', then 401 No API key provided`, async () => {
      const res = await request(ctx.app.url, '/v1/wallpapers', { headers: { Authorization: header } });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(UNAUTHORIZED);
    });
  }

  it('when the scheme is lower-case bearer, then the key is accepted', async () => {
    const res = await request(ctx.app.url, '/v1/wallpapers', { headers: { Authorization: `bearer ${ctx.key}` } });
    expect(res.status).to.equal(200);
  });

  for (const [label, key] of [
    ['random text', 'not-a-key'],
    ['a well-formed key that was never issued', generateApiKey('AAAAAAAAAAAA')],
  ]) {
    it(`when the key is ${label}, then 403 with the spec's exact body`, async () => {
      const res = await request(ctx.app.url, '/v1/wallpapers', { key });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal(FORBIDDEN);
    });
  }

  it('when an issued key has one character changed, then 403', async () => {
    const tampered = ctx.key.slice(0, 20) + (ctx.key[20] === 'a' ? 'b' : 'a') + ctx.key.slice(21);
    const res = await request(ctx.app.url, '/v1/wallpapers', { key: tampered });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal(FORBIDDEN);
  });

  it('when a key is revoked, then the next request with it is 403', async () => {
    const created = await createKey(ctx.redis, 'premium');
    expect((await request(ctx.app.url, '/v1/wallpapers', { key: created.apiKey })).status).to.equal(200);
    await createKeyStore(ctx.redis).revokeKey(created.keyId);
    const res = await request(ctx.app.url, '/v1/wallpapers', { key: created.apiKey });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal(FORBIDDEN);
  });

  it('when two keys belong to one account, then both authenticate', async () => {
    const first = await createKey(ctx.redis, 'free', 'shared-account-' + Date.now());
    const second = await createKey(ctx.redis, 'free', first.account);
    expect(second.accountId).to.equal(first.accountId);
    for (const key of [first.apiKey, second.apiKey]) {
      expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(200);
    }
  });

  it('when a key is created, then Redis holds only its SHA-256 hash, never the key', async () => {
    const created = await createKey(ctx.redis);
    const secret = created.apiKey;
    let cursor = '0';
    do {
      const [next, keys] = await ctx.redis.scan(cursor, 'MATCH', 'wpc:*', 'COUNT', 1000);
      cursor = next;
      for (const k of keys) {
        expect(k).to.not.include(secret);
        const type = await ctx.redis.type(k);
        const values = type === 'hash' ? Object.entries(await ctx.redis.hgetall(k)).flat() : [];
        for (const v of values) expect(v).to.not.include(secret.slice(17));
      }
    } while (cursor !== '0');
  });

  it('when requests succeed and fail, or carry the key in their path, then no log line contains it', async () => {
    const logs = captureLogs();
    const app = await startApp({ config: ctx.config, es: ctx.es, redis: ctx.redis, logger: logs.logger });
    try {
      await request(app.url, '/v1/wallpapers', { key: ctx.key });
      await request(app.url, '/v1/wallpapers?page=0', { key: ctx.key });
      await request(app.url, '/v1/wallpapers', { key: ctx.key.slice(0, -1) + 'x' });
      // A client that puts its key in the path, by mistake or by a tool's doing.
      await request(app.url, `/v1/wallpapers/${ctx.key}`, { key: ctx.key });
      await request(app.url, `/${ctx.key}/v1/wallpapers`);
      await request(app.url, `/v1/wallpapers/${ctx.key.slice(0, 30)}`, { key: ctx.key });
      await request(app.url, `/v1/wallpapers/%77pc${ctx.key.slice(3, 16)}%5F${ctx.key.slice(17)}`, { key: ctx.key });
      await request(app.url, `/v1/wallpapers/${ctx.key.toUpperCase()}`, { key: ctx.key });
      await request(app.url, `/x/${ctx.key.slice(4)}`);
      await request(app.url, `/x/w%2570c_${ctx.key.slice(4)}`);
      expect(logs.text()).to.not.include(ctx.key.slice(17, 30));
      expect(logs.text()).to.not.include(ctx.key.slice(17, 30).toUpperCase());
      expect(logs.text()).to.include('wpc_[redacted]');
    } finally {
      await app.close();
    }
  });
});
