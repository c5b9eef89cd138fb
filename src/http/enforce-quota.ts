import type { Context, Next } from 'koa';
import type { AuthState } from './require-api-key.js';
import type { Metrics } from '../infra/metrics.js';
import { quotaHeaders, secondsUntilReset } from '../access/quota.js';
import { tooManyRequests } from './too-many-requests.js';

/**
 * Puts the rate-limit headers on every authenticated response (set before the
 * handler runs, so errors keep them) and refuses with 429 when over quota.
 */
export function enforceQuota(metrics: Metrics) {
  return async function quota(ctx: Context, next: Next): Promise<void> {
    const { admission } = ctx.state as AuthState;
    const headers = quotaHeaders(admission.quota);
    ctx.set(headers);
    if (admission.outcome === 'limited') {
      metrics.rateLimitRejections.inc({ reason: admission.source === 'redis' ? 'quota' : 'fallback_quota' });
      throw tooManyRequests(secondsUntilReset(admission.quota), headers);
    }
    await next();
  };
}
