import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { MAX_BULK_BYTES, bulkLoad } from '../../src/catalogue/ingest/bulk-load.js';
import { generateWallpaper, generateWallpapers } from '../../src/catalogue/generation/generator.js';
import {
  compactIndex,
  createVersionedIndex,
  finishLoading,
  listVersionedIndices,
  markIndexState,
  pruneOldIndices,
  readIndexDefinition,
  swapAlias,
} from '../../src/catalogue/admin/index-admin.js';
import { seedCatalogue, SeedError } from '../../src/catalogue/ingest/seed-catalogue.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { nodeArgsFor } from '../support/compiled-scripts.js';
import { readyRedis, storedSource, unstamped } from '../support/harness.js';
import { lockKey } from '../../src/catalogue/admin/catalogue-lock.js';

const ES_URL = process.env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200';
const IMAGES = 'https://images.wallpapers.example';
const RUN = `test-seed-${randomBytes(4).toString('hex')}`;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const es = new Client({ node: ES_URL, requestTimeout: 60_000, maxRetries: 0 });
let aliasCounter = 0;
const freshAlias = () => `${RUN}-${++aliasCounter}`;

async function aliasTargets(alias: string): Promise<string[]> {
  const response = await es.indices.getAlias({ name: alias }, { ignore: [404], meta: true });
  return response.statusCode === 404 ? [] : Object.keys(response.body).sort();
}

async function indexExists(index: string): Promise<boolean> {
  return es.indices.exists({ index });
}

function seed(alias: string, count: number, extra: Partial<Parameters<typeof seedCatalogue>[1]> = {}) {
  return seedCatalogue(es, { alias, count, seed: 42, imageBaseUrl: IMAGES, keep: 2, ...extra });
}

function runSeedScript(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [...nodeArgsFor('scripts/seed.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('seeding the catalogue into Elasticsearch', function () {
  this.timeout(60_000);

  before(async () => {
    try {
      await es.cluster.health({ wait_for_status: 'yellow', timeout: '10s' });
    } catch (error) {
      throw new Error(`Elasticsearch not reachable at ${ES_URL} (run: bash scripts/stack.sh start): ${String(error)}`, { cause: error });
    }
  });

  after(async () => {
    const indices = Object.keys(await es.indices.get({ index: `${RUN}-*`, expand_wildcards: ['open', 'closed'] }));
    for (const index of indices) await es.indices.delete({ index }, { ignore: [404] });
    await es.close();
  });

  describe('seedCatalogue', () => {
    const alias = freshAlias();
    let first = '';

    it('when 500 docs are seeded under a fresh alias, then a versioned index holds them behind the alias', async () => {
      const result = await seed(alias, 500);
      first = result.index;
      expect(first).to.match(new RegExp(`^${alias}-\\d{17}$`));
      expect(result.previous).to.deep.equal([]);
      expect(await aliasTargets(alias)).to.deep.equal([first]);
      expect((await es.count({ index: alias })).count).to.equal(500);
      const stored = await es.get<WallpaperDocument>({ index: alias, id: '123' });
      expect(unstamped(stored._source)).to.deep.equal(storedSource(generateWallpaper(123, 42, IMAGES)));
      expect(stored._source).to.have.property('change_seq').that.is.a('number');
      const settings = await es.indices.getSettings({ index: first, name: 'index.refresh_interval' });
      expect(settings[first]?.settings?.index?.refresh_interval).to.equal(readIndexDefinition().settings.refresh_interval);
    });

    it('when seeding again while readers query the alias, then the alias moves in one step and every read sees 500 docs', async () => {
      const counts: number[] = [];
      let seeding = true;
      const reader = (async () => {
        while (seeding) counts.push((await es.count({ index: alias })).count);
      })();
      const result = await seed(alias, 500, { seed: 43 }).finally(() => (seeding = false));
      await reader;
      expect(result.previous).to.deep.equal([first]);
      expect(await aliasTargets(alias)).to.deep.equal([result.index]);
      expect(counts.length).to.be.greaterThan(0);
      expect(new Set(counts)).to.deep.equal(new Set([500]));
      expect(unstamped((await es.get<WallpaperDocument>({ index: alias, id: '1' }))._source)).to.deep.equal(
        storedSource(generateWallpaper(1, 43, IMAGES)),
      );
      expect(await indexExists(first), 'kept: within keep=2').to.equal(true);
    });

    it('when a third seed runs with keep 2, then the oldest index is pruned and the two newest remain', async () => {
      const result = await seed(alias, 500, { seed: 44 });
      expect(result.pruned).to.deep.equal([first]);
      expect(await indexExists(first)).to.equal(false);
      const listed = await listVersionedIndices(es, alias);
      expect(listed).to.have.lengthOf(2);
      expect(listed[0]).to.include({ name: result.index, live: true, docs: 500 });
      expect(listed[1]?.live).to.equal(false);
    });
  });

  describe('bulkLoad', () => {
    const alias = freshAlias();

    it('when documents violate the strict mapping, then each failure is reported with id and reason and the rest are indexed', async () => {
      const index = await createVersionedIndex(es, alias);
      const docs: WallpaperDocument[] = [...generateWallpapers({ count: 20, seed: 1, imageBaseUrl: IMAGES })];
      docs[4] = { ...docs[4], created_at: 'yesterday' } as WallpaperDocument;
      docs[9] = { ...docs[9], downloads: 'lots' } as unknown as WallpaperDocument;
      const result = await bulkLoad(es, index, docs, { batchSize: 7 });
      await finishLoading(es, index);
      expect(result.indexed).to.equal(18);
      expect(result.failed.map((f) => f.id)).to.have.members([5, 10]);
      const byId = new Map(result.failed.map((f) => [f.id, f]));
      expect(byId.get(5)?.reason).to.match(/created_at/);
      expect(byId.get(10)?.reason).to.match(/downloads/);
      expect(byId.get(10)?.status).to.equal(400);
      expect((await es.count({ index })).count).to.equal(18);
    });

    it('when the source is async and batches are small, then every document is indexed with concurrency bounded', async () => {
      const index = await createVersionedIndex(es, alias);
      let inFlight = 0;
      let peak = 0;
      const original = es.bulk.bind(es);
      const counting = new Proxy(es, {
        get(target, key, receiver) {
          if (key !== 'bulk') return Reflect.get(target, key, receiver);
          return async (...args: Parameters<typeof original>) => {
            peak = Math.max(peak, ++inFlight);
            try {
              return await original(...args);
            } finally {
              inFlight--;
            }
          };
        },
      });
      async function* source() {
        for (const doc of generateWallpapers({ count: 1234, seed: 2, imageBaseUrl: IMAGES })) yield doc;
      }
      const progress: number[] = [];
      const result = await bulkLoad(counting, index, source(), { batchSize: 100, concurrency: 3, onProgress: (p) => progress.push(p.indexed) });
      await finishLoading(es, index);
      expect(result).to.include({ indexed: 1234 });
      expect(result.failed).to.deep.equal([]);
      expect(peak).to.be.within(2, 3);
      expect(progress.at(-1)).to.equal(1234);
      expect((await es.count({ index })).count).to.equal(1234);
    });
  });

  describe('bulkLoad past the request size Elasticsearch takes', () => {
    it('when 10,000 wallpapers of 10,000-character descriptions are one batch, then they go as several requests and all are indexed', async function () {
      // Some 115 MB as one request, past http.max_content_length (100 MB): it had been refused with 413.
      this.timeout(120_000);
      const index = await createVersionedIndex(es, freshAlias());
      const words = 'aurora over a frozen lake under the northern sky ';
      const description = words.repeat(Math.ceil(10_000 / words.length)).slice(0, 10_000);
      const sizes: number[] = [];
      const measuring = new Proxy(es, {
        get(target, key, receiver) {
          if (key !== 'bulk') return Reflect.get(target, key, receiver);
          return (params: { operations: unknown[] }, options: unknown) => {
            const line = (op: unknown) => (typeof op === 'string' ? op : JSON.stringify(op));
            sizes.push(params.operations.reduce((sum: number, op) => sum + Buffer.byteLength(line(op)) + 1, 0));
            return es.bulk(params as never, options as never);
          };
        },
      });
      function* documents() {
        for (const doc of generateWallpapers({ count: 10_000, seed: 3, imageBaseUrl: IMAGES })) yield { ...doc, description };
      }
      const result = await bulkLoad(measuring, index, documents(), { batchSize: 10_000 });
      await finishLoading(es, index);
      expect(result).to.include({ indexed: 10_000 });
      expect(result.failed).to.deep.equal([]);
      expect(
        sizes.reduce((a, b) => a + b, 0),
        'more than Elasticsearch takes in one request',
      ).to.be.above(100 * 1024 * 1024);
      expect(Math.max(...sizes)).to.be.at.most(MAX_BULK_BYTES);
      expect((await es.count({ index })).count).to.equal(10_000);
      await es.indices.delete({ index });
    });
  });

  describe('a failed seed', () => {
    const alias = freshAlias();

    it('when a document fails to index, then SeedError lists it, the alias is unchanged and the new index is deleted', async () => {
      const live = (await seed(alias, 50)).index;
      const docs = [...generateWallpapers({ count: 50, seed: 5, imageBaseUrl: IMAGES })];
      docs[30] = { ...docs[30], created_at: 'yesterday' } as WallpaperDocument;
      let created = '';
      const error = await seed(alias, 50, { documents: docs, onIndexCreated: (index) => (created = index) }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(SeedError);
      const failure = error as SeedError;
      expect(failure.failed).to.have.lengthOf(1);
      expect(failure.failed[0]).to.include({ id: 31, status: 400 });
      expect(failure.failed[0]?.reason).to.match(/created_at/);
      expect(await aliasTargets(alias)).to.deep.equal([live]);
      expect(failure.discarded).to.equal(true);
      expect(await indexExists(created)).to.equal(false);
    });
  });

  describe('index administration', () => {
    const alias = freshAlias();

    it('when a seed goes live, then its index is merged to one segment after, and the result says how long that took', async () => {
      const result = await seed(freshAlias(), 400, { batchSize: 50 });
      expect(result.compaction).to.have.property('seconds').that.is.a('number');
      const segments = await es.cat.segments({ index: result.index, format: 'json' });
      expect(segments.length).to.equal(1);
      const unmerged = await seed(freshAlias(), 400, { batchSize: 50, forceMerge: false });
      expect(unmerged.compaction).to.equal(null);
    });

    it('when a merge cannot happen or is interrupted, then it is reported, not thrown: the index it was for stays as it is', async () => {
      const compaction = await compactIndex(es, `${RUN}-no-such-index`);
      expect(compaction)
        .to.have.property('error')
        .that.matches(/no such index|index_not_found/);
      const live = await seed(freshAlias(), 50, { forceMerge: false });
      expect(await compactIndex(es, live.index, AbortSignal.abort()), 'an interrupt stops the wait').to.have.property('error');
    });

    it('when two indices are created in the same millisecond, then the second gets a numeric suffix', async () => {
      const now = new Date('2026-01-02T03:04:05.678Z');
      const a = await createVersionedIndex(es, alias, { now });
      const b = await createVersionedIndex(es, alias, { now });
      expect(a).to.equal(`${alias}-20260102030405678`);
      expect(b).to.equal(`${alias}-20260102030405678-2`);
    });

    it('when the live index is older than keep allows, then prune deletes the others but never the live one', async () => {
      // One after another: the creation dates, which order the indices, must follow the names.
      const names: string[] = [];
      for (const minute of [1, 2, 3]) names.push(await createVersionedIndex(es, alias, { now: new Date(Date.UTC(2027, 0, 1, 0, minute)) }));
      // Complete, as indices that were live once are; a `building` one would be pruned first as abandoned.
      await Promise.all(names.map((name) => markIndexState(es, name, 'complete')));
      await swapAlias(es, alias, names[0] as string);
      await es.indices.create({ index: `${alias}-archive` });
      const listed = await listVersionedIndices(es, alias);
      expect(listed.map((i) => i.name)).not.to.include(`${alias}-archive`);
      expect(listed.filter((i) => i.live).map((i) => i.name)).to.deep.equal([names[0]]);
      const pruned = await pruneOldIndices(es, alias, 1);
      expect(pruned).to.not.include(names[0]);
      expect(await indexExists(names[0] as string)).to.equal(true);
      expect(await indexExists(`${alias}-archive`)).to.equal(true);
      expect((await listVersionedIndices(es, alias)).map((i) => i.name)).to.have.lengthOf(2);
    });
  });

  describe('scripts/seed.ts', () => {
    it('when run with --count 300, then it exits 0 and the alias holds 300 docs', async () => {
      const alias = freshAlias();
      const run = runSeedScript(['--count', '300', '--seed', '9'], { INDEX_ALIAS: alias, ELASTICSEARCH_URL: ES_URL });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.match(/loaded 300\/300 docs in/);
      expect(run.stderr).to.match(/live: 300 docs in .*\nseed: merged \S+ to one segment in \d+\.\ds, after it went live/);
      expect((await es.count({ index: alias })).count).to.equal(300);
    });

    it('when run with --if-absent over a catalogue, then it leaves it as it is; under a fresh alias, then it seeds', async () => {
      const alias = freshAlias();
      const env = { INDEX_ALIAS: alias, ELASTICSEARCH_URL: ES_URL };
      const first = runSeedScript(['--count', '20', '--if-absent'], env);
      expect(first.status, first.stderr).to.equal(0);
      const before = Object.keys(await es.indices.getAlias({ name: alias }));
      const again = runSeedScript(['--count', '30', '--if-absent'], env);
      expect(again.status, again.stderr).to.equal(0);
      expect(again.stderr).to.include(`seed: alias ${alias} already holds 20 wallpapers in ${before[0]}; left as it is (--if-absent)`);
      expect(Object.keys(await es.indices.getAlias({ name: alias }))).to.deep.equal(before);
      expect((await es.count({ index: alias })).count).to.equal(20);
    });

    it('when run with --if-absent while another run holds the lock over a catalogue, then it finds the catalogue and is done', async () => {
      const alias = freshAlias();
      const env = { INDEX_ALIAS: alias, ELASTICSEARCH_URL: ES_URL };
      expect(runSeedScript(['--count', '10'], env).status).to.equal(0);
      const redis = await readyRedis();
      try {
        await redis.set(
          lockKey(alias),
          JSON.stringify({ command: 'import', host: 'elsewhere', pid: 1, since: new Date().toISOString() }),
          'PX',
          30_000,
        );
        const run = runSeedScript(['--count', '10', '--if-absent'], env);
        expect(run.status, run.stderr).to.equal(0);
        expect(run.stderr).to.include('already holds 10 wallpapers');
      } finally {
        await redis.del(lockKey(alias));
        redis.disconnect();
      }
    });

    it('when run with --if-absent over an alias on two indices, then it refuses, naming them, as the API could serve neither', async () => {
      const alias = freshAlias();
      const env = { INDEX_ALIAS: alias, ELASTICSEARCH_URL: ES_URL };
      expect(runSeedScript(['--count', '10'], env).status).to.equal(0);
      const [live] = Object.keys(await es.indices.getAlias({ name: alias }));
      await es.indices.create({ index: `${alias}-extra` });
      await es.indices.putAlias({ index: `${alias}-extra`, name: alias });
      const run = runSeedScript(['--count', '10', '--if-absent'], env);
      expect(run.status).to.equal(1);
      expect(run.stderr).to.include(`alias ${alias} points at 2 indices (${[live!, `${alias}-extra`].sort().join(', ')}), and the API serves one`);
    });

    it('when stopped with SIGTERM while it loads, then it deletes its index, releases the lock and leaves the alias, exit 143', async () => {
      // It had died at once, leaving a building index and its lock (review).
      const alias = freshAlias();
      const child = spawn(process.execPath, [...nodeArgsFor('scripts/seed.ts'), '--count', '2000000', '--batch-size', '500'], {
        cwd: ROOT,
        env: { ...process.env, INDEX_ALIAS: alias, ELASTICSEARCH_URL: ES_URL },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      while (!/created /.test(stderr)) await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGTERM');
      expect(await exited, stderr).to.equal(143);
      expect(stderr).to.include('SIGTERM received: stopping and cleaning up');
      expect(stderr).to.match(new RegExp(`interrupted by SIGTERM; alias ${alias} left unchanged, ${alias}-\\d{17} deleted`));
      expect(Object.keys(await es.indices.get({ index: `${alias}-2*`, expand_wildcards: ['open', 'closed'] }))).to.deep.equal([]);
      const run = runSeedScript(['--count', '10'], { INDEX_ALIAS: alias, ELASTICSEARCH_URL: ES_URL });
      expect(run.status, `the lock was released: ${run.stderr}`).to.equal(0);
    });

    it('when --count is not a positive integer, then it exits 2 with a clear message', () => {
      const run = runSeedScript(['--count', 'many'], { ELASTICSEARCH_URL: ES_URL });
      expect(run.status).to.equal(2);
      expect(run.stderr).to.match(/--count must be an integer/);
    });

    it('when Elasticsearch is unreachable, then it exits 1 with a one-line error', () => {
      const run = runSeedScript(['--count', '10'], { ELASTICSEARCH_URL: 'http://127.0.0.1:1' });
      expect(run.status).to.equal(1);
      expect(run.stderr.trim().split('\n')).to.have.lengthOf(1);
      expect(run.stderr).to.match(/cannot reach Elasticsearch at http:\/\/127\.0\.0\.1:1/);
    });
  });
});
