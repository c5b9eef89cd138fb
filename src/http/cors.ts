import cors from '@koa/cors';
import type { Middleware } from 'koa';
import { answeredFor } from './access-log.js';

const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'ETag',
  // Paging's next page: a browser's fetch reads no header that is not listed here.
  'Link',
];

/**
 * Browser clients on any origin may GET with an Authorization header and read the rate-limit and
 * paging headers. `Access-Control-Allow-Origin: *` goes on every answer, as the contract says: an
 * OPTIONS that is no preflight (no Access-Control-Request-Method) @koa/cors leaves without it.
 *
 * A preflight is answered only for a path some route serves (`routeOf` names its pattern); for any
 * other it goes on to the routes, which say 404 as they do to a plain OPTIONS there. @koa/cors alone
 * would allow GET on `/nowhere`, telling a browser a path exists that every request to it then finds
 * missing. The preflight is counted under that route, as a plain OPTIONS is.
 */
export function corsPolicy({ routeOf }: { routeOf: (path: string) => string | undefined }): Middleware {
  const policy = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['Authorization', 'If-None-Match', 'X-Request-Id', 'Content-Type'],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  return async (ctx, next) => {
    if (ctx.method !== 'OPTIONS') {
      await policy(ctx, next);
      return;
    }
    const route = ctx.get('Access-Control-Request-Method') ? routeOf(ctx.path) : undefined;
    if (route === undefined) {
      ctx.set('Access-Control-Allow-Origin', '*');
      await next();
      return;
    }
    answeredFor(ctx, route);
    await policy(ctx, next);
  };
}
