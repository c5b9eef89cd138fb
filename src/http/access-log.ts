import type { Context, Next } from 'koa';
import type { Logger } from '../infra/logger.js';
import type { Metrics } from '../infra/metrics.js';
import { loggablePath } from './logged-path.js';

interface MatchedLayer {
  path: string;
  methods: string[];
}

/**
 * The route pattern that served the request (e.g. `/v1/wallpapers/:id`), from the layers the
 * routers matched, so a request refused by a router's own middleware (401, 429) is still
 * labelled with its route. A method the route does not take (OPTIONS, answered with Allow; DELETE,
 * 405) is labelled with the route of its path too: `unmatched`, which had counted them, now means
 * that no route has the path, as a scan of made-up paths shows. The methods a route takes, not
 * its middleware's (which take none), name it.
 */
export function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { matched?: MatchedLayer[] }).matched;
  const route = matched?.findLast((layer) => layer.methods.includes(ctx.method)) ?? matched?.findLast((layer) => layer.methods.length > 0);
  return route?.path ?? (ctx.state as { [ANSWERED_FOR]?: string })[ANSWERED_FOR] ?? 'unmatched';
}

const ANSWERED_FOR = Symbol('route answered for');

/**
 * Names the route a request was answered for by middleware that runs before the routers (a CORS
 * preflight), which leaves no matched layers behind.
 */
export function answeredFor(ctx: Context, route: string): void {
  (ctx.state as { [ANSWERED_FOR]?: string })[ANSWERED_FOR] = route;
}

// The methods a label keeps; any other of the 34 Node accepts (ACL, PROPFIND, …) is `other`, so
// a client trying them all adds one series per route and status, not 27 (a review's 2,000
// requests had taken the request counter from 6 series to 106).
const LABELLED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** One log line and one histogram observation per request, after the error handler has set the final status. */
export function accessLog(logger: Logger, metrics: Metrics) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(ctx);
      const labels = { method: LABELLED_METHODS.has(ctx.method) ? ctx.method : 'other', route, status: String(ctx.status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
      logger.info('request', {
        method: ctx.method,
        path: loggablePath(ctx.path),
        route,
        status: ctx.status,
        duration_ms: Math.round(seconds * 1e6) / 1e3,
      });
    }
  };
}
