import Koa from 'koa';
import type { Client } from '@elastic/elasticsearch';
import type { RedisClient } from './infra/redis.js';
import type { Config } from './config.js';
import { accessLog } from './http/access-log.js';
import { compression } from './http/compression.js';
import { conditionalGet, etagPerEncoding } from './http/conditional-get.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { routeFallbacks } from './http/fallbacks.js';
import { withRequestId } from './infra/request-context.js';
import { createRouter } from './http/router.js';
import { securityHeaders } from './http/security-headers.js';
import { createCircuitBreaker } from './infra/circuit-breaker.js';
import { instrumentElasticsearch } from './infra/es-metrics.js';
import { requireApiKey } from './http/require-api-key.js';
import { type Logger, silentLogger } from './infra/logger.js';
import { type Metrics, createMetrics } from './infra/metrics.js';
import { type Readiness, createReadiness } from './ops/readiness.js';
import { opsRoutes } from './ops/routes.js';
import { createAdmission } from './access/admission.js';
import { createAuthFailureLimiter } from './access/auth-failures.js';
import { enforceQuota } from './http/enforce-quota.js';
import { createWallpaperRepository } from './wallpapers/es-repository.js';
import { wallpaperRoutes } from './wallpapers/routes.js';

export interface AppDependencies {
  config: Config;
  es: Client;
  redis: RedisClient;
  logger?: Logger;
  metrics?: Metrics;
  /** The server passes its own, to drain it at shutdown. */
  readiness?: Readiness;
}

const API_PREFIX = '/v1';

/** Builds the Koa application from its dependencies; opens no sockets and reads no environment. */
export function createApp({ config, es, redis, logger = silentLogger, metrics = createMetrics(), readiness }: AppDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  instrumentElasticsearch(es, metrics);

  const redisBreaker = createCircuitBreaker({
    backend: 'redis',
    ...config.redisBreaker,
    probe: () => redis.ping(),
    onOpen: (reason) => {
      metrics.redisCircuitOpen.set(1);
      logger.warn('redis circuit open: not asking Redis until a probe answers', {
        reason: reason instanceof Error ? reason.message : String(reason),
        probeEveryMs: config.redisBreaker.openMs,
      });
    },
    onClose: () => {
      metrics.redisCircuitOpen.set(0);
      logger.info('redis circuit closed: a probe answered');
    },
  });
  const admit = createAdmission({ redis, breaker: redisBreaker, config: config.rateLimit, logger, metrics });
  const authFailures = createAuthFailureLimiter(redis, config.rateLimit, redisBreaker);
  const authenticate = requireApiKey({ admit, authFailures, metrics, trustProxyHops: config.trustProxyHops });
  const quota = enforceQuota(metrics);
  const repository = createWallpaperRepository(es, config.indexAlias, logger, {
    cache: { ...config.responseCache, onLookup: (result) => metrics.cacheLookups.inc({ result }) },
    batching: { ...config.elasticsearchBatching, timeoutMs: config.elasticsearchTimeoutMs, onBatch: (operation, size) => metrics.elasticsearchBatchSize.observe({ operation }, size) },
  });

  const ops = opsRoutes({ readiness: readiness ?? createReadiness({ es, redis, alias: config.indexAlias }) });
  // The key check and the quota belong to the /v1 router itself: they run for every request that
  // reaches one of its routes, whatever else the path looked like on the way in.
  const v1 = createRouter({ prefix: API_PREFIX });
  v1.use(authenticate, quota);
  v1.use(wallpaperRoutes({ repository, maxResultWindow: config.maxResultWindow }).routes());

  app.use(securityHeaders);
  app.use(withRequestId);
  app.use(accessLog(logger, metrics));
  app.use(corsPolicy());
  app.use(etagPerEncoding);
  app.use(compression());
  app.use(errorHandler(logger));
  app.use(conditionalGet);
  app.use(routeFallbacks);
  app.use(ops.routes());
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}
