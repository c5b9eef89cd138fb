import { readFileSync } from 'node:fs';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used (/proc/<pid>/stat fields 14 and 15). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export async function esCpuSeconds(es: Client): Promise<number> {
  const stats = await es.nodes.stats({ node_id: '_local', metric: 'process' });
  const node = Object.values(stats.nodes)[0];
  return (node?.process?.cpu?.total_in_millis ?? 0) / 1000;
}

export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const value = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return value('used_cpu_sys') + value('used_cpu_user');
}
