import { expect } from 'chai';
import { searchParams } from '../support/search-params.js';
import { CATEGORIES } from '../../src/wallpapers/categories.js';
import { generateApiKey } from '../../src/access/api-key.js';
import {
  connectEs,
  connectRedis,
  createIndexWithDocs,
  createKey,
  dropIndicesOf,
  readyRedis,
  request,
  startApp,
  testConfig,
  uniqueName,
} from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';
import { InvalidInput } from '../../src/errors.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import { fixtureWallpapers } from '../support/fixtures.js';

function expectError(res: { status: number; headers: Headers; body: any }, status: number, error: string) {
  expect(res.status).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  expect(res.body).to.have.all.keys('error', 'message', 'status');
  expect(res.body.error).to.equal(error);
  expect(res.body.status).to.equal(status);
  expect(res.body.message)
    .to.be.a('string')
    .and.not.match(/elasticsearch|exception|stack|at \//i);
}

describe('error responses', () => {
  describe('with a loaded catalogue', () => {
    const ctx = useCatalogue();
    const get = (path: string, method = 'GET') => request(ctx.app.url, path, { key: ctx.key, method });

    const invalid: [string, RegExp][] = [
      ['/v1/wallpapers?page=abc', /'page': must be an integer/],
      ['/v1/wallpapers?page=1.5', /'page': must be an integer/],
      ['/v1/wallpapers?page=', /'page': must be an integer/],
      ['/v1/wallpapers?page=0', /'page': must be an integer >= 1/],
      ['/v1/wallpapers?page=-2', /'page': must be an integer >= 1/],
      ['/v1/wallpapers?page=99999999999999999999999', /'page': must be an integer <= 9007199254740991$/],
      [`/v1/wallpapers/${'9'.repeat(400)}`, /'id': must be an integer <= 9007199254740991$/],
      ['/v1/wallpapers?per_page=0', /'per_page': must be an integer >= 1/],
      ['/v1/wallpapers?per_page=ten', /'per_page': must be an integer/],
      ['/v1/wallpapers?resolution=1920', /'resolution': each value must have the form <width>x<height>/],
      ['/v1/wallpapers?resolution=1920X1080', /'resolution': each value must have the form/],
      ['/v1/wallpapers?resolution=0x1080', /'resolution': each value must have the form/],
      ['/v1/wallpapers?category=Nature', /'category': each value must be one of abstract, animals/],
      ['/v1/wallpapers?category=cats', new RegExp(`'category': each value must be one of ${CATEGORIES.join(', ')}`)],
      [
        '/v1/wallpapers?colour=red',
        /Unknown query parameter 'colour' \(allowed: page, per_page, cursor, sort, seed, category, resolution, ratio, orientation, min_resolution, tags, exclude_tags, exclude_ids, color, tone, facets, include, ids\)/,
      ],
      ['/v1/wallpapers?page=1&page=2', /'page': must be given at most once/],
      ['/v1/wallpapers?__proto__=x', /Unknown query parameter '__proto__'/],
      ['/v1/wallpapers/1?include=tags', /Unknown query parameter 'include' \(allowed: none\)/],
      ['/v1/wallpapers?constructor=x', /Unknown query parameter 'constructor'/],
      ['/v1/search?q=sky&__proto__[a]=1', /Unknown query parameter '__proto__\[a\]'/],
      ['/v1/search?q=sky&per_page=-1', /'per_page': must be an integer >= 1/],
      ['/v1/search?q=sky&category=unknown', /'category': each value must be one of/],
    ];
    for (const [path, message] of invalid) {
      it(`when requesting ${path}, then 400 invalid_request names the parameter and rule`, async () => {
        const res = await get(path);
        expectError(res, 400, 'invalid_request');
        expect(res.body.message).to.match(message);
      });
    }

    it('when several parameters are bad, then every one is named', async () => {
      const res = await get('/v1/wallpapers?page=0&per_page=x&category=cats');
      expectError(res, 400, 'invalid_request');
      expect(res.body.message).to.include("'page'").and.include("'per_page'").and.include("'category'");
    });

    it('when a wallpaper`s id and its query are both bad, then the 400 names both', async () => {
      const similar = await get('/v1/wallpapers/abc/similar?per_page=0&x=1');
      expectError(similar, 400, 'invalid_request');
      expect(similar.body.message).to.include("path parameter 'id'").and.include("'per_page'").and.include("Unknown query parameter 'x'");
      const detail = await get('/v1/wallpapers/05?x=1');
      expectError(detail, 400, 'invalid_request');
      expect(detail.body.message)
        .to.include("path parameter 'id': must be an integer in plain decimal digits")
        .and.include("Unknown query parameter 'x'");
    });

    it('when the path is unknown, then 404 not_found', async () => {
      expectError(await get('/v1/photos'), 404, 'not_found');
      expectError(await get('/v2/wallpapers'), 404, 'not_found');
    });

    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      it(`when ${method} is sent to a GET endpoint, then 405 with an Allow header`, async () => {
        const res = await get('/v1/wallpapers', method);
        expectError(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
        expect(res.body.message).to.equal('Method not allowed; allowed: GET, HEAD, OPTIONS');
        // Answered before the key is checked: no rate-limit headers, nothing counted.
        expect(res.headers.get('x-ratelimit-remaining')).to.equal(null);
      });
    }

    it('when a method the router does not know is sent, then an unknown path is 404 as for DELETE, and a route 405 with its Allow', async () => {
      for (const method of ['ACL', 'PROPFIND']) {
        const unknown = await get('/nonexistent', method);
        expectError(unknown, 404, 'not_found');
        expect(unknown.headers.get('allow'), 'an empty Allow would say no method is allowed').to.equal(null);
        const known = await get('/v1/wallpapers', method);
        expectError(known, 405, 'method_not_allowed');
        expect(known.headers.get('allow')).to.include('GET');
      }
      expectError(await get('/nonexistent', 'DELETE'), 404, 'not_found');
    });

    it('when Elasticsearch rejects a query for an internal reason, then 500 internal_error leaks nothing', async () => {
      const brokenAlias = uniqueName('test-broken');
      const es = connectEs();
      await es.indices.create({ index: `${brokenAlias}-1`, mappings: { properties: { created_at: { type: 'text' } } } });
      await es.indices.putAlias({ index: `${brokenAlias}-1`, name: brokenAlias });
      const app = await startApp({ config: testConfig({ indexAlias: brokenAlias }), es, redis: ctx.redis });
      try {
        const res = await request(app.url, '/v1/wallpapers', { key: ctx.key });
        expectError(res, 500, 'internal_error');
        expect(res.body.message).to.equal('Internal server error');
      } finally {
        await app.close();
        await es.indices.delete({ index: `${brokenAlias}-1` });
        await es.close();
      }
    });

    it('when a search has 200 distinct short words, then 400 names q and the 32-word cap before Elasticsearch is asked', async () => {
      const words = Array.from({ length: 200 }, (_, i) => `w${i.toString(36)}`).join(' ');
      const res = await get(`/v1/search?q=${encodeURIComponent(words)}`);
      expectError(res, 400, 'invalid_request');
      // The other rule q breaks (its length) is said beside it, after its name said once.
      expect(res.body.message).to.match(/'q': (.*; )?must have at most 32 words/);
      const at33 = await get(`/v1/search?q=${encodeURIComponent(Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '))}`);
      expectError(at33, 400, 'invalid_request');
      const at32 = await get(`/v1/search?q=${encodeURIComponent(Array.from({ length: 32 }, (_, i) => `w${i}`).join(' '))}`);
      expect(at32.status).to.equal(200);
    });

    it('when Elasticsearch refuses a search as past its clause limit, then the client gets 400 naming q, not a 500', async function () {
      this.timeout(30_000);
      // 3,000 distinct five-letter words from a five-letter alphabet: exact and typo-tolerant
      // clauses on two fields come to more than the 8,192 clauses Elasticsearch allows here.
      const alphabet = 'abcde';
      const word = (n: number) => Array.from({ length: 5 }, (_, i) => alphabet[Math.floor(n / 5 ** i) % 5]).join('');
      const alias = uniqueName('test-clauses');
      const docs = fixtureWallpapers()
        .slice(0, 200)
        .map((doc, i) => ({ ...doc, title: Array.from({ length: 8 }, (_, j) => word(i * 8 + j)).join(' ') }));
      await createIndexWithDocs(ctx.es, alias, docs);
      const repository = createEsRepository(ctx.es, alias);
      try {
        const q = Array.from({ length: 3000 }, (_, i) => word(i)).join(' ');
        const err = await repository.search(searchParams({ q, page: 1, per_page: 1 })).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).to.be.instanceOf(InvalidInput);
        expect((err as InvalidInput).parameter).to.equal('q');
        expect((err as InvalidInput).message).to.equal("Invalid query parameter 'q': the search has too many terms to run; use fewer words");
      } finally {
        await dropIndicesOf(ctx.es, alias);
      }
    });

    it('when the alias does not exist, then 503 service_unavailable, the change feed too (not an empty feed at its tail)', async () => {
      const app = await startApp({ config: testConfig({ indexAlias: uniqueName('test-missing') }), es: ctx.es, redis: ctx.redis });
      try {
        expectError(await request(app.url, '/v1/wallpapers', { key: ctx.key }), 503, 'service_unavailable');
        expectError(await request(app.url, '/v1/wallpapers/1', { key: ctx.key }), 503, 'service_unavailable');
        expectError(await request(app.url, '/v1/changes', { key: ctx.key }), 503, 'service_unavailable');
      } finally {
        await app.close();
      }
    });
  });

  describe('with a backend down', () => {
    it('when Elasticsearch cannot be reached, then 503 service_unavailable within the timeout', async () => {
      const redis = await readyRedis();
      const es = connectEs('http://127.0.0.1:9', 500);
      const app = await startApp({ config: testConfig(), es, redis });
      try {
        const { apiKey } = await createKey(redis);
        const started = Date.now();
        for (const path of ['/v1/wallpapers', '/v1/wallpapers/1', '/v1/search?q=sky']) {
          expectError(await request(app.url, path, { key: apiKey }), 503, 'service_unavailable');
        }
        expect(Date.now() - started).to.be.lessThan(5000);
      } finally {
        await app.close();
        redis.disconnect();
        await es.close();
      }
    });

    it('when Redis cannot be reached, then a well-formed key gets 503 service_unavailable, not a hang', async () => {
      const es = connectEs();
      const alias = uniqueName('test-noredis');
      await createIndexWithDocs(es, alias, fixtureWallpapers().slice(0, 2));
      const redis = connectRedis('redis://127.0.0.1:9', 300);
      const app = await startApp({ config: testConfig({ indexAlias: alias }), es, redis });
      try {
        const started = Date.now();
        const validShape = await request(app.url, '/v1/wallpapers', { key: generateApiKey('AAAAAAAAAAAA') });
        expectError(validShape, 503, 'service_unavailable');
        // A malformed key fails its checksum before any Redis call, so it is refused even now.
        const malformed = await request(app.url, '/v1/wallpapers', { key: `wpc_AAAAAAAAAAAA_${'a'.repeat(46)}` });
        expectError(malformed, 403, 'forbidden');
        expect(Date.now() - started).to.be.lessThan(5000);
      } finally {
        await app.close();
        redis.disconnect();
        await dropIndicesOf(es, alias);
        await es.close();
      }
    });
  });
});
