import { Redis } from 'ioredis';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { type Running, startApi, startRedis } from './processes.js';

/**
 * An API on `alias` with a Redis of its own and one key of a tier of its own: one client walking
 * a million wallpapers needs more requests than a premium hour holds. Response cache off. Every
 * process started is pushed to `stops`.
 */
export async function startWalkerApi(root: string, alias: string, account: string, stops: Running[]): Promise<{ url: string; apiKey: string }> {
  const redisServer = await startRedis();
  stops.push(redisServer);
  const redis = new Redis(redisServer.url);
  const { apiKey } = await createKeyStore(redis).createKey({ tier: 'walker', account });
  redis.disconnect();
  const api = await startApi({
    cwd: root,
    alias,
    redisUrl: redisServer.url,
    key: apiKey,
    env: { RESPONSE_CACHE_MB: '0', RATE_LIMIT_TIERS: 'free:1000,premium:10000,walker:1000000' },
  });
  stops.push(api);
  return { url: api.url, apiKey };
}
