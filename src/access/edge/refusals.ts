import type { Metrics } from '../../infra/metrics.js';
import { requestContext } from '../../infra/request-context.js';

/** Why a request got 429: the label of `wallpapers_rate_limit_rejections_total`. */
export type RefusalReason = 'quota' | 'fallback_quota' | 'account_busy' | 'auth_failures' | 'usage_reads';

/**
 * A 429 counted by its reason, in the metric and on the request's log lines (its access log line
 * among them): every refusal says `rate_limit_exceeded` to the client, and an operator reading one
 * client's lines tells a spent quota from a full line of waiting requests by this.
 */
export function countRefusal(metrics: Metrics, reason: RefusalReason): void {
  metrics.rateLimitRejections.inc({ reason });
  const context = requestContext.getStore();
  if (context) context.refusal = reason;
}
