import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import { CATEGORIES } from '../../src/wallpapers/categories.js';
import { aliasTargets, runScript } from '../support/catalogue-cli.js';
import { sleep } from '../support/until.js';
import { connectEs, createKey, dropIndicesOf, readyRedis, request, startApp, testConfig, uniqueName, type RunningApp } from '../support/harness.js';

// Past the result window (10,000) and several of the reindex's batches. Each client pauses between
// requests, a steady load rather than all the machine has: six clients in a tight loop held the
// reindex of 100,000 to 82 s of two busy cores in npm test; paced, 30,000 take about 30 s.
const DOCS = 30_000;
const CLIENTS = 6;
const PAUSE_MS = 10;
const WORDS = ['mountain', 'sunset', 'city', 'ocean', 'forest', 'night', 'space', 'neon', 'winter', 'drift', 'moutnain'];
const RESOLUTIONS = ['1920x1080', '2560x1440', '3840x2160', '1080x2340'];
// Fixed queries whose answers must be identical before and after the switch.
const FIXED = [
  '/v1/wallpapers?per_page=100',
  '/v1/wallpapers?category=space&per_page=50&page=3',
  '/v1/wallpapers?resolution=3840x2160&category=nature&per_page=100',
  '/v1/search?q=mountain+sunset&per_page=50',
  '/v1/search?q=neon&category=cityscapes&page=2',
  '/v1/wallpapers/24321',
];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

function randomPath(kind: number): string {
  switch (kind % 4) {
    case 0:
      return `/v1/wallpapers?page=${between(1, 50)}&per_page=${between(1, 100)}`;
    case 1:
      return `/v1/wallpapers?category=${pick(CATEGORIES)}&resolution=${pick(RESOLUTIONS)}&page=${between(1, 3)}`;
    case 2:
      return `/v1/wallpapers/${between(1, DOCS)}`;
    default:
      return `/v1/search?q=${pick(WORDS)}+${pick(WORDS)}&per_page=${between(5, 50)}`;
  }
}

describe('reindex under load', function () {
  this.timeout(180_000);
  const alias = uniqueName('test-reindex-load');
  const es = connectEs(undefined, 60_000);
  let redis: Redis;
  let app: RunningApp;
  let key = '';

  before(async () => {
    redis = await readyRedis();
    await seedCatalogue(es, { alias, count: DOCS, seed: 2024, imageBaseUrl: 'https://images.wallpapers.example', keep: 2 });
    key = (await createKey(redis)).apiKey;
    app = await startApp({ config: testConfig({ indexAlias: alias }, { tiers: { free: 9_999_999, premium: 9_999_999 } }), es, redis });
  });

  after(async () => {
    await app?.close();
    await dropIndicesOf(es, alias);
    await es.close();
    redis.disconnect();
  });

  it(`when ${DOCS} documents are reindexed while clients list, filter, get and search, then every response is 2xx and fixed queries answer the same`, async () => {
    const fixedBefore = await Promise.all(FIXED.map((path) => request(app.url, path, { key })));
    for (const response of fixedBefore) expect(response.status, response.text).to.equal(200);
    const [oldIndex] = await aliasTargets(es, alias);

    const failures: string[] = [];
    const served: number[] = [];
    let reindexing = true;
    const client = async (kind: number) => {
      let count = 0;
      while (reindexing) {
        const path = randomPath(kind);
        const response = await request(app.url, path, { key });
        if (response.status >= 300) failures.push(`${response.status} ${path} ${response.text}`);
        count++;
        await sleep(PAUSE_MS);
      }
      served.push(count);
    };
    const clients = Array.from({ length: CLIENTS }, (_, kind) => client(kind));

    const run = await runScript('reindex', [], { env: { INDEX_ALIAS: alias } });
    // Keep querying across and after the switch.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    reindexing = false;
    await Promise.all(clients);

    expect(run.status, run.stderr).to.equal(0);
    const [newIndex] = await aliasTargets(es, alias);
    expect(newIndex).to.not.equal(oldIndex);
    expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
    expect(served.reduce((a, b) => a + b, 0)).to.be.greaterThan(200);

    const fixedAfter = await Promise.all(FIXED.map((path) => request(app.url, path, { key })));
    // A next_cursor names the index its walk reads, so it changes with the reindex; everything else may not.
    const withoutCursor = (body: { meta?: object } | undefined) => body && { ...body, meta: { ...body.meta, next_cursor: undefined } };
    FIXED.forEach((path, i) => expect(withoutCursor(fixedAfter[i]?.body), path).to.deep.equal(withoutCursor(fixedBefore[i]?.body)));
    expect(fixedAfter[0]?.body.meta.total_items).to.equal(DOCS);

    const [before, after] = await Promise.all([es.count({ index: oldIndex as string }), es.count({ index: newIndex as string })]);
    expect(before.count).to.equal(DOCS);
    expect(after.count).to.equal(DOCS);
  });
});
