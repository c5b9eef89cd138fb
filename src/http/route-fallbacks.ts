import type { Context, Next } from 'koa';
import { methodNotAllowed, notFound } from './http-error.js';

/**
 * The router says 501 to a method it does not know (ACL, PROPFIND), whether a route has the path
 * or not. With no method to allow, the path is unknown: 404, as for DELETE, without the empty
 * Allow, which would say the path allows no method at all (RFC 9110 §10.2.1). Returns the Allow
 * the router set, for a 405.
 */
export function unknownMethodsAnswered(ctx: Context): string {
  const allow = ctx.response.get('Allow');
  if (ctx.status === 501 && !allow) {
    ctx.status = 404;
    ctx.remove('Allow');
  }
  return allow;
}

/**
 * The methods a path answers, in one order wherever they are told (an OPTIONS, a 405, the 405 to
 * CONNECT before the app): the router's own, GET first, and OPTIONS, which every path a route
 * serves answers, so it is among the methods the path supports (RFC 9110 §10.2.1). The router
 * says `HEAD, GET` and leaves OPTIONS out.
 */
export function allowedMethods(routerAllow: string): string[] {
  const methods = new Set(['GET', 'HEAD', ...routerAllow.split(/,\s*/).filter((method) => method !== '')]);
  methods.delete('OPTIONS');
  return [...methods, 'OPTIONS'];
}

/**
 * Turns what the router leaves unanswered into the error model: an unmatched
 * path is 404, a matched path with another method is 405 with `Allow`.
 */
export async function routeFallbacks(ctx: Context, next: Next): Promise<void> {
  await next();
  const allow = unknownMethodsAnswered(ctx);
  if (ctx.status === 405 || ctx.status === 501) throw methodNotAllowed(allowedMethods(allow));
  if (ctx.method === 'OPTIONS' && allow) ctx.set('Allow', allowedMethods(allow).join(', '));
  if (ctx.status === 404 && ctx.body == null) {
    throw notFound(`No route for ${ctx.method} ${ctx.path}`);
  }
}
