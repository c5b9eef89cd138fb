import { Cluster, Redis } from 'ioredis';

/** A single Redis or a Redis Cluster: every command the service sends keeps to one slot. */
export type RedisClient = Redis | Cluster;

export interface RedisOptions {
  /** One Redis URL, or the seed nodes of a Redis Cluster separated by commas. */
  url: string;
  commandTimeoutMs: number;
  lazyConnect?: boolean;
}

/**
 * Commands fail after a bounded time and are not queued while disconnected,
 * so a dead Redis turns into a prompt error rather than a hung request.
 */
export function createRedis({ url, commandTimeoutMs, lazyConnect = false }: RedisOptions): RedisClient {
  const options = {
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 1000),
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  };
  const urls = url.split(',');
  if (urls.length === 1) return new Redis(url, options);
  const seeds = urls.map((seed) => {
    const parsed = new URL(seed);
    return { host: parsed.hostname, port: Number(parsed.port || 6379) };
  });
  const first = new URL(urls[0]!);
  // A failover moves slots: MOVED and ASK are followed, a CLUSTERDOWN answer is retried shortly
  // after, and the slot map is refreshed; each command still fails within its own timeout.
  return new Cluster(seeds, {
    lazyConnect,
    enableOfflineQueue: false,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: Math.max(commandTimeoutMs, 1000),
    clusterRetryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
    redisOptions: {
      ...options,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
    },
  });
}
