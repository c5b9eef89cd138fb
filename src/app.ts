import Koa from 'koa';
import Router from '@koa/router';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { accessLog } from './http/access-log.js';
import { compression } from './http/compression.js';
import { conditionalGet, etagPerEncoding } from './http/conditional-get.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { routeFallbacks } from './http/fallbacks.js';
import { withRequestId } from './http/request-context.js';
import { instrumentElasticsearch } from './infra/es-metrics.js';
import { requireApiKey } from './keys/require-api-key.js';
import { type Logger, silentLogger } from './logger.js';
import { type Metrics, createMetrics } from './metrics.js';
import { opsRoutes } from './ops/routes.js';
import { createAdmission } from './rate-limit/admission.js';
import { createAuthFailureLimiter } from './rate-limit/auth-failure-limiter.js';
import { enforceQuota } from './rate-limit/enforce-quota.js';
import { createWallpaperRepository } from './wallpapers/repository.js';
import { wallpaperRoutes } from './wallpapers/routes.js';

export interface AppDependencies {
  config: Config;
  es: Client;
  redis: Redis;
  logger?: Logger;
  metrics?: Metrics;
}

const API_PREFIX = '/v1';
const PUBLIC_API_PATHS = new Set(['/v1/openapi.json']);

function needsApiKey(path: string): boolean {
  return (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) && !PUBLIC_API_PATHS.has(path);
}

/** Builds the Koa application from its dependencies; opens no sockets and reads no environment. */
export function createApp({ config, es, redis, logger = silentLogger, metrics = createMetrics() }: AppDependencies): Koa {
  const app = new Koa({ proxy: config.trustProxy });
  app.silent = true;
  instrumentElasticsearch(es, metrics);

  const admit = createAdmission({ redis, config: config.rateLimit, logger, metrics });
  const authFailures = createAuthFailureLimiter(redis, config.rateLimit);
  const authenticate = requireApiKey(admit, authFailures, metrics);
  const quota = enforceQuota(metrics);
  const repository = createWallpaperRepository(es, config.indexAlias, logger, {
    cache: { ...config.responseCache, onLookup: (result) => metrics.cacheLookups.inc({ result }) },
    batching: { ...config.elasticsearchBatching, timeoutMs: config.elasticsearchTimeoutMs, onBatch: (operation, size) => metrics.elasticsearchBatchSize.observe({ operation }, size) },
  });

  const ops = opsRoutes({ es, redis, alias: config.indexAlias, metrics, serveMetrics: config.metricsPort === 0 });
  const v1 = new Router({ prefix: API_PREFIX });
  const wallpapers = wallpaperRoutes({ repository, maxResultWindow: config.maxResultWindow });
  v1.use(wallpapers.routes());

  app.use(withRequestId);
  const resolveRoute = (path: string, method: string) =>
    v1.match(path, method === 'HEAD' ? 'GET' : method).pathAndMethod.find((layer) => layer.methods.length > 0)?.path as string | undefined;
  app.use(accessLog(logger, metrics, resolveRoute));
  app.use(corsPolicy());
  app.use(etagPerEncoding);
  app.use(compression());
  app.use(errorHandler(logger));
  app.use(conditionalGet);
  app.use(routeFallbacks);
  app.use(ops.routes());
  app.use((ctx, next) => (needsApiKey(ctx.path) ? authenticate(ctx, () => quota(ctx, next)) : next()));
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}
