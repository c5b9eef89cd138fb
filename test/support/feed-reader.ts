import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { WATERMARK_ID, type Watermark, changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { toNdjson } from './catalogue-cli.js';
import type { Wallpaper } from '../../src/wallpapers/wallpaper.js';
import {
  type ConfigOverrides,
  type RunningApp,
  connectEs,
  createKey,
  dropIndicesOf,
  readyRedis,
  request,
  startApp,
  testConfig,
  uniqueName,
} from './harness.js';

export interface FeedItem {
  id: number;
  change: 'upsert' | 'delete';
  at: string;
  wallpaper?: Wallpaper & { tags?: string[] };
}

export interface Feed {
  data: FeedItem[];
  meta: { per_page: number; next_cursor: string; has_more: boolean };
}

/** Reads GET /v1/changes with the key `keyOf` gives at the time of the read (keys are made in `before`). */
export function feedReader(keyOf: () => string) {
  async function page(app: RunningApp, query = ''): Promise<Feed & { status: number; headers: Headers }> {
    const res = await request(app.url, `/v1/changes${query}`, { key: keyOf() });
    expect(res.status, res.text).to.equal(200);
    return { ...(res.body as Feed), status: res.status, headers: res.headers };
  }

  /** Every change after `cursor` (from the start when absent), page by page; and the cursor to keep. */
  async function walk(app: RunningApp, cursor?: string, perPage = 100): Promise<{ items: FeedItem[]; cursor: string; pages: number }> {
    const items: FeedItem[] = [];
    let pages = 0;
    for (;;) {
      const got = await page(app, `?per_page=${perPage}${cursor ? `&cursor=${cursor}` : ''}`);
      pages++;
      items.push(...got.data);
      cursor = got.meta.next_cursor;
      if (!got.meta.has_more) return { items, cursor, pages };
    }
  }

  return { page, walk };
}

/** The watermark as a build before histories writes it: without one. */
export async function rewrittenWithoutHistory(es: Client, index: string): Promise<void> {
  const mark = (await es.get<Watermark>({ index, id: WATERMARK_ID }))._source!;
  await es.index({
    index,
    id: WATERMARK_ID,
    document: { kind: 'watermark', change_seq: mark.change_seq, changed_at: mark.changed_at },
    refresh: true,
  });
}

/** The record as a build before histories left it: no history in its watermark or its mapping. */
export async function asBeforeHistories(es: Client, index: string): Promise<void> {
  await rewrittenWithoutHistory(es, index);
  await es.indices.putMapping({ index, _meta: {} });
}

/**
 * A feed suite's world, made in `before` and undone in `after`: the stack's Elasticsearch and
 * Redis, a premium key, a scratch folder, aliases of its own (dropped at the end) and APIs on them.
 */
export function feedSuite(prefix: string) {
  const es = connectEs(undefined, 60_000);
  const dir = mkdtempSync(join(tmpdir(), `wpc-${prefix}-`));
  const aliases: string[] = [];
  const apps: RunningApp[] = [];
  let redis: Redis;
  let key: string;

  before(async () => {
    redis = await readyRedis();
    key = (await createKey(redis, 'premium')).apiKey;
  });

  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    for (const alias of aliases) await dropIndicesOf(es, alias);
    await es.close();
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  function freshAlias(): string {
    const alias = uniqueName(`test-${prefix}`);
    aliases.push(alias);
    return alias;
  }

  async function apiOn(alias: string, overrides: ConfigOverrides = {}): Promise<RunningApp> {
    const app = await startApp({ config: testConfig({ ...overrides, indexAlias: alias }), es, redis });
    apps.push(app);
    return app;
  }

  let files = 0;
  /** The records as a new NDJSON file in the suite's directory, for an import to read. */
  function file(records: readonly unknown[]): string {
    const path = join(dir, `${++files}.ndjson`);
    writeFileSync(path, toNdjson(records));
    return path;
  }

  /** The last number the alias's change feed has given. */
  async function watermarkOf(alias: string): Promise<number> {
    return (await es.get<Watermark>({ index: changesIndexOf(alias), id: WATERMARK_ID }))._source!.change_seq;
  }

  return { es, dir, key: () => key, freshAlias, apiOn, file, watermarkOf };
}
