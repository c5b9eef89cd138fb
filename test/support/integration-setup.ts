import { type StackEndpoints, resolveStack } from './stack.js';

let stack: StackEndpoints | undefined;

async function assertReachable(url: string, what: string, probe: () => Promise<unknown>): Promise<void> {
  try {
    await probe();
  } catch (err) {
    throw new Error(
      `${what} is not reachable at ${url} (${err instanceof Error ? err.message : String(err)}). ` +
        'Start the local stack with `npm run stack:start`, or set ELASTICSEARCH_URL / REDIS_URL.',
      { cause: err },
    );
  }
}

export async function mochaGlobalSetup(): Promise<void> {
  stack = await resolveStack();
  process.env['ELASTICSEARCH_URL'] = stack.elasticsearchUrl;
  process.env['REDIS_URL'] = stack.redisUrl;
  await assertReachable(stack.elasticsearchUrl, 'Elasticsearch', async () => {
    const res = await fetch(`${stack!.elasticsearchUrl}/_cluster/health`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  });
  const { Redis } = await import('ioredis');
  const redis = new Redis(stack.redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  await assertReachable(stack.redisUrl, 'Redis', () => redis.connect().then(() => redis.ping()));
  redis.disconnect();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stack?.stop();
}
