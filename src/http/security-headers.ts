import type { Context, Next } from 'koa';

/** Set before anything else runs, so every response carries them, errors and 404s included. */
export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-Content-Type-Options', 'nosniff');
  await next();
}
