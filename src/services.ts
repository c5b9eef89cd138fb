import type { Client } from '@elastic/elasticsearch';
import { createAccess } from './access/access.js';
import type { AppServices } from './app.js';
import type { Config } from './config.js';
import { instrumentElasticsearch } from './infra/es-metrics.js';
import { type Logger, silentLogger } from './infra/logger.js';
import { type Metrics, createMetrics } from './infra/metrics.js';
import type { RedisClient } from './infra/redis.js';
import { type Readiness, createReadiness } from './ops/readiness.js';
import { withResponseCache } from './wallpapers/cached-repository.js';
import { createEsRepository } from './wallpapers/es-repository.js';

export interface Clients {
  es: Client;
  redis: RedisClient;
  logger?: Logger;
  metrics?: Metrics;
  /** The server passes its own, to drain it at shutdown. */
  readiness?: Readiness;
}

/**
 * The default services: the wallpaper repository on Elasticsearch behind the response cache
 * (a decorator, applied here), access on Redis, and readiness over both.
 */
export function buildServices(config: Config, { es, redis, logger = silentLogger, metrics = createMetrics(), readiness }: Clients): AppServices {
  instrumentElasticsearch(es, metrics);
  const repository = withResponseCache(
    createEsRepository(es, config.indexAlias, {
      logger,
      batching: {
        ...config.elasticsearchBatching,
        timeoutMs: config.elasticsearchTimeoutMs,
        onBatch: (operation, size) => metrics.elasticsearchBatchSize.observe({ operation }, size),
      },
    }),
    { es, alias: config.indexAlias, logger, ...config.responseCache, onLookup: (result) => metrics.cacheLookups.inc({ result }) },
  );
  return {
    repository,
    access: createAccess({ redis, rateLimit: config.rateLimit, redisBreaker: config.redisBreaker, logger, metrics }),
    readiness: readiness ?? createReadiness({ es, redis, alias: config.indexAlias }),
    logger,
    metrics,
  };
}
