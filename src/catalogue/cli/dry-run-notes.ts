import type { Client } from '@elastic/elasticsearch';
import type { RedisClient } from '../../infra/redis.js';
import { describeHolder, isAbandoned, readLockHolder } from '../admin/catalogue-lock.js';
import { describeKilledRuns } from '../admin/killed-runs.js';

/**
 * What a dry run says before its plan, and whether another run holds the catalogue lock now (a
 * real run would be refused): who holds it (a dry run takes none), and
 * what a real run would first finish of runs killed before it (finishKilledRuns); not while another
 * run holds the lock, whose index being built is no orphan.
 */
export async function dryRunNotes(es: Client, redis: RedisClient, alias: string): Promise<{ notes: string[]; busy: boolean }> {
  const notes: string[] = [];
  const holder = await readLockHolder(redis, alias);
  const busy = holder !== null && !isAbandoned(holder);
  if (holder !== null) {
    const outcome = busy ? 'a real run would be refused now' : 'that process is gone, so a real run would take the lock over';
    notes.push(`note: the catalogue lock is held by ${describeHolder(holder)}; ${outcome}`);
  }
  if (!busy) notes.push(...(await describeKilledRuns(es, alias)));
  return { notes, busy };
}
