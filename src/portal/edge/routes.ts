import compose from 'koa-compose';
import { loggablePath } from '../../http/logged-path.js';
import type { Context, Middleware, Next } from 'koa';
import type { AccountQuota } from '../../access/store/admission-store.js';
import { createRouter } from '../../http/router.js';
import { unknownMethodsAnswered } from '../../http/route-fallbacks.js';
import type { Logger } from '../../infra/logger.js';
import { COPY_JS, STYLE_CSS } from './assets.js';
import { FormError } from './form.js';
import { createPortalKit, SESSION_COOKIE } from './portal-kit.js';
import { signInRoutes } from './sign-in-routes.js';
import { keysRoutes } from './keys-routes.js';
import { usageRoutes } from './usage-routes.js';
import { accountRoutes } from './account-routes.js';
import type { PortalKeys, PortalService } from '../domain/portal-service.js';
import { BudgetFull } from '../../infra/work-budget.js';
import { PORTAL, messagePage } from './views.js';

// Nothing but the portal's own files; no inline script or style, no framing, forms post only here.
const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** What the portal is built from (see buildServices). */
export interface PortalServices {
  service: PortalService;
  keys: PortalKeys;
  quota: AccountQuota;
  windowSeconds: number;
  /**
   * The origins the portal's forms may be posted from (PUBLIC_ORIGIN). Empty: the address the
   * connection was made to, never the request's own Host header, which the client chooses.
   */
  publicOrigins: readonly string[];
}

export interface PortalOptions extends PortalServices {
  trustProxyHops: number;
  logger: Logger;
}

/** Whether a path is the portal's: its address, or any under it. */
const inPortal = (path: string) => path === PORTAL || path.startsWith(`${PORTAL}/`);

/**
 * The developer portal, mounted at /portal in the API's process and on its port (docs/portal.md
 * says why): every path there is the portal's, answered as a portal page, a path it has no page
 * for with its 404 page and a method a page does not take with its 405 page. It runs before the
 * API's CORS policy (app.ts): the API lets any origin read its answers, portal pages are not for
 * other sites.
 * Server-rendered pages; sessions in Redis behind an HttpOnly, SameSite=Lax cookie scoped to
 * /portal; every POST checked for its origin and a CSRF token.
 */
export function portalRoutes({ service, keys, quota, windowSeconds, trustProxyHops, publicOrigins, logger }: PortalOptions): Middleware {
  const router = createRouter({ prefix: PORTAL });

  const kit = createPortalKit({ service, trustProxyHops, publicOrigins });
  const { page, account } = kit;

  const portalPage = async (ctx: Context, next: Next) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
    } catch (err) {
      if (err instanceof FormError) return page(ctx, err.status, messagePage('The form could not be read', err.message));
      if (err instanceof BudgetFull) {
        ctx.set('Retry-After', String(err.retryAfterSeconds));
        return page(ctx, 503, messagePage('Busy', 'Too many sign-ins are being checked right now. Please try again in a moment.'));
      }
      // The client hung up, or was cut off for a body slower than the request timeout: no one to
      // answer, and nothing for an operator to look at (a client could write error lines at will).
      if (ctx.req.destroyed || ctx.req.socket.destroyed) {
        logger.info('portal request ended by its client', { path: loggablePath(ctx.path) });
        ctx.respond = false;
        return;
      }
      logger.error('portal request failed', { path: loggablePath(ctx.path), error: err instanceof Error ? err.message : String(err) });
      ctx.set('Retry-After', '5');
      page(ctx, 503, messagePage('Service unavailable', 'The portal cannot reach its data right now. Please try again in a few seconds.'));
    }
  };

  router.get('/assets/style.css', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = STYLE_CSS;
  });
  router.get('/assets/copy.js', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = COPY_JS;
  });

  signInRoutes(router, kit, service);
  keysRoutes(router, kit, { service, keys });
  usageRoutes(router, kit, { keys, quota, windowSeconds });
  accountRoutes(router, kit, service);

  // The portal's address itself, outside the prefixed router (which cannot match its bare prefix).
  const entry = createRouter();
  entry.get(PORTAL, (ctx) => {
    ctx.redirect(ctx.cookies.get(SESSION_COOKIE) ? `${PORTAL}/keys` : `${PORTAL}/sign-in`);
  });
  entry.use(router.routes());
  // A path the portal has no page for, shown with the chrome of whoever asks (signed in, their own).
  const notFound = async (ctx: Context) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const signed = token ? await service.resume(token) : null;
    page(ctx, 404, messagePage('Page not found', 'The portal has no such page.', signed ? account(signed) : {}));
  };
  const portal = compose([portalPage, entry.routes(), entry.allowedMethods(), notFound] as Middleware[]);
  return async (ctx, next) => {
    if (!inPortal(ctx.path)) {
      await next();
      return;
    }
    await portal(ctx, next);
    // A page asked with a method it does not take: the router said so (405 and Allow), on the 404
    // page; 501 for a method it does not know, on a page (Allow set) or none (the 404 page stands).
    const allow = unknownMethodsAnswered(ctx);
    if (ctx.status === 405 || ctx.status === 501) page(ctx, 405, messagePage('Method not allowed', `This page takes ${allow || 'GET'}.`));
  };
}
