import { expect } from 'chai';
import { type EsFaults, startEsFaults } from '../support/es-faults.js';
import { type RunningApp, connectEs, request, startApp, testConfig } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

// A node (or a proxy in front of one) that answers, but wrongly: every read of the API still ends
// in a prompt 503, never a 500, a hang, an empty page served as the catalogue's, or the process's
// memory (docs/faults.md). Each route reads Elasticsearch its own way: a batched get, a multi-get of
// ids, a multi-search of pages and of suggestions, and the feed's get and search.
const ROUTES = [
  '/v1/wallpapers/7',
  '/v1/wallpapers?ids=7,8',
  '/v1/wallpapers?per_page=5',
  '/v1/search?q=aurora',
  '/v1/search/suggest?q=aur',
  '/v1/changes?per_page=5',
];
const TIMEOUT_MS = 1000;

describe('an Elasticsearch that answers wrongly', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();
  let faults: EsFaults;
  let app: RunningApp;

  beforeEach(async () => {
    faults = await startEsFaults(testConfig().elasticsearchUrl);
    const config = {
      ...ctx.config,
      elasticsearchTimeoutMs: TIMEOUT_MS,
      responseCache: { ...ctx.config.responseCache, maxBytes: 0 },
    };
    app = await startApp({ config, es: connectEs(faults.url, TIMEOUT_MS), redis: ctx.redis });
    for (const route of ROUTES) expect((await request(app.url, route, { key: ctx.key })).status, route).to.equal(200);
  });

  afterEach(async () => {
    await app?.close();
    await faults?.close();
  });

  /** Every route's status and how long it took, asked one after another. */
  async function everyRoute(): Promise<{ route: string; status: number; error: string; ms: number }[]> {
    const answers = [];
    for (const route of ROUTES) {
      const started = performance.now();
      const res = await request(app.url, route, { key: ctx.key });
      answers.push({ route, status: res.status, error: String(res.body?.error), ms: performance.now() - started });
    }
    return answers;
  }

  it('when it sends its answers a little at a time, steadily, then every route answers 503 within the timeout', async () => {
    faults.set({ kind: 'trickle' });
    for (const { route, status, ms } of await everyRoute()) {
      expect(status, route).to.equal(503);
      expect(ms, route).to.be.below(TIMEOUT_MS * 2);
    }
  });

  it('when an answer is larger than the API reads, then it is 503 at once, without reading the rest', async () => {
    faults.set({ kind: 'huge', bytes: 64 * 1024 * 1024 });
    for (const { route, status, ms } of await everyRoute()) {
      expect(status, route).to.equal(503);
      expect(ms, route).to.be.below(TIMEOUT_MS);
    }
  });

  it('when an answer is not JSON, then it is 503, not a 500', async () => {
    for (const [body, contentType] of [
      ['{"took":1,"responses":[{"hits":', 'application/json'],
      ['<html>bad gateway</html>', 'text/html'],
      ['null', 'application/json'],
    ] as const) {
      faults.set({ kind: 'body', body, contentType });
      for (const { route, status, error } of await everyRoute())
        expect([status, error], `${route} ${body}`).to.deep.equal([503, 'service_unavailable']);
    }
  });

  it('when an answer is JSON of a shape no Elasticsearch gives, then it is 503, never an empty page', async () => {
    for (const body of ['{"took":1,"responses":[{"foo":"bar"}],"docs":[{"x":1}],"hits":{"hits":[{"_source":null}]}}', '[]', '{}']) {
      faults.set({ kind: 'body', body });
      for (const { route, status } of await everyRoute()) expect(status, `${route} ${body}`).to.equal(503);
    }
  });

  it('when it is slow but answers, then an account with a line longer than the timeout still has every request served', async () => {
    // 4 lanes, 250 ms a read: the last of 24 at once waits about 1.5 s, past the 1 s timeout, behind reads that are served.
    faults.set({ kind: 'slow', delayMs: 250 });
    const statuses = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => (await request(app.url, `/v1/wallpapers/${i + 1}`, { key: ctx.key })).status),
    );
    expect(statuses).to.deep.equal(Array.from({ length: 24 }, () => 200));
  });

  it('when it stalls, then an account with more requests at once than lanes has each answered within twice the timeout', async () => {
    faults.set({ kind: 'stall' });
    const started = performance.now();
    const took = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await request(app.url, `/v1/wallpapers/${i + 1}`, { key: ctx.key });
        return { status: res.status, ms: performance.now() - started };
      }),
    );
    for (const { status, ms } of took) {
      expect(status).to.equal(503);
      expect(ms).to.be.below(TIMEOUT_MS * 2 + 500);
    }
  });
});
