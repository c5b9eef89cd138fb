import { type Cluster, Redis } from 'ioredis';

/** A single Redis or a Redis Cluster: every command the service sends keeps to one slot. */
export type RedisClient = Redis | Cluster;

export interface RedisOptions {
  url: string;
  commandTimeoutMs: number;
  lazyConnect?: boolean;
}

/**
 * Commands fail after a bounded time and are not queued while disconnected,
 * so a dead Redis turns into a prompt error rather than a hung request.
 */
export function createRedis({ url, commandTimeoutMs, lazyConnect = false }: RedisOptions): Redis {
  return new Redis(url, {
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 1000),
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
}
