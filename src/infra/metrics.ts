import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Process metrics, one registry per app so tests do not share counters. */
export function createMetrics({ defaults = false }: { defaults?: boolean } = {}) {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'wallpapers_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'wallpapers_http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    elasticsearchDuration: new Histogram({
      name: 'wallpapers_elasticsearch_request_duration_seconds',
      help: 'Elasticsearch call latency by operation and outcome',
      labelNames: ['operation', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    elasticsearchBatchSize: new Histogram({
      name: 'wallpapers_elasticsearch_batch_size',
      help: 'Gets per multi-get and searches per multi-search sent to Elasticsearch',
      labelNames: ['operation'] as const,
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    redisDuration: new Histogram({
      name: 'wallpapers_redis_command_duration_seconds',
      help: 'Redis call latency by operation and outcome',
      labelNames: ['operation', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'wallpapers_rate_limit_rejections_total',
      help: 'Requests refused with 429, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    inFlightRefusals: new Counter({
      name: 'wallpapers_in_flight_refusals_total',
      help: 'Requests answered 503 before the app because their connection (MAX_PIPELINED_PER_CONNECTION) or address (MAX_CONNECTIONS_PER_ADDRESS) already had as many in flight',
      labelNames: ['bound'] as const,
      registers: [registry],
    }),
    protocolRefusals: new Counter({
      name: 'wallpapers_protocol_refusals_total',
      help: 'Requests answered before the app for what HTTP itself refuses (never in wallpapers_http_requests_total): a malformed request, headers past 16 KB or too slow, no Host or several, CONNECT',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    legacyCursorReads: new Counter({
      name: 'wallpapers_cursor_legacy_reads_total',
      help: 'Cursors taken in the signed form issued before cursors were sealed (a walk or feed position saved across the upgrade)',
      registers: [registry],
    }),
    laneWaits: new Counter({
      name: 'wallpapers_account_lane_waits_total',
      help: 'Requests that waited for a lane because their account already had its share in flight (MAX_IN_FLIGHT_PER_ACCOUNT)',
      registers: [registry],
    }),
    laneWaiting: new Gauge({
      name: 'wallpapers_account_lane_waiting',
      help: 'Requests waiting now for a lane of their account (MAX_IN_FLIGHT_PER_ACCOUNT)',
      registers: [registry],
    }),
    rateLimitFallbacks: new Counter({
      name: 'wallpapers_rate_limit_fallback_total',
      help: 'Requests admitted by the in-process limiter because Redis did not answer',
      registers: [registry],
    }),
    rateLimitOverAdmitted: new Counter({
      name: 'wallpapers_rate_limit_over_admitted_total',
      help: 'Requests the in-process limiter admitted that Redis, told of them afterwards, found over the quota',
      registers: [registry],
    }),
    redisCircuitOpen: new Gauge({
      name: 'wallpapers_redis_circuit_open',
      help: '1 while the Redis circuit breaker is open (Redis not asked; admission falls back), else 0',
      registers: [registry],
    }),
    redisFailures: new Counter({
      name: 'wallpapers_redis_failures_total',
      help: 'Redis calls that failed or timed out, by operation',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'wallpapers_response_cache_lookups_total',
      help: 'In-process response cache lookups, by result (hit, miss, or bypass while freshness is unconfirmed)',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Times an async call into a histogram labelled with the operation and whether it succeeded. */
export async function timed<T>(histogram: Histogram<'operation' | 'outcome'>, operation: string, call: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer({ operation });
  try {
    const result = await call();
    end({ outcome: 'ok' });
    return result;
  } catch (err) {
    end({ outcome: 'error' });
    throw err;
  }
}
