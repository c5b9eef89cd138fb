import type { Context, Next } from 'koa';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';

export function routeOf(ctx: Context): string {
  return (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
}

/** One log line and one histogram observation per request, after the error handler has set the final status. */
export function accessLog(logger: Logger, metrics: Metrics) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(ctx);
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
      logger.info('request', {
        method: ctx.method,
        path: ctx.path,
        route,
        status: ctx.status,
        duration_ms: Math.round(seconds * 1e6) / 1e3,
      });
    }
  };
}
