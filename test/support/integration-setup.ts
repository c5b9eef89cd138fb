import { compileScripts } from './compiled-scripts.js';
import { type StackEndpoints, resolveStack } from './stack.js';

let stack: StackEndpoints | undefined;

/**
 * A parallel run (`mocha --parallel`, as `npm test` runs this suite) gives each worker a Redis
 * database of its own: the stack's, then the ones below it. Counters kept by client address are
 * shared by every app on one database: a file that counts failed authentications from 127.0.0.1
 * was blocked early by another file's failures running beside it. Read here, in each worker,
 * before any test file asks for the URL; spawned scripts inherit it.
 */
export function redisUrlOfWorker(url: string, worker: string | undefined): string {
  if (worker === undefined) return url;
  const parsed = new URL(url);
  const base = Number(parsed.pathname.slice(1) || 0);
  parsed.pathname = `/${(((base - Number(worker)) % 16) + 16) % 16}`;
  return parsed.toString();
}

const inherited = process.env['REDIS_URL'];
if (inherited !== undefined) process.env['REDIS_URL'] = redisUrlOfWorker(inherited, process.env['MOCHA_WORKER_ID']);

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
  // Before any worker starts: they inherit where the compiled scripts are.
  await compileScripts();
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
