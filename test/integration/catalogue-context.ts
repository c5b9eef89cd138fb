import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import type { Config } from '../../src/config.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import {
  type ConfigOverrides,
  type RunningApp,
  connectEs,
  readyRedis,
  createIndexWithDocs,
  createKey,
  dropIndicesOf,
  startApp,
  testConfig,
  uniqueName,
} from '../support/harness.js';

export interface CatalogueContext {
  es: Client;
  redis: Redis;
  alias: string;
  config: Config;
  docs: WallpaperDocument[];
  key: string;
  app: RunningApp;
}

/** What the catalogue holds: the fixture wallpapers under the project's mapping unless told otherwise. */
export interface CatalogueSource {
  docs?: () => WallpaperDocument[];
  mapping?: object;
}

/**
 * Registers hooks that load the fixture catalogue behind a unique alias once
 * per file and build a fresh app (with a fresh key) for every test.
 */
export function useCatalogue(overrides: ConfigOverrides = {}, { docs = fixtureWallpapers, mapping }: CatalogueSource = {}): CatalogueContext {
  const ctx = {} as CatalogueContext;
  before(async () => {
    ctx.es = connectEs();
    ctx.redis = await readyRedis();
    ctx.alias = uniqueName('test-wallpapers');
    ctx.docs = docs();
    await createIndexWithDocs(ctx.es, ctx.alias, ctx.docs, mapping);
  });
  beforeEach(async () => {
    ctx.config = testConfig({ ...overrides, indexAlias: ctx.alias });
    ctx.key = (await createKey(ctx.redis)).apiKey;
    ctx.app = await startApp({ config: ctx.config, es: ctx.es, redis: ctx.redis });
  });
  afterEach(async () => {
    await ctx.app?.close();
  });
  after(async () => {
    await dropIndicesOf(ctx.es, ctx.alias);
    await ctx.es.close();
    ctx.redis.disconnect();
  });
  return ctx;
}
