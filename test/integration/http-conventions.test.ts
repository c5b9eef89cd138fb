import { expect } from 'chai';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request, startApp } from '../support/harness.js';
import { captureLogs } from '../support/log-capture.js';
import { useCatalogue } from './catalogue-context.js';

function raw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('HTTP conventions', () => {
  const ctx = useCatalogue();
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => request(ctx.app.url, path, { key: ctx.key, headers, method });

  it('when any kind of response is sent, then it carries X-Content-Type-Options: nosniff', async () => {
    const responses = [
      await get('/v1/wallpapers'),
      await get('/v1/wallpapers?page=0'),
      await request(ctx.app.url, '/v1/wallpapers'),
      await request(ctx.app.url, '/nowhere', { contract: false }),
      await request(ctx.app.url, '/healthz'),
      await request(ctx.app.url, '/v1/openapi.json'),
      await request(ctx.app.url, '/docs', { contract: false }),
    ];
    for (const res of responses) expect(res.headers.get('x-content-type-options'), String(res.status)).to.equal('nosniff');
  });

  it('when a route without a key is sent a parameter it does not take, then 400 names it (the reference page, for browsers, ignores them)', async () => {
    for (const path of ['/healthz', '/readyz', '/v1/openapi.json']) {
      const res = await request(ctx.app.url, `${path}?x=1`);
      expect(res.status, path).to.equal(400);
      expect(res.body, path).to.deep.equal({ error: 'invalid_request', message: "Unknown query parameter 'x' (allowed: none)", status: 400 });
    }
    expect((await request(ctx.app.url, '/docs?utm_source=newsletter', { contract: false })).status).to.equal(200);
  });

  describe('ETag and conditional requests', () => {
    for (const path of ['/v1/wallpapers?per_page=5', '/v1/wallpapers/7', '/v1/search?q=aurora']) {
      it(`when ${path} is fetched again with its ETag, then 304 without a body, keeping the headers`, async () => {
        const first = await get(path);
        const etag = first.headers.get('etag')!;
        expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
        const again = await get(path, { 'If-None-Match': etag });
        expect(again.status).to.equal(304);
        expect(again.text).to.equal('');
        expect(again.headers.get('etag')).to.equal(etag);
        expect(again.headers.get('cache-control')).to.equal('private, max-age=60');
        expect(again.headers.get('x-request-id')).to.be.a('string');
        expect(Number(again.headers.get('x-ratelimit-remaining'))).to.equal(Number(first.headers.get('x-ratelimit-remaining')) - 1);
      });
    }

    it('when If-None-Match lists several tags or the weak form, then a match still gives 304', async () => {
      const etag = (await get('/v1/wallpapers')).headers.get('etag')!;
      expect((await get('/v1/wallpapers', { 'If-None-Match': `"nope", W/${etag}` })).status).to.equal(304);
      expect((await get('/v1/wallpapers', { 'If-None-Match': '*' })).status).to.equal(304);
    });

    it('when the representation differs, then so does the ETag, and a stale tag gets 200', async () => {
      const one = await get('/v1/wallpapers?page=1');
      const two = await get('/v1/wallpapers?page=2');
      expect(one.headers.get('etag')).to.not.equal(two.headers.get('etag'));
      const stale = await get('/v1/wallpapers?page=2', { 'If-None-Match': one.headers.get('etag')! });
      expect(stale.status).to.equal(200);
      expect(stale.body.data).to.have.length(20);
    });

    it('when the OpenAPI document is fetched again with its ETag, then 304, as its contract says', async () => {
      const first = await request(ctx.app.url, '/v1/openapi.json');
      const etag = first.headers.get('etag')!;
      expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
      const again = await request(ctx.app.url, '/v1/openapi.json', { headers: { 'If-None-Match': etag } });
      expect(again.status).to.equal(304);
      expect(again.headers.get('cache-control')).to.equal('public, max-age=300');
    });

    it('when a no-store answer (usage, health) is asked with If-None-Match: *, then it is answered in full, with no ETag', async () => {
      for (const res of [
        await get('/v1/usage', { 'If-None-Match': '*' }),
        await request(ctx.app.url, '/healthz', { headers: { 'If-None-Match': '*' } }),
      ]) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('cache-control')).to.equal('no-store');
        expect(res.headers.get('etag')).to.equal(null);
        expect(res.body).to.be.an('object');
      }
    });

    it('when a request fails, then it has no ETag and Cache-Control is no-store', async () => {
      const res = await get('/v1/wallpapers/999999');
      expect(res.status).to.equal(404);
      expect(res.headers.get('etag')).to.equal(null);
      expect(res.headers.get('cache-control')).to.equal('no-store');
    });
  });

  describe('compression', () => {
    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      it(`when the client accepts ${encoding}, then a large page is sent ${encoding}-encoded with the same content`, async () => {
        const identity = await raw(`${ctx.app.url}/v1/wallpapers?per_page=50`, { Authorization: `Bearer ${ctx.key}` });
        const encoded = await raw(`${ctx.app.url}/v1/wallpapers?per_page=50`, {
          Authorization: `Bearer ${ctx.key}`,
          'Accept-Encoding': encoding,
        });
        expect(identity.headers['content-encoding']).to.equal(undefined);
        expect(encoded.headers['content-encoding']).to.equal(encoding);
        expect(encoded.headers['vary']).to.match(/Accept-Encoding/i);
        expect(encoded.body.length).to.be.lessThan(identity.body.length / 2);
        expect(decode(encoded.body).toString()).to.equal(identity.body.toString());
        const identityTag = identity.headers['etag'] as string;
        expect(encoded.headers['etag']).to.equal(`${identityTag.slice(0, -1)}-${encoding}"`);
        const revalidated = await raw(`${ctx.app.url}/v1/wallpapers?per_page=50`, {
          Authorization: `Bearer ${ctx.key}`,
          'Accept-Encoding': encoding,
          'If-None-Match': encoded.headers['etag'] as string,
        });
        expect(revalidated.status).to.equal(304);
      });
    }

    it('when the body is small, then it is sent uncompressed', async () => {
      const res = await raw(`${ctx.app.url}/v1/wallpapers/7`, { Authorization: `Bearer ${ctx.key}`, 'Accept-Encoding': 'gzip, br' });
      expect(res.headers['content-encoding']).to.equal(undefined);
    });
  });

  describe('CORS', () => {
    it('when a browser sends a preflight, then GET with Authorization is allowed from any origin without a key', async () => {
      const res = await request(ctx.app.url, '/v1/wallpapers', {
        method: 'OPTIONS',
        contract: false,
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-allow-methods')).to.include('GET');
      expect(res.headers.get('access-control-allow-headers')).to.include('Authorization');
    });

    it('when OPTIONS is asked without a preflight, with an Origin or not, then it too says any origin may read it', async () => {
      for (const headers of [{}, { Origin: 'https://app.example' }] as Record<string, string>[]) {
        const res = await request(ctx.app.url, '/v1/wallpapers', { method: 'OPTIONS', contract: false, headers });
        expect(res.status).to.equal(200);
        expect(res.headers.get('access-control-allow-origin'), JSON.stringify(headers)).to.equal('*');
      }
    });

    it('when OPTIONS or another method asks what a path takes, then every path says GET, HEAD, OPTIONS in that order', async () => {
      for (const path of ['/v1/wallpapers', '/v1/wallpapers/1/similar', '/v1/usage', '/healthz', '/v1/openapi.json']) {
        for (const method of ['OPTIONS', 'POST', 'PROPFIND']) {
          const res = await request(ctx.app.url, path, { method, contract: false });
          expect(res.status, `${method} ${path}`).to.equal(method === 'OPTIONS' ? 200 : 405);
          expect(res.headers.get('allow'), `${method} ${path}`).to.equal('GET, HEAD, OPTIONS');
        }
      }
    });

    it('when a browser reads a response, then the rate-limit headers, Retry-After, X-Request-Id and Link are exposed', async () => {
      const res = await get('/v1/wallpapers', { Origin: 'https://app.example' });
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      const exposed = res.headers.get('access-control-expose-headers')!.split(/,\s*/);
      for (const h of [
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
        'X-Request-Id',
        'Link',
      ]) {
        expect(exposed).to.include(h);
      }
    });
  });

  describe('X-Request-Id', () => {
    it('when the client sends a well-formed id, then it is echoed', async () => {
      const res = await get('/v1/wallpapers/7', { 'X-Request-Id': 'client-42:abc.DEF_9' });
      expect(res.headers.get('x-request-id')).to.equal('client-42:abc.DEF_9');
    });

    for (const [label, value] of [
      ['absent', undefined],
      ['malformed', 'has spaces and ; semicolons'],
      ['too long', 'x'.repeat(129)],
    ] as const) {
      it(`when the client's id is ${label}, then a UUID is generated`, async () => {
        const res = await get('/v1/wallpapers/7', value === undefined ? {} : { 'X-Request-Id': value });
        expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      });
    }

    it('when requests are logged, then every line carries the request id and the key id, never the key', async () => {
      const logs = captureLogs('info');
      const app = await startApp({ config: ctx.config, es: ctx.es, redis: ctx.redis, logger: logs.logger });
      try {
        await request(app.url, '/v1/search?q=aurora', { key: ctx.key, headers: { 'X-Request-Id': 'trace-1' } });
        await request(app.url, '/v1/wallpapers?page=0', { key: ctx.key, headers: { 'X-Request-Id': 'trace-2' } });
      } finally {
        await app.close();
      }
      const logged = logs.text();
      const lines = logged
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests).to.have.length(2);
      expect(requests[0]).to.include({ method: 'GET', route: '/v1/search', status: 200, request_id: 'trace-1' });
      expect(requests[1]).to.include({ route: '/v1/wallpapers', status: 400, request_id: 'trace-2' });
      for (const line of requests) {
        expect(line.key_id).to.match(/^key_/);
        expect(line.duration_ms).to.be.a('number');
        expect(line.time).to.be.a('string');
      }
      expect(logged).to.not.include(ctx.key.slice(17));
    });
  });

  describe('HEAD', () => {
    for (const path of ['/v1/wallpapers', '/v1/wallpapers/7', '/v1/search?q=aurora', '/v1/openapi.json', '/healthz', '/docs']) {
      it(`when HEAD ${path} is sent, then it answers like GET without a body`, async () => {
        const viaGet = await get(path);
        const viaHead = await get(path, {}, 'HEAD');
        expect(viaHead.status).to.equal(200);
        expect(viaHead.text).to.equal('');
        expect(viaHead.headers.get('content-type')).to.equal(viaGet.headers.get('content-type'));
        // HEAD has no body to compress, so its tag is the identity variant of GET's.
        const identityTag = (tag: string | null) => tag?.replace(/-(gzip|br)"$/, '"');
        expect(identityTag(viaHead.headers.get('etag'))).to.equal(identityTag(viaGet.headers.get('etag')));
      });
    }
  });
});
