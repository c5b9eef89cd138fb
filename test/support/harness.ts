import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { Redis } from 'ioredis';
import type Koa from 'koa';
import { createApp } from '../../src/app.js';
import { type Clients, buildServices } from '../../src/services.js';
import { readIndexDefinition } from '../../src/catalogue/admin/index-admin.js';
import { versionedIndexName } from '../../src/wallpapers/store/index-names.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { createRedis } from '../../src/infra/redis.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { toIndexDocument } from '../../src/wallpapers/store/index-document.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { contractViolations } from './contract.js';

const MAPPING = readIndexDefinition();

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * Configuration for tests: the environment's endpoints, silent logs, and a
 * failed-authentication limit high enough that suites sharing 127.0.0.1 never
 * trip it unless a test lowers it on purpose.
 */
export type ConfigOverrides = Partial<Omit<Config, 'rateLimit'>> & { rateLimit?: Partial<Config['rateLimit']> };

export function testConfig(overrides: ConfigOverrides = {}, rateLimit: Partial<Config['rateLimit']> = {}): Config {
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  return {
    ...base,
    // As in a deployment of several instances: every app of a test signs cursors alike.
    cursorSecret: base.cursorSecret ?? 'test-cursor-secret-of-at-least-32-chars',
    ...overrides,
    rateLimit: { ...base.rateLimit, authFailureLimit: 1_000_000, ...overrides.rateLimit, ...rateLimit },
  };
}

export function connectEs(url = testConfig().elasticsearchUrl, requestTimeoutMs = 10_000): Client {
  return createEsClient({ url, requestTimeoutMs });
}

export function connectRedis(url = testConfig().redisUrl, commandTimeoutMs = 2000): Redis {
  const redis = createRedis({ url, commandTimeoutMs });
  redis.on('error', () => undefined);
  if (!(redis instanceof Redis)) throw new Error('the test suite runs on a single Redis (REDIS_URL with one URL)');
  return redis;
}

/** A Redis connection that has finished connecting (commands are not queued before that). */
export async function readyRedis(url = testConfig().redisUrl): Promise<Redis> {
  const redis = connectRedis(url);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

/** A concrete index from the real mapping, loaded with `docs` and refreshed, behind `alias`. */
let fixtureIndices = 0;

export async function createIndexWithDocs(es: Client, alias: string, docs: WallpaperDocument[], mapping: object = MAPPING): Promise<string> {
  // Named as the catalogue tools name an index (a cursor of a build before must name one so).
  const index = `${versionedIndexName(alias)}-${++fixtureIndices}`;
  await es.indices.create({ index, ...mapping });
  // An older mapping (a test of an upgrade) may predate some derived fields, and refuses unknown fields.
  const known = new Set(Object.keys((mapping as { mappings?: { properties?: object } }).mappings?.properties ?? {}));
  const stored = (doc: WallpaperDocument) =>
    Object.fromEntries(Object.entries(toIndexDocument(doc, { suggest: known.has('suggest') })).filter(([field]) => known.has(field)));
  if (docs.length > 0) {
    const operations = docs.flatMap((doc) => [{ index: { _index: index, _id: String(doc.id) } }, stored(doc)]);
    const res = await es.bulk({ operations, refresh: true });
    if (res.errors) throw new Error(`fixture load failed: ${JSON.stringify(res.items.find((i) => i.index?.error))}`);
  }
  await es.indices.updateAliases({ actions: [{ add: { index, alias } }] });
  return index;
}

/** A stored _source less its change stamp (change_seq, changed_at, content_hash), which each load gives anew. */
export function unstamped(source: object | undefined): Record<string, unknown> {
  const { change_seq: _seq, changed_at: _at, content_hash: _hash, ...rest } = (source ?? {}) as Record<string, unknown>;
  return rest;
}

/** A document as the index keeps it in _source: what loaders derive, less what the mapping leaves out of _source. */
export function storedSource(doc: WallpaperDocument): Record<string, unknown> {
  const excluded = new Set((MAPPING as { mappings: { _source: { excludes: string[] } } }).mappings._source.excludes);
  return Object.fromEntries(Object.entries(toIndexDocument(doc)).filter(([field]) => !excluded.has(field)));
}

/** Deletes the test's indices by name (Elasticsearch's default refuses wildcard deletes). */
export async function dropIndicesOf(es: Client, alias: string): Promise<void> {
  const found = await es.indices.get({ index: `${alias}-*`, ignore_unavailable: true, allow_no_indices: true });
  const names = Object.keys(found);
  if (names.length > 0) await es.indices.delete({ index: names.join(','), ignore_unavailable: true });
}

export async function createKey(redis: Redis, tier = 'free', account = uniqueName('acct')) {
  return createKeyStore(redis).createKey({ tier, account });
}

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

export async function listen(app: Koa): Promise<RunningApp> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface AppDependencies extends Clients {
  config: Config;
}

/** The real app on the real backends (the default services), listening on a free port. */
export async function startApp({ config, ...clients }: AppDependencies): Promise<RunningApp> {
  return listen(createApp(buildServices(config, clients), config));
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string;
  method?: string;
  headers?: Record<string, string>;
  /** Every response is checked against the OpenAPI document unless a test opts out. */
  contract?: boolean;
}

/** Contract violations seen by any request() in this process (also thrown at once). */
export const contractFailures: string[] = [];

export async function request(
  baseUrl: string,
  path: string,
  { key, method = 'GET', headers = {}, contract = true }: RequestOptions = {},
): Promise<TestResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(key !== undefined ? { Authorization: `Bearer ${key}` } : {}), ...headers },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (contract) {
    const violations = contractViolations({ method, path, status: res.status, headers: res.headers, body });
    if (violations.length > 0) {
      contractFailures.push(...violations);
      throw new Error(`response breaks the OpenAPI contract (${method} ${path}):\n  ${violations.join('\n  ')}`);
    }
  }
  return { status: res.status, headers: res.headers, body, text };
}
