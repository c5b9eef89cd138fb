import { Cluster, Redis } from 'ioredis';
import { UNIX_SCHEME, parseSocketUrl } from '../config.js';

/** A single Redis or a Redis Cluster: every command the service sends keeps to one slot. */
export type RedisClient = Redis | Cluster;

export interface RedisOptions {
  /** One Redis URL, or the seed nodes of a Redis Cluster separated by commas. */
  url: string;
  commandTimeoutMs: number;
  lazyConnect?: boolean;
}

// How often a Redis Cluster client rereads the slot map: a hung master's slots move to its replica
// after cluster-node-timeout (2 s here), and the client follows within this.
const SLOTS_REFRESH_MS = 1000;

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
  // A Redis on this host by its socket file: not a speed setting, the API's CPU a request measured
  // the same either way (bench/results/profile/README.md, "Redis by its socket").
  if (url.startsWith(UNIX_SCHEME)) return new Redis({ ...options, ...parseSocketUrl(url) });
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
    // A master that dies closes its connections, and the client asks for the slot map at once. One
    // that hangs (SIGSTOP, a frozen VM) keeps them open: without a periodic refresh the client sends
    // its slots there until it wakes, though its replica took over seconds before. What it then
    // acknowledged on waking, before it learned it is a replica, is lost with its data: a fault run
    // read 21 requests over a key's limit that way (case f, docs/faults.md).
    slotsRefreshInterval: SLOTS_REFRESH_MS,
    // Every command goes to its slot's master, except a script declared read-only (the only
    // commands that carry the flag): it goes to a replica, for when the master does not answer
    // (see verifyOnReplica in the admission store). No replica left: the master.
    scaleReads: (nodes: Redis[], command: { isReadOnly?: boolean }) => (command.isReadOnly === true && nodes.length > 1 ? nodes.slice(1) : nodes[0]),
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

/**
 * A client for a command-line run, connected before it is returned. ioredis fails a first
 * connection with "Connection is closed."; why it closed (ENOENT, ECONNREFUSED, WRONGPASS, NOAUTH)
 * came as an error event before, so that is the error thrown, for the operator to read.
 */
export async function connectedRedis(options: Omit<RedisOptions, 'lazyConnect'>): Promise<RedisClient> {
  const redis = createRedis({ ...options, lazyConnect: true });
  let reason: Error | undefined;
  redis.on('error', (err: Error) => {
    reason = err;
  });
  try {
    await redis.connect();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw reason ?? error;
  }
}
