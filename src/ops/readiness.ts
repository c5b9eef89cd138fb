import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';

export type CheckResult = 'ok' | 'failing';

export interface Readiness {
  ready: boolean;
  checks: { elasticsearch: CheckResult; alias: CheckResult; redis: CheckResult };
}

async function check(probe: () => Promise<boolean>): Promise<CheckResult> {
  try {
    return (await probe()) ? 'ok' : 'failing';
  } catch {
    return 'failing';
  }
}

/** Elasticsearch answering with the alias present, and Redis answering; each probe bounded by its client's timeout. */
export async function checkReadiness(es: Client, redis: Redis, alias: string): Promise<Readiness> {
  const [elasticsearch, aliasPresent, redisOk] = await Promise.all([
    check(async () => {
      const health = await es.cluster.health({ timeout: '1s' });
      return health.status !== 'red';
    }),
    check(() => es.indices.existsAlias({ name: alias })),
    check(async () => (await redis.ping()) === 'PONG'),
  ]);
  const checks = { elasticsearch, alias: aliasPresent, redis: redisOk };
  return { ready: Object.values(checks).every((c) => c === 'ok'), checks };
}
