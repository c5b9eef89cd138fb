import type Router from '@koa/router';
import type { AccountQuota } from '../../access/store/admission-store.js';
import type { PortalKeys } from '../domain/portal-service.js';
import type { PortalKit } from './portal-kit.js';
import { usagePage } from './views.js';

/** The usage page: the quota as the API's headers would report it, and requests by hour. */
export function usageRoutes(
  router: Router,
  kit: PortalKit,
  { keys, quota, windowSeconds }: { keys: PortalKeys; quota: AccountQuota; windowSeconds: number },
): void {
  const { page, account, signedOf, signedIn } = kit;
  router.get('/usage', signedIn, async (ctx) => {
    const signed = signedOf(ctx);
    const [reading, hours] = await Promise.all([quota(signed.account.accountId), keys.hourlyUsage(signed.account.accountId)]);
    if (reading && 'cappedUntilMs' in reading) {
      const seconds = Math.max(1, Math.ceil((reading.cappedUntilMs - reading.nowMs) / 1000));
      ctx.set('Retry-After', String(seconds));
      return page(ctx, 429, usagePage(account(signed), null, { readAgainInSeconds: seconds }));
    }
    const usage = reading && {
      limit: reading.limit,
      remaining: reading.remaining,
      resetSeconds: Math.max(0, Math.ceil((reading.resetMs - reading.nowMs) / 1000)),
      windowSeconds,
      hours,
    };
    page(ctx, usage ? 200 : 503, usagePage(account(signed), usage));
  });
}
