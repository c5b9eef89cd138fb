import type { Context, Next } from 'koa';
import { methodNotAllowed, notFound } from './http-error.js';

/**
 * Turns what the router leaves unanswered into the error model: an unmatched
 * path is 404, a matched path with another method is 405 with `Allow`.
 */
export async function routeFallbacks(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.status === 405 || ctx.status === 501) {
    const allow = ctx.response.get('Allow');
    throw methodNotAllowed(allow ? allow.split(/,\s*/) : ['GET', 'HEAD']);
  }
  if (ctx.status === 404 && ctx.body == null) {
    throw notFound(`No route for ${ctx.method} ${ctx.path}`);
  }
}
