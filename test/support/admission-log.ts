import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { rateLimitKey } from '../../src/access/store/redis-keys.js';

export interface AdmissionLog {
  /** Admission times (Redis clock, ms), oldest first. */
  times: number[];
  capacity: number;
}

/** The account's admission log as the script keeps it: a 20-byte header, then a ring of 4-byte offsets. */
export async function admissionLog(redis: Redis, accountId: string): Promise<AdmissionLog> {
  const raw = await redis.getBuffer(rateLimitKey(accountId));
  if (raw === null) return { times: [], capacity: 0 };
  const base = raw.readDoubleBE(0);
  const start = raw.readUInt32BE(8);
  const length = raw.readUInt32BE(12);
  const capacity = raw.readUInt32BE(16);
  expect(raw.length, 'header plus one 4-byte slot per unit of capacity').to.equal(20 + 4 * capacity);
  const times = Array.from({ length }, (_, i) => base + raw.readUInt32BE(20 + ((start + i) % capacity) * 4));
  expect(
    [...times].sort((a, b) => a - b),
    'kept in admission order',
  ).to.deep.equal(times);
  return { times, capacity };
}

export async function countedInRedis(redis: Redis, accountId: string): Promise<number> {
  return (await admissionLog(redis, accountId)).times.length;
}

export async function redisNowMs(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}
