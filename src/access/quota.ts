export interface Quota {
  tier: string;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Epoch ms at which the oldest counted requests leave the window. */
  resetMs: number;
  nowMs: number;
}

/** Whole seconds until capacity returns, never less than 1 once exhausted. */
export function secondsUntilReset(quota: Quota): number {
  return Math.max(1, Math.ceil((quota.resetMs - quota.nowMs) / 1000));
}

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
    'X-RateLimit-Reset': String(Math.ceil(quota.nowMs / 1000) + resetIn),
    'RateLimit-Policy': `"${quota.tier}";q=${quota.limit};w=${quota.windowSeconds}`,
    RateLimit: `"${quota.tier}";r=${quota.remaining};t=${resetIn}`,
  };
}
