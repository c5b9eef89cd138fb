import { type Quota, secondsUntilReset } from '../quota.js';
import { HttpError } from '../../http/http-error.js';

export function retryMessage(seconds: number): string {
  if (seconds < 120) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/**
 * X-RateLimit-* and the IETF draft pair (draft-ietf-httpapi-ratelimit-headers-10).
 * X-RateLimit-Reset is the Unix time, in seconds rounded up, at which the oldest
 * counted requests leave the window: when remaining is 0, the earliest moment a
 * request will be allowed again; otherwise when capacity next returns.
 */
export function quotaHeaders(quota: Quota): Record<string, string> {
  const resetIn = secondsUntilReset(quota);
  return {
    'X-RateLimit-Limit': String(quota.limit),
    'X-RateLimit-Remaining': String(quota.remaining),
    // From the reset time itself, so every answer in the same window reports the same second.
    'X-RateLimit-Reset': String(Math.max(Math.ceil(quota.resetMs / 1000), Math.ceil(quota.nowMs / 1000) + 1)),
    'RateLimit-Policy': `"${quota.tier}";q=${quota.limit};w=${quota.windowSeconds}`,
    RateLimit: `"${quota.tier}";r=${quota.remaining};t=${resetIn}`,
  };
}

export function tooManyRequests(retryAfterSeconds: number, headers: Record<string, string> = {}): HttpError {
  return new HttpError(429, 'rate_limit_exceeded', `Rate limit exceeded. Please try again in ${retryMessage(retryAfterSeconds)}`, {
    ...headers,
    'Retry-After': String(retryAfterSeconds),
  });
}

/**
 * A client past its failed authentications, with a code of its own: a client that sent no key or a
 * wrong one would otherwise read a spent quota into `rate_limit_exceeded`, wait it out and ask
 * again with the same key. Only failing requests get it (a valid key is served), so it always
 * means "the key this request carries is not accepted": the official clients raise it at once.
 */
export const tooManyFailures = (retryAfterSeconds: number): HttpError =>
  new HttpError(
    429,
    'too_many_auth_failures',
    `Too many failed authentications from this address: requests without a valid API key are refused for ${retryMessage(retryAfterSeconds)}. Check the API key`,
    { 'Retry-After': String(retryAfterSeconds) },
  );
