import type Router from '@koa/router';
import type { PortalService } from '../domain/portal-service.js';
import { DEVICE_COOKIE, type PortalKit, SESSION_COOKIE } from './portal-kit.js';
import { accountPage } from './views.js';

/**
 * The account page: a new password, given the current one, and "sign out everywhere else". Either
 * ends the account's other sessions: a cookie or a password that leaked stops working now, not at
 * the session's end (helper-96 found no way for an owner to end another browser's session).
 */
export function accountRoutes(router: Router, kit: PortalKit, service: PortalService): void {
  const { page, field, account, signedOf, checkedPost, signedIn, sessionForm, client } = kit;
  const form = [signedIn, checkedPost, sessionForm];
  const others = (n: number) => `${n} other browser${n === 1 ? '' : 's'}`;

  router.get('/account', signedIn, (ctx) => page(ctx, 200, accountPage(account(signedOf(ctx)))));

  router.post('/account/password', ...form, async (ctx) => {
    const signed = signedOf(ctx);
    const chrome = account(signed);
    const result = await service.changePassword(
      {
        accountId: signed.account.accountId,
        email: signed.account.name,
        token: ctx.cookies.get(SESSION_COOKIE)!,
        device: ctx.cookies.get(DEVICE_COOKIE),
      },
      field(ctx, 'current'),
      field(ctx, 'password'),
      client(ctx),
    );
    switch (result.outcome) {
      case 'changed':
        return page(ctx, 200, accountPage(chrome, { notice: `Your password is changed, and ${others(result.signedOut)} signed out.` }));
      case 'invalid':
        return page(ctx, 400, accountPage(chrome, { field: 'password', error: result.message }));
      case 'refused':
        return page(ctx, 401, accountPage(chrome, { field: 'current', error: 'The current password is not right.' }));
      case 'changed-elsewhere':
        return page(
          ctx,
          409,
          accountPage(chrome, {
            error: 'The password was changed in another browser a moment ago, so this change was not made. Sign in again with the new password.',
          }),
        );
      case 'throttled': {
        ctx.set('Retry-After', String(result.retryAfterSeconds));
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        return page(ctx, 429, accountPage(chrome, { error: `Too many tries. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }));
      }
    }
  });

  router.post('/account/sign-out-others', ...form, async (ctx) => {
    const signed = signedOf(ctx);
    const ended = await service.signOutOthers(signed.account.accountId, ctx.cookies.get(SESSION_COOKIE)!);
    page(ctx, 200, accountPage(account(signed), { notice: `${others(ended)} signed out; this one stays signed in.` }));
  });
}
