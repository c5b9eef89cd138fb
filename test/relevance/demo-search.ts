import type { Client } from '@elastic/elasticsearch';
import { createApp } from '../../src/app.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { seedCatalogue } from '../../src/catalogue/ingest/seed-catalogue.js';
import type { Config } from '../../src/config.js';
import type { RedisClient } from '../../src/infra/redis.js';
import { buildServices } from '../../src/services.js';
import { type Wallpaper, toWallpaper } from '../../src/wallpapers/wallpaper.js';
import { createIndexWithDocs, listen } from '../support/harness.js';
import type { SearchAnswer } from './evaluate.js';

/** The demo catalogue of `npm run up`: 10,000 wallpapers from seed 42. */
export const DEMO = { count: 10_000, seed: 42 } as const;

export interface DemoSearch {
  catalogue: Wallpaper[];
  search(q: string): Promise<SearchAnswer>;
  close(): Promise<void>;
}

/**
 * Loads the demo catalogue behind `alias` with the current mapping, and serves searches through
 * the real app in process (real Elasticsearch and Redis), as a client would send them.
 */
export async function demoSearch(es: Client, redis: RedisClient, config: Config, alias: string, mapping?: object): Promise<DemoSearch> {
  const documents = [...generateWallpapers({ ...DEMO, imageBaseUrl: config.imageBaseUrl })];
  // Another mapping (to compare analysis chains) is loaded as it is; the project's goes through the seed.
  if (mapping) await createIndexWithDocs(es, alias, documents, mapping);
  else await seedCatalogue(es, { alias, ...DEMO, imageBaseUrl: config.imageBaseUrl, keep: 1 });
  const catalogue = documents.map(toWallpaper);
  const { apiKey } = await createKeyStore(redis).createKey({ tier: 'premium', account: `relevance-${alias}` });
  const app = await listen(createApp(buildServices({ ...config, indexAlias: alias }, { es, redis }), config));
  return {
    catalogue,
    async search(q: string) {
      const res = await fetch(`${app.url}/v1/search?per_page=10&q=${encodeURIComponent(q)}`, { headers: { Authorization: `Bearer ${apiKey}` } });
      if (res.status === 400) return { total: 0, hits: [] };
      if (!res.ok) throw new Error(`search ${JSON.stringify(q)} answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { data: Wallpaper[]; meta: { total_items: number } };
      return { total: body.meta.total_items, hits: body.data };
    },
    close: () => app.close(),
  };
}
