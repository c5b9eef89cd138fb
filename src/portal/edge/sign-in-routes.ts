import type Router from '@koa/router';
import type { PortalService } from '../domain/portal-service.js';
import { DEVICE_DAYS } from '../store/device-store.js';
import { SESSION_IDLE_SECONDS } from '../store/session-store.js';
import { DEVICE_COOKIE, type PortalKit, SESSION_COOKIE } from './portal-kit.js';
import { PORTAL, signInPage, signUpPage } from './views.js';

/** Signing up, in and out: the anonymous forms, each checked for its origin and its token. */
export function signInRoutes(router: Router, kit: PortalKit, service: PortalService): void {
  const { page, field, formToken, client, setCookie, checkedPost, anonymousForm, signedIn, sessionForm } = kit;

  router.get('/sign-in', (ctx) => page(ctx, 200, signInPage(formToken(ctx))));
  router.post('/sign-in', checkedPost, anonymousForm, async (ctx) => {
    const email = field(ctx, 'email');
    const result = await service.signIn(email, field(ctx, 'password'), client(ctx), ctx.cookies.get(DEVICE_COOKIE));
    if (result.outcome === 'signed-in') {
      setCookie(ctx, SESSION_COOKIE, result.token, SESSION_IDLE_SECONDS);
      setCookie(ctx, DEVICE_COOKIE, result.device, DEVICE_DAYS * 86400);
      ctx.status = 303;
      return ctx.redirect(`${PORTAL}/keys`);
    }
    if (result.outcome === 'throttled') {
      ctx.set('Retry-After', String(result.retryAfterSeconds));
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return page(
        ctx,
        429,
        signInPage(formToken(ctx), {
          email,
          error: `Too many ${result.hashes ? 'sign-ins from your network' : 'failed sign-ins'}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        }),
      );
    }
    page(ctx, 401, signInPage(formToken(ctx), { email, error: 'The email or password is not right, or the account is disabled.' }));
  });

  router.get('/sign-up', (ctx) => page(ctx, 200, signUpPage(formToken(ctx))));
  router.post('/sign-up', checkedPost, anonymousForm, async (ctx) => {
    const email = field(ctx, 'email');
    const result = await service.signUp(email, field(ctx, 'password'), client(ctx));
    if (result.outcome === 'invalid') return page(ctx, 400, signUpPage(formToken(ctx), { email, error: result.message, field: result.field }));
    if (result.outcome === 'throttled') {
      ctx.set('Retry-After', String(result.retryAfterSeconds));
      const error = result.hashes ? 'Too many sign-ins and sign-ups from your network.' : 'Too many accounts were created from your network.';
      return page(ctx, 429, signUpPage(formToken(ctx), { email, error: `${error} Try again later.` }));
    }
    // The same answer whether or not the email was registered already (no account enumeration).
    page(
      ctx,
      200,
      signInPage(formToken(ctx), {
        email,
        notice: 'Done. If this email was not registered yet, its account is ready: sign in below. If it was, nothing changed.',
      }),
    );
  });

  router.post('/sign-out', signedIn, checkedPost, sessionForm, async (ctx) => {
    await service.signOut(ctx.cookies.get(SESSION_COOKIE)!);
    setCookie(ctx, SESSION_COOKIE, null, 0);
    ctx.status = 303;
    ctx.redirect(`${PORTAL}/sign-in`);
  });
}
