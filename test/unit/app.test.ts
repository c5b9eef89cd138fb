import { createHash } from 'node:crypto';
import { generateApiKey } from '../../src/access/api-key.js';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { BackendUnavailable, InvalidInput, Overloaded } from '../../src/errors.js';
import { toDetail } from '../../src/wallpapers/catalogued.js';
import { toWallpaper } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { type RunningApp, type TestResponse, listen, request } from '../support/harness.js';
import { rawRequest } from '../support/raw-http.js';
import { type InMemoryServices, inMemoryServices } from '../support/in-memory-services.js';

const KEY = 'free-key';
const DOCS = fixtureWallpapers().map(toWallpaper);

// The HTTP edge alone: a fresh app over in-memory services for every test, no Elasticsearch or
// Redis. What the real services do is the integration suite's part.
describe('the HTTP edge (createApp over in-memory services)', () => {
  let services: InMemoryServices;
  let app: RunningApp;

  beforeEach(async () => {
    services = inMemoryServices(DOCS, { [KEY]: { tier: 'free', limit: 5 }, 'premium-key': { tier: 'premium', limit: 1000 } });
    app = await listen(createApp(services, { maxResultWindow: 10_000, trustProxyHops: 0 }));
  });

  afterEach(async () => {
    await app.close();
  });

  const get = (path: string, key: string | null = KEY, headers: Record<string, string> = {}) =>
    request(app.url, path, { key: key ?? undefined, headers });

  function expectError(res: TestResponse, status: number, error: string): void {
    expect(res.status).to.equal(status);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.body).to.deep.equal({ error, message: res.body.message, status });
    expect(res.headers.get('cache-control')).to.equal('no-store');
  }

  describe('routing', () => {
    it('when a page is listed, then the envelope carries the repository page and the meta of the page used', async () => {
      const res = await get('/v1/wallpapers?per_page=7&page=2');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length(7);
      expect(res.body.meta).to.deep.include({ current_page: 2, per_page: 7, total_items: 60, total_pages: 9 });
      expect(res.body.meta.next_cursor).to.be.a('string');
    });

    it('when per_page is above 100, then 100 is used and reported', async () => {
      expect((await get('/v1/wallpapers?per_page=500')).body.meta.per_page).to.equal(100);
    });

    it('when one wallpaper is asked for, then it in detail; an unknown id is 404 naming it', async () => {
      expect((await get('/v1/wallpapers/7')).body).to.deep.equal(toDetail(DOCS.find((w) => w.id === 7)!));
      const missing = await get('/v1/wallpapers/999');
      expectError(missing, 404, 'not_found');
      expect(missing.body.message).to.equal('Wallpaper 999 not found');
    });

    it('when a search is made, then its page comes back in the same envelope', async () => {
      const res = await get('/v1/search?q=aurora');
      expect(res.status).to.equal(200);
      expect(res.body.data.map((w: { id: number }) => w.id)).to.have.members([7, 8]);
    });

    it('when the path reaches no route, then 404 without asking for a key or counting', async () => {
      for (const path of ['/v1/photos', '/v2/wallpapers', '/V1/wallpapers', '/v1/wallpapers/']) {
        expectError(await request(app.url, path, { contract: false }), 404, 'not_found');
      }
      expect(services.access.used.size).to.equal(0);
    });

    it('when a method other than GET or HEAD is sent, then 405 with Allow, before any key check', async () => {
      const res = await request(app.url, '/v1/wallpapers', { method: 'DELETE' });
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).to.include('GET');
      expect(services.access.used.size).to.equal(0);
    });

    it('when HEAD is sent, then the headers of GET and no body', async () => {
      const res = await request(app.url, '/v1/wallpapers/7', { key: KEY, method: 'HEAD' });
      expect(res.status).to.equal(200);
      expect(res.text).to.equal('');
      expect(res.headers.get('etag')).to.match(/^"/);
    });
  });

  describe('validation', () => {
    it('when parameters break their rules, then 400 names each one and the repository is never asked', async () => {
      const res = await get('/v1/wallpapers?page=0&per_page=x&category=cats&colour=red');
      expectError(res, 400, 'invalid_request');
      for (const name of ["'page'", "'per_page'", "'category'", "'colour'"]) expect(res.body.message).to.include(name);
      expect(services.repository.calls).to.equal(0);
    });

    it('when the page goes past the result window, then 400 naming the limit', async () => {
      const res = await get('/v1/wallpapers?page=101&per_page=100');
      expectError(res, 400, 'invalid_request');
      expect(res.body.message).to.include('10000');
    });

    it('when q is missing, blank or longer than 32 words, then 400 naming q', async () => {
      for (const q of ['', '%20%20', Array.from({ length: 33 }, (_, i) => `w${i}`).join('%20')]) {
        const res = await get(`/v1/search${q === '' ? '' : `?q=${q}`}`);
        expectError(res, 400, 'invalid_request');
        expect(res.body.message).to.include("'q'");
      }
    });
  });

  describe('domain errors', () => {
    for (const [label, error, status, message] of [
      [
        'a backend is unavailable',
        new BackendUnavailable('elasticsearch', 'The search backend is unavailable, please retry shortly'),
        503,
        'The search backend is unavailable, please retry shortly',
      ],
      ['reads are being shed', new Overloaded('The service is busy, please retry shortly'), 503, 'The service is busy, please retry shortly'],
      [
        'the input cannot be run',
        new InvalidInput('q', "Invalid query parameter 'q': too many terms"),
        400,
        "Invalid query parameter 'q': too many terms",
      ],
      ['something unexpected breaks', new Error('index wallpapers-1 has no field x (a stack trace)'), 500, 'Internal server error'],
    ] as const) {
      it(`when ${label}, then ${status} with the error model and nothing internal`, async () => {
        services.repository.failWith = error;
        const res = await get('/v1/wallpapers');
        expect(res.status).to.equal(status);
        expect(res.body.message).to.equal(message);
        if (status === 503) expect(res.headers.get('retry-after')).to.equal('1');
        expect(res.text).to.not.match(/stack|wallpapers-1/);
        expect(res.headers.get('x-ratelimit-remaining'), 'the quota headers stay on errors').to.equal('4');
      });
    }
  });

  describe('headers', () => {
    it('when a page is served, then private caching for a minute, Vary, an ETag and nosniff', async () => {
      const res = await get('/v1/wallpapers');
      expect(res.headers.get('cache-control')).to.equal('private, max-age=60');
      expect(res.headers.get('vary')).to.include('Authorization');
      expect(res.headers.get('etag')).to.match(/^"[A-Za-z0-9_-]+"$/);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('when the ETag is sent back, then 304 with no body, still counted', async () => {
      const first = await get('/v1/wallpapers/7');
      const again = await get('/v1/wallpapers/7', KEY, { 'If-None-Match': first.headers.get('etag')! });
      expect(again.status).to.equal(304);
      expect(again.text).to.equal('');
      expect(again.headers.get('x-ratelimit-remaining')).to.equal('3');
    });

    it('when a request id is given, then it is echoed; a malformed one is replaced', async () => {
      expect((await get('/v1/wallpapers', KEY, { 'X-Request-Id': 'abc-123' })).headers.get('x-request-id')).to.equal('abc-123');
      expect((await get('/v1/wallpapers', KEY, { 'X-Request-Id': 'bad id!' })).headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('when the request id given is shaped like a key, or a key put in one case, then it is replaced, so no log line of the request carries a key', async () => {
      const key = generateApiKey('AbCdEfGhIjKl');
      for (const given of [
        key,
        key.slice(4),
        `x_${key.slice(17)}`,
        `req-${key.slice(17)}.1`,
        'wpc_abcdefgh',
        Buffer.from(key).toString('hex').toUpperCase(),
        key.slice(17).toLowerCase(),
        key.slice(17).toUpperCase(),
        `req-${key.slice(17).toLowerCase()}.1`,
      ]) {
        expect((await get('/v1/wallpapers', KEY, { 'X-Request-Id': given })).headers.get('x-request-id'), given).to.match(/^[0-9a-f-]{36}$/);
      }
    });

    it('when the request id given is a tracing tool’s (a hash in hex, one case throughout, or words joined by underscores), then it is echoed, however long', async () => {
      const hex = createHash('sha256').update('trace').digest('hex');
      for (const given of [
        hex.slice(0, 40),
        hex,
        hex.toUpperCase(),
        `trace-${hex}`,
        `00-${hex.slice(0, 32)}-${hex.slice(32, 48)}-01`,
        'a'.repeat(128),
        'span_'.repeat(25),
        'checkout_service_payment_request_20261205_000001',
      ]) {
        expect((await get('/v1/wallpapers', KEY, { 'X-Request-Id': given })).headers.get('x-request-id'), given).to.equal(given);
      }
    });

    it('when a browser asks for a preflight, then CORS allows GET with Authorization, without a key', async () => {
      const res = await request(app.url, '/v1/wallpapers', {
        method: 'OPTIONS',
        contract: false,
        headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-allow-headers')).to.include('Authorization');
    });

    it('when a preflight asks for a path no route serves, then 404 as a plain OPTIONS there gets, still readable cross-origin', async () => {
      const preflightOf = (path: string) =>
        request(app.url, path, {
          method: 'OPTIONS',
          contract: false,
          headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
        });
      for (const path of ['/nowhere', '/v1/nowhere', '/v1/wallpapers/', '/V1/wallpapers', '/v1/wallpapers/1/similar/x']) {
        const preflight = await preflightOf(path);
        expect(preflight.status, path).to.equal(404);
        expect(preflight.body, path).to.include({ error: 'not_found', status: 404 });
        expect(preflight.headers.get('access-control-allow-origin'), path).to.equal('*');
        expect(preflight.headers.get('access-control-allow-methods'), path).to.equal(null);
      }
      for (const path of ['/v1/wallpapers/7', '/v1/wallpapers/7/similar', '/v1/usage', '/healthz', '/v1/openapi.json']) {
        const preflight = await preflightOf(path);
        expect(preflight.status, path).to.equal(204);
      }
    });
  });

  describe('authentication and quota', () => {
    it('when no key is sent, then 401 with the spec body and WWW-Authenticate', async () => {
      const res = await get('/v1/wallpapers', null);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'unauthorized', message: 'No API key provided', status: 401 });
      expect(res.headers.get('www-authenticate')).to.equal('Bearer realm="wallpapers"');
    });

    it('when the key is unknown, then 403 with the spec body and no rate-limit headers', async () => {
      const res = await get('/v1/wallpapers', 'who-knows');
      expect(res.body).to.deep.equal({ error: 'forbidden', message: 'Invalid API key', status: 403 });
      expect(res.headers.get('x-ratelimit-limit')).to.equal(null);
    });

    it('when the quota is spent, then 429 with Retry-After and the headers at 0', async () => {
      for (let i = 0; i < 5; i++) expect((await get('/v1/wallpapers/1')).status).to.equal(200);
      const res = await get('/v1/wallpapers/1');
      expectError(res, 429, 'rate_limit_exceeded');
      expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 3600);
    });

    it('when access cannot be decided (Redis unavailable), then 503, never a 500', async () => {
      services.access.failWith = new BackendUnavailable('redis', 'Authentication is temporarily unavailable, please retry shortly');
      const res = await get('/v1/wallpapers');
      expectError(res, 503, 'service_unavailable');
      expect(res.body.message).to.equal('Authentication is temporarily unavailable, please retry shortly');
    });

    it('when a key reads /v1/usage, then the /v1 guard does not run: nothing is spent, and the numbers match the headers', async () => {
      const spent = await get('/v1/wallpapers/7');
      const before = services.access.used.get(KEY);
      const usage = await get('/v1/usage');
      expect(usage.status).to.equal(200);
      expect(usage.body).to.deep.include({ tier: 'free', limit: 5, used: 1, remaining: 4, window: 3600 });
      expect(usage.headers.get('x-ratelimit-remaining')).to.equal(spent.headers.get('x-ratelimit-remaining'));
      expect((await get('/v1/usage')).status).to.equal(200);
      expect(services.access.used.get(KEY)).to.equal(before);
      expect((await get('/v1/usage', null)).status).to.equal(401);
      expect((await get('/v1/usage', 'nope')).status).to.equal(403);
    });

    it('when a client fails authentication past its limit, then its failing requests get 429, a valid key still 200', async () => {
      await app.close();
      services = inMemoryServices(DOCS, { [KEY]: { tier: 'free', limit: 5 } });
      services.access = { ...services.access, blockedFor: () => 30 };
      app = await listen(createApp(services, { maxResultWindow: 10_000, trustProxyHops: 0 }));
      expectError(await get('/v1/wallpapers', 'guess'), 429, 'too_many_auth_failures');
      expectError(await get('/v1/wallpapers', null), 429, 'too_many_auth_failures');
      expectError(await get('/v1/usage', 'guess'), 429, 'too_many_auth_failures');
      expect((await get('/v1/wallpapers')).status).to.equal(200);
      expect((await get('/v1/usage')).status).to.equal(200);
    });

    it('when a request carries two Authorization headers, then 401 names the header, whichever key comes first, without quota headers', async () => {
      for (const keys of [
        [KEY, 'nope'],
        ['nope', KEY],
      ]) {
        const res = await rawRequest(app.url, '/v1/wallpapers', { headers: keys.map((key) => ['Authorization', `Bearer ${key}`] as const) });
        expect(res.status).to.equal(401);
        expect(JSON.parse(res.body)).to.deep.include({
          error: 'unauthorized',
          message: 'A request must carry one Authorization header, not several',
        });
        expect(res.headers['www-authenticate']).to.equal('Bearer realm="wallpapers"');
        expect(res.headers).to.not.have.property('x-ratelimit-limit');
      }
    });
  });

  describe('operations', () => {
    it('when /healthz, /readyz or the OpenAPI document are asked without a key, then they answer', async () => {
      expect((await request(app.url, '/healthz')).body).to.deep.equal({ status: 'ok' });
      expect((await request(app.url, '/readyz')).status).to.equal(200);
      expect((await request(app.url, '/v1/openapi.json')).body.openapi).to.equal('3.1.0');
    });

    it('when readiness fails or drains, then /readyz is 503 naming what', async () => {
      services.readiness.drain();
      const res = await request(app.url, '/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.message).to.equal('Not ready: draining');
    });

    it('when /metrics is asked on the API listener, then 404', async () => {
      expect((await request(app.url, '/metrics', { contract: false })).status).to.equal(404);
    });
  });
});
