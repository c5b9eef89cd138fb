import { Counter, Registry } from 'prom-client';

/** Process metrics, one registry per app so tests do not share counters. */
export function createMetrics() {
  const registry = new Registry();
  return {
    registry,
    rateLimitRejections: new Counter({
      name: 'wallpapers_rate_limit_rejections_total',
      help: 'Requests refused with 429, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    rateLimitFallbacks: new Counter({
      name: 'wallpapers_rate_limit_fallback_total',
      help: 'Requests admitted by the in-process limiter because Redis did not answer',
      registers: [registry],
    }),
    redisFailures: new Counter({
      name: 'wallpapers_redis_failures_total',
      help: 'Redis calls that failed or timed out, by operation',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
