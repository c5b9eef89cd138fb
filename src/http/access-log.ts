import type { Context, Next } from 'koa';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';

/** The route pattern for a path that was refused before routing (e.g. 401, 429), or undefined. */
export type RouteResolver = (path: string, method: string) => string | undefined;

export function routeOf(ctx: Context, resolve: RouteResolver): string {
  return (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? resolve(ctx.path, ctx.method) ?? 'unmatched';
}

/** One log line and one histogram observation per request, after the error handler has set the final status. */
export function accessLog(logger: Logger, metrics: Metrics, resolve: RouteResolver) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(ctx, resolve);
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
