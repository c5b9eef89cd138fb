import Koa from 'koa';
import type { Metrics } from '../../infra/metrics.js';
import { createRouter } from '../../http/router.js';

/**
 * Prometheus metrics on a listener of their own (127.0.0.1 by default): they describe traffic,
 * keys' routes and backend health, which is for operators, so the public listener never serves
 * them and they carry no CORS headers.
 */
export function createMetricsApp(metrics: Metrics): Koa {
  const app = new Koa();
  const router = createRouter();
  router.get('/metrics', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  app.use(router.routes());
  return app;
}
