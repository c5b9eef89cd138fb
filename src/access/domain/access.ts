import { Cluster } from 'ioredis';
import type { RateLimitConfig, RedisBreakerConfig } from '../../config.js';
import { createCircuitBreaker } from '../../infra/circuit-breaker.js';
import type { Logger } from '../../infra/logger.js';
import type { Metrics } from '../../infra/metrics.js';
import type { RedisClient } from '../../infra/redis.js';
import { type Admission, type UsageReading, createAdmission, createUsageReader } from './admission.js';
import { createAdmissionStore } from '../store/admission-store.js';
import { createAuthFailureLimiter } from '../store/auth-failures.js';
import { createWithdrawalLog } from '../store/withdrawal-log.js';
import { type WithdrawnKeys, createWithdrawnKeys } from './withdrawn-keys.js';
import { watchWithdrawals } from './withdrawal-watch.js';

/**
 * Who may use the API and how much: authentication and quota together, as the HTTP edge asks
 * for them. A key is admitted, limited or invalid; a client that fails too often is blocked.
 */
export interface Access {
  admit(apiKey: string): Promise<Admission>;
  /** The key's quota as the headers report it, admitting nothing (GET /v1/usage). */
  usage(apiKey: string): Promise<UsageReading>;
  /**
   * The account of a key Redis verified for this process (one of the last 10,000 it served), when
   * Redis's last report left the account quota, asking nothing; else null.
   */
  accountWithRoom(apiKey: string): string | null;
  /**
   * Settles once the admission under way of a key this process has not verified yet is decided;
   * null when none is. Asks nothing.
   */
  firstAnswer(apiKey: string): Promise<void> | null;
  /** Seconds a client must wait because it failed authentication too often, or 0. */
  blockedFor(client: string): number;
  /** Records one failed authentication; seconds to wait when this one crossed the limit, else 0. */
  recordFailure(client: string): Promise<number>;
}

export interface AccessOptions {
  redis: RedisClient;
  rateLimit: RateLimitConfig;
  redisBreaker: RedisBreakerConfig;
  logger: Logger;
  metrics: Metrics;
}

// One watch per Redis client, however many Access share it (tests build many apps on one client).
const withdrawnOf = new WeakMap<RedisClient, WithdrawnKeys>();

/**
 * What this process hears of withdrawn keys (withdrawal-watch.ts), read on a connection of its
 * own: the request path's carries one command a request. Stops when the client ends.
 */
function withdrawnKeysOf(redis: RedisClient, logger: Logger): WithdrawnKeys {
  const known = withdrawnOf.get(redis);
  if (known) return known;
  const withdrawn = createWithdrawnKeys();
  if (redis.status === 'end') return withdrawn;
  withdrawnOf.set(redis, withdrawn);
  // A Cluster's copy rereads the slot map less often than the request path's: a read that meets a
  // moved slot is redirected, and rereads it then.
  const reader = redis instanceof Cluster ? redis.duplicate([], { slotsRefreshInterval: 5_000 }) : redis.duplicate();
  reader.on('error', () => undefined);
  if (reader.status === 'wait') reader.connect().catch(() => undefined);
  const watch = watchWithdrawals({
    log: createWithdrawalLog(reader),
    ready: () => reader.status === 'ready',
    onWithdrawal: (withdrawal) => withdrawn.note(withdrawal),
    onGap: () => withdrawn.lostSome(),
    logger,
  });
  redis.once('end', () => {
    withdrawnOf.delete(redis);
    watch.stop();
    reader.disconnect();
  });
  return withdrawn;
}

/** Access on Redis: every call on the request path goes through one circuit breaker (see createCircuitBreaker). */
export function createAccess({ redis, rateLimit, redisBreaker, logger, metrics }: AccessOptions): Access {
  const breaker = createCircuitBreaker({
    backend: 'redis',
    ...redisBreaker,
    probe: () => redis.ping(),
    onOpen: (reason) => {
      metrics.redisCircuitOpen.set(1);
      logger.warn('redis circuit open: not asking Redis until a probe answers', {
        reason: reason instanceof Error ? reason.message : String(reason),
        probeEveryMs: redisBreaker.openMs,
      });
    },
    onClose: () => {
      metrics.redisCircuitOpen.set(0);
      logger.info('redis circuit closed: a probe answered');
    },
  });
  const store = createAdmissionStore(redis, { windowMs: rateLimit.windowSeconds * 1000, tiers: rateLimit.tiers });
  const admit = createAdmission({ store, breaker, config: rateLimit, logger, metrics, withdrawn: withdrawnKeysOf(redis, logger) });
  const usage = createUsageReader({ store, breaker, config: rateLimit, logger, metrics });
  const failures = createAuthFailureLimiter(redis, rateLimit, breaker);
  return {
    admit,
    accountWithRoom: admit.accountWithRoom,
    firstAnswer: admit.firstAnswer,
    usage,
    blockedFor: (client) => failures.blockedFor(client),
    recordFailure: (client) => failures.recordFailure(client),
  };
}
