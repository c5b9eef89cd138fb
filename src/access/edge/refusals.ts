import type { AccountLanes } from '../domain/account-lanes.js';
import { HttpError } from '../../http/http-error.js';
import type { Metrics } from '../../infra/metrics.js';
import { requestContext } from '../../infra/request-context.js';
import { USAGE_CAP } from '../store/sliding-window-lua.js';
import { retryMessage } from './rate-limit-headers.js';

/**
 * Why a request got 429: the label of `wallpapers_rate_limit_rejections_total`. `quota_repeated`
 * is Redis's refusal of the key moments ago, given again without asking it.
 */
export const REFUSAL_REASONS = ['quota', 'quota_repeated', 'fallback_quota', 'account_busy', 'auth_failures', 'usage_reads'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

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

/** 429 for an account whose lanes and line are full: the official clients wait a second and ask again. */
export function accountBusy(lanes: AccountLanes, metrics: Metrics): HttpError {
  countRefusal(metrics, 'account_busy');
  return new HttpError(
    429,
    'rate_limit_exceeded',
    `Too many requests of this account at once: ${lanes.perAccount} in progress and ${lanes.waitingPerAccount} waiting. ` +
      'Send fewer at a time; please try again in 1 second',
    { 'Retry-After': '1' },
  );
}

/**
 * 429 for a key that read GET /v1/usage more than USAGE_CAP.reads times in its minute, said apart
 * from a spent quota (which a dashboard polling the route would otherwise report).
 */
export function usageReadsCapped(metrics: Metrics, retryAfterSeconds: number): HttpError {
  countRefusal(metrics, 'usage_reads');
  return new HttpError(
    429,
    'rate_limit_exceeded',
    `Usage read more than ${USAGE_CAP.reads} times a minute; the hourly quota is untouched. Please read it again in ${retryMessage(retryAfterSeconds)}`,
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
