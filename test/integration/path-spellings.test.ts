import { expect } from 'chai';
import { rawRequest } from '../support/raw-http.js';
import { useCatalogue } from './catalogue-context.js';

// Ways of spelling a path that some component might read as /v1/... while another does not.
const SPELLINGS = [
  // case
  '/V1/wallpapers',
  '/v1/Wallpapers',
  '/V1/WALLPAPERS',
  '/V1/wallpapers/1',
  '/V1/search?q=sea',
  '/v1/SEARCH?q=sea',
  // percent-encoded letters
  '/%76%31/wallpapers',
  '/%56%31/wallpapers',
  '/v1/%77allpapers',
  '/v1/wallpapers/%31',
  '/v1/%73earch?q=sea',
  '/v1/search%3Fq=sea',
  // double and trailing slashes
  '//v1/wallpapers',
  '/v1//wallpapers',
  '/v1/wallpapers//1',
  '/v1/wallpapers/',
  '/v1/wallpapers/1/',
  '/v1/search/?q=sea',
  '/v1/',
  '/v1',
  // dot segments
  '/v1/./wallpapers',
  '/v1/../v1/wallpapers',
  '/x/../v1/wallpapers',
  '/v1/wallpapers/./1',
  '/%2e/v1/wallpapers',
  '/v1/%2e%2e/v1/wallpapers',
  '/v1/wallpapers/%2e%2e/wallpapers/1',
  // ;params
  '/v1;x=1/wallpapers',
  '/v1/wallpapers;x=1',
  '/v1/wallpapers/1;x=1',
  '/v1/search;x?q=sea',
  // encoded slashes and other separators
  '/v1%2fwallpapers',
  '/v1%2Fwallpapers/1',
  '%2fv1/wallpapers',
  '/v1%5cwallpapers',
  '/v1\\wallpapers',
  // odd endings
  '/v1/wallpapers%00',
  '/v1/wallpapers%20',
  '/v1/wallpapers#x',
  '/v1/wallpapers?page=1#x',
  // absolute form
  'http://127.0.0.1/v1/wallpapers',
  'http://127.0.0.1/V1/wallpapers',
];

/** A catalogue answer carries wallpapers: a list envelope or a wallpaper object. */
function carriesData(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return 'data' in parsed || 'title' in parsed || 'id' in parsed;
  } catch {
    return body.includes('"title"');
  }
}

describe('path spellings', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();

  it('when the canonical paths are asked with a valid key, then they answer 200 with data (the probe reaches data)', async () => {
    for (const path of ['/v1/wallpapers', '/v1/wallpapers/1', '/v1/search?q=sea']) {
      const res = await rawRequest(ctx.app.url, path, { headers: { Authorization: `Bearer ${ctx.key}` } });
      expect(res.status, path).to.equal(200);
      expect(carriesData(res.body), path).to.equal(true);
    }
  });

  for (const method of ['GET', 'HEAD']) {
    it(`when any of ${SPELLINGS.length} spellings is sent by ${method} without a key, then it answers 401 or 404 and no data`, async () => {
      const outcomes: string[] = [];
      for (const path of SPELLINGS) {
        const res = await rawRequest(ctx.app.url, path, { method });
        outcomes.push(`${res.status} ${path}`);
        expect([400, 401, 404], `${method} ${path} -> ${res.status}`).to.include(res.status);
        expect(carriesData(res.body), `${method} ${path} body`).to.equal(false);
        expect(res.headers['x-ratelimit-remaining'], `${method} ${path} reached the quota`).to.equal(undefined);
      }
      expect(outcomes.filter((o) => o.startsWith('401')).length, 'some spellings do reach a route, behind the key check').to.be.greaterThan(0);
    });
  }

  it('when a spelling reaches data with a valid key, then the same spelling without a key or with an invalid one is refused', async () => {
    for (const path of SPELLINGS) {
      const valid = await rawRequest(ctx.app.url, path, { headers: { Authorization: `Bearer ${ctx.key}` } });
      if (valid.status !== 200) {
        expect(carriesData(valid.body), path).to.equal(false);
        continue;
      }
      const none = await rawRequest(ctx.app.url, path);
      const invalid = await rawRequest(ctx.app.url, path, { headers: { Authorization: 'Bearer wpc_nope' } });
      expect(none.status, `${path} without a key`).to.equal(401);
      expect(invalid.status, `${path} with an invalid key`).to.equal(403);
    }
  });

  it('when a path differs from a route only by case or a trailing slash, then it is 404 even with a valid key', async () => {
    for (const path of ['/V1/wallpapers', '/v1/Wallpapers', '/v1/wallpapers/', '/v1/search/?q=sea']) {
      const res = await rawRequest(ctx.app.url, path, { headers: { Authorization: `Bearer ${ctx.key}` } });
      expect(res.status, path).to.equal(404);
      expect(JSON.parse(res.body)).to.include({ error: 'not_found', status: 404 });
    }
  });
});
