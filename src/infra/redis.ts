import { Redis } from 'ioredis';

export interface RedisOptions {
  url: string;
  commandTimeoutMs: number;
  lazyConnect?: boolean;
}

/**
 * Commands fail after a bounded time and are not queued while disconnected,
 * so a dead Redis turns into a prompt error rather than a hung request.
 * Commands issued in the same turn of the event loop share one write (auto-pipelining):
 * under load many requests' admission scripts cost Redis and the API one read and one
 * write together, and each request still makes exactly one call.
 */
export function createRedis({ url, commandTimeoutMs, lazyConnect = false }: RedisOptions): Redis {
  return new Redis(url, {
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 1000),
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
}
