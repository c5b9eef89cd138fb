import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../../config.js';
import type { Quota } from '../quota.js';

/**
 * In-process, fixed-window insurance used only while Redis does not answer, and only for an
 * account whose last reported quota has reset (until then admission spends what Redis last said
 * remained). Each API instance counts on its own, so in a long outage a client may get up to the
 * tier limit per instance; that is the documented trade for staying up.
 */
export function createFallbackLimiter(config: RateLimitConfig) {
  const limiters = new Map(
    Object.entries(config.tiers).map(([tier, limit]) => [
      tier,
      new RateLimiterMemory({ points: limit, duration: config.windowSeconds, keyPrefix: `fallback-${tier}` }),
    ]),
  );

  return async function consume(accountId: string, tier: string): Promise<{ allowed: boolean; quota: Quota }> {
    const limiter = limiters.get(tier);
    const limit = config.tiers[tier] ?? 0;
    const nowMs = Date.now();
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = limiter ? await limiter.consume(accountId) : new RateLimiterRes(0, config.windowSeconds * 1000, 0);
      if (!limiter) allowed = false;
    } catch (rejection) {
      res = rejection as RateLimiterRes;
      allowed = false;
    }
    return {
      allowed,
      quota: {
        tier,
        limit,
        remaining: Math.max(0, res.remainingPoints),
        windowSeconds: config.windowSeconds,
        resetMs: nowMs + res.msBeforeNext,
        nowMs,
      },
    };
  };
}
