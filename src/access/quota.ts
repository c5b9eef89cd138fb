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
