import type { Client } from '@elastic/elasticsearch';
import type { RedisClient } from '../../infra/redis.js';

export type CheckResult = 'ok' | 'failing';

export interface Checks {
  elasticsearch: CheckResult;
  alias: CheckResult;
  redis: CheckResult;
  serving: 'ok' | 'draining';
}

export interface ReadinessReport {
  ready: boolean;
  checks: Checks;
}

export interface Readiness {
  /** The backend checks, at most `cacheMs` old; concurrent callers share one round of checks. */
  check(): Promise<ReadinessReport>;
  /** From now on the process reports not ready: it is shutting down and wants no new traffic. */
  drain(): void;
}

export interface ReadinessOptions {
  es: Client;
  redis: RedisClient;
  alias: string;
  cacheMs?: number;
  now?: () => number;
}

async function probe(call: () => Promise<boolean>): Promise<CheckResult> {
  try {
    return (await call()) ? 'ok' : 'failing';
  } catch {
    return 'failing';
  }
}

/**
 * Ready means: Elasticsearch answers and is not red, the alias points at exactly one index (two
 * would mean a half-finished or broken switch), Redis answers, and the process is not draining.
 * Load balancers poll this often, so the backend checks run at most once per `cacheMs` however
 * many probes arrive; each is bounded by its client's timeout.
 */
export function createReadiness({ es, redis, alias, cacheMs = 1000, now = Date.now }: ReadinessOptions): Readiness {
  let draining = false;
  let cached: { at: number; checks: Promise<Omit<Checks, 'serving'>> } | null = null;

  function backendChecks(): Promise<Omit<Checks, 'serving'>> {
    const at = now();
    if (cached && at - cached.at < cacheMs) return cached.checks;
    const checks = Promise.all([
      probe(async () => (await es.cluster.health({ timeout: '1s' })).status !== 'red'),
      probe(async () => {
        const response = await es.indices.getAlias({ name: alias }, { ignore: [404], meta: true });
        return response.statusCode !== 404 && Object.keys(response.body).length === 1;
      }),
      probe(async () => (await redis.ping()) === 'PONG'),
    ]).then(([elasticsearch, aliasOk, redisOk]) => ({ elasticsearch, alias: aliasOk, redis: redisOk }));
    cached = { at, checks };
    return checks;
  }

  return {
    async check() {
      const checks: Checks = { ...(await backendChecks()), serving: draining ? 'draining' : 'ok' };
      const ready = checks.elasticsearch === 'ok' && checks.alias === 'ok' && checks.redis === 'ok' && checks.serving === 'ok';
      return { ready, checks };
    },
    drain() {
      draining = true;
    },
  };
}
