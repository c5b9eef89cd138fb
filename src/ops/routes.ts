import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import { createRouter } from '../http/router.js';
import type { Metrics } from '../metrics.js';
import { openApiDocument } from '../openapi/document.js';
import { DOCS_PATHS, docsAsset } from './docs-page.js';
import { checkReadiness } from './readiness.js';

export interface OpsRoutesOptions {
  es: Client;
  redis: Redis;
  alias: string;
  metrics: Metrics;
  /** False when metrics are served on their own port instead. */
  serveMetrics: boolean;
}

/** Endpoints that need no API key: health, readiness, metrics, the OpenAPI document and its rendered reference. */
export function opsRoutes({ es, redis, alias, metrics, serveMetrics }: OpsRoutesOptions): Router {
  const router = createRouter();

  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const { ready, checks } = await checkReadiness(es, redis, alias);
    ctx.set('Cache-Control', 'no-store');
    if (ready) {
      ctx.body = { status: 'ready', checks };
      return;
    }
    const failing = Object.entries(checks)
      .filter(([, v]) => v !== 'ok')
      .map(([k]) => k);
    ctx.status = 503;
    ctx.body = { error: 'service_unavailable', message: `Not ready: ${failing.join(', ')} failing`, status: 503, checks };
  });

  router.get('/v1/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openApiDocument;
  });

  router.get([...DOCS_PATHS], (ctx) => {
    const asset = docsAsset(ctx.path);
    if (!asset) return;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  if (serveMetrics) router.get('/metrics', metricsHandler(metrics));
  return router;
}

export function metricsHandler(metrics: Metrics) {
  return async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
