import type { Context, Next } from 'koa';
import { methodNotAllowed, notFound } from './http-error.js';

/**
 * Turns what the router leaves unanswered into the error model: an unmatched
 * path is 404, a matched path with another method is 405 with `Allow`. The
 * router says 501 to a method it does not know (ACL, PROPFIND), whether a route
 * has the path or not: with no method to allow, the path is unknown, and 404
 * as for DELETE.
 */
export async function routeFallbacks(ctx: Context, next: Next): Promise<void> {
  await next();
  const allow = ctx.response.get('Allow');
  if (ctx.status === 501 && !allow) {
    ctx.status = 404;
    // An empty Allow would say the path allows no method at all (RFC 9110 §10.2.1).
    ctx.remove('Allow');
  }
  if (ctx.status === 405 || ctx.status === 501) {
    throw methodNotAllowed(allow ? allow.split(/,\s*/) : ['GET', 'HEAD']);
  }
  if (ctx.status === 404 && ctx.body == null) {
    throw notFound(`No route for ${ctx.method} ${ctx.path}`);
  }
}
