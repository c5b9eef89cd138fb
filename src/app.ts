import Koa from 'koa';
import Router from '@koa/router';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { errorHandler } from './http/error-handler.js';
import { routeFallbacks } from './http/fallbacks.js';
import { requireApiKey } from './keys/require-api-key.js';
import { type Logger, silentLogger } from './logger.js';
import { type Metrics, createMetrics } from './metrics.js';
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

function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/** Builds the Koa application from its dependencies; opens no sockets and reads no environment. */
export function createApp({ config, es, redis, logger = silentLogger, metrics = createMetrics() }: AppDependencies): Koa {
  const app = new Koa({ proxy: config.trustProxy });
  app.silent = true;

  const admit = createAdmission({ redis, config: config.rateLimit, logger, metrics });
  const authFailures = createAuthFailureLimiter(redis, config.rateLimit);
  const authenticate = requireApiKey(admit, authFailures, metrics);
  const quota = enforceQuota(metrics);
  const repository = createWallpaperRepository(es, config.indexAlias, logger);

  const v1 = new Router({ prefix: API_PREFIX });
  const wallpapers = wallpaperRoutes({ repository, maxResultWindow: config.maxResultWindow });
  v1.use(wallpapers.routes());

  app.use(errorHandler(logger));
  app.use(routeFallbacks);
  app.use((ctx, next) => (isApiPath(ctx.path) ? authenticate(ctx, () => quota(ctx, next)) : next()));
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}
