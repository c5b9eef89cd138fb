import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { toWallpaper } from '../../src/wallpapers/wallpaper.js';
import { versionedIndexName } from '../../src/wallpapers/store/index-names.js';
import { aliasTargets, runScript } from '../support/catalogue-cli.js';
import { type RunningApp, connectEs, createKey, dropIndicesOf, readyRedis, request, startApp, testConfig, uniqueName } from '../support/harness.js';

// The mapping the catalogue had before English analysis: the standard analyzer, no subfields,
// no completion field.
const BEFORE = JSON.parse(readFileSync(new URL('../fixtures/mapping-standard-analyzer.json', import.meta.url), 'utf8')) as {
  settings: Record<string, unknown>;
  mappings: Record<string, unknown>;
};
const IMAGES = 'https://images.wallpapers.example';

describe('moving a catalogue to the new mapping with scripts/reindex', function () {
  this.timeout(120_000);
  const es = connectEs(undefined, 60_000);
  const alias = uniqueName('test-remap');
  let app: RunningApp;
  let key: string;
  let old = '';

  before(async () => {
    old = versionedIndexName(alias, new Date(Date.now() - 60_000));
    await es.indices.create({ index: old, settings: BEFORE.settings, mappings: BEFORE.mappings });
    // What the catalogue held then: the nine fields and the dimensions, no tags, no palette.
    const docs = [...generateWallpapers({ count: 2000, seed: 42, imageBaseUrl: IMAGES })].map((doc) => ({
      ...toWallpaper(doc),
      width: doc.width,
      height: doc.height,
    }));
    await es.bulk({ index: old, refresh: true, operations: docs.flatMap((doc) => [{ index: { _id: String(doc.id) } }, doc]) });
    await es.indices.putAlias({ index: old, name: alias });
    const redis = await readyRedis();
    key = (await createKey(redis, 'premium')).apiKey;
    app = await startApp({
      config: testConfig({ indexAlias: alias, responseCache: { maxBytes: 0, ttlMs: 1000, checkIntervalMs: 1000 } }),
      es,
      redis,
    });
  });

  after(async () => {
    await app.close();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  const total = async (q: string) => (await request(app.url, `/v1/search?q=${encodeURIComponent(q)}`, { key })).body.meta.total_items as number;

  it('when reindexed while searches keep coming, then every search is answered, and afterwards inflections and suggestions work', async () => {
    expect(await total('galaxies'), 'the standard analyzer does not stem').to.equal(0);
    let stop = false;
    const statuses: number[] = [];
    // Colour, tag and tone filters on a catalogue without palettes find nothing, before and after: never an error.
    const paths = [
      '/v1/search?q=galaxy%20nebula',
      '/v1/wallpapers?color=blue,%23336699&sort=relevance&facets=color,tone,tags',
      '/v1/wallpapers?tags=space&include=tags,colors',
    ];
    const traffic = (async () => {
      for (let i = 0; !stop; i++) statuses.push((await request(app.url, paths[i % paths.length]!, { key })).status);
    })();
    const run = await runScript('reindex', [], { env: { INDEX_ALIAS: alias } });
    stop = true;
    await traffic;
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include('not compared: the copy analyses titles differently');
    expect(statuses.length).to.be.greaterThan(5);
    expect(new Set(statuses)).to.deep.equal(new Set([200]));
    const [live] = await aliasTargets(es, alias);
    expect(live).to.not.equal(old);
    expect(await total('galaxies')).to.be.greaterThan(0);
    const suggestion = await request(app.url, '/v1/search/suggest?q=gala', { key });
    expect(suggestion.body.data.length).to.be.greaterThan(0);
    expect(await es.indices.exists({ index: old }), 'the previous index stays for rollback').to.equal(true);
  });

  it('when the old catalogue has moved, then its wallpapers have empty tags and palettes, in detail and in filters', async () => {
    const detail = (await request(app.url, '/v1/wallpapers/7', { key })).body;
    expect([detail.tags, detail.colors, detail.tone, detail.ratio]).to.deep.equal([[], [], null, detail.ratio]);
    expect(detail.width).to.be.greaterThan(0);
    for (const query of ['color=blue', 'tone=dark', 'tags=space']) {
      expect((await request(app.url, `/v1/wallpapers?${query}`, { key })).body.meta.total_items, query).to.equal(0);
    }
  });
});
