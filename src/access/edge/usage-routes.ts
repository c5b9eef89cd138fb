import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Principal } from '../domain/admission.js';
import type { Quota } from '../quota.js';
import { requestContext } from '../../infra/request-context.js';
import { type AccessGuardOptions, authenticationRefusal, presentedKey } from './access-guard.js';
import { forbidden } from '../../http/http-error.js';
import { compileParams } from '../../http/query-validator.js';
import { parametersSchema } from '../../openapi/parameters.js';
import { quotaHeaders } from './rate-limit-headers.js';
import { createRouter } from '../../http/router.js';
import { usageReadsCapped } from './refusals.js';

// The contract gives the endpoint no parameters; its rule is compiled from it like every route's,
// so what a client sent is refused by name, never silently dropped.
const parseUsageQuery = compileParams<Record<string, never>>(parametersSchema('/v1/usage', 'get', 'query'));

interface UsageState {
  principal: Principal;
  quota: Quota;
}

/**
 * The key check of GET /v1/usage, attached to its own router: it authenticates like the /v1 guard
 * (failures counted per client) but reads the quota instead of spending it. Reads have a small
 * cap of their own per key, answered with 429 and Retry-After.
 */
function usageGuard(options: AccessGuardOptions) {
  const { access, metrics } = options;
  const refuse = authenticationRefusal(options);
  const keyOf = presentedKey(options);
  return async function guard(ctx: Context, next: Next): Promise<void> {
    const token = await keyOf(ctx);
    const reading = await access.usage(token);
    if (reading.outcome === 'invalid') return refuse(ctx, forbidden());
    const context = requestContext.getStore();
    if (context) context.keyId = reading.principal.keyId;
    if (reading.outcome === 'capped') {
      throw usageReadsCapped(metrics, reading.retryAfterSeconds);
    }
    (ctx.state as UsageState).principal = reading.principal;
    (ctx.state as UsageState).quota = reading.quota;
    await next();
  };
}

/** GET /v1/usage: the calling key's quota, the same numbers as the rate-limit headers, for free. */
export function usageRoutes(options: AccessGuardOptions & { prefix: string }): Router {
  const router = createRouter({ prefix: options.prefix });
  router.use(usageGuard(options));
  router.get('/usage', (ctx) => {
    const { quota } = ctx.state as UsageState;
    const headers = quotaHeaders(quota);
    ctx.set(headers);
    parseUsageQuery(ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      tier: quota.tier,
      limit: quota.limit,
      used: quota.limit - quota.remaining,
      remaining: quota.remaining,
      window: quota.windowSeconds,
      reset: Number(headers['X-RateLimit-Reset']),
    };
  });
  return router;
}
