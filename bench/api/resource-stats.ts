import { readFileSync } from 'node:fs';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';

const TICKS_PER_SECOND = 100;

function cpuSecondsOf(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** User + system CPU seconds a process has used (/proc/<pid>/stat fields 14 and 15). */
export function processCpuSeconds(pid: number): number {
  return cpuSecondsOf(`/proc/${pid}/stat`);
}

/** The same for its main thread alone (the JavaScript thread of a Node process). */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`);
}

export interface EsNodeStats {
  cpuSeconds: number;
  /** HTTP connections Elasticsearch has accepted since it started: keep-alive keeps this flat. */
  httpOpened: number;
}

export async function esNodeStats(es: Client): Promise<EsNodeStats> {
  const stats = await es.nodes.stats({ node_id: '_local', metric: ['process', 'http'] });
  const node = Object.values(stats.nodes)[0];
  return { cpuSeconds: (node?.process?.cpu?.total_in_millis ?? 0) / 1000, httpOpened: node?.http?.total_opened ?? 0 };
}

export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const value = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return value('used_cpu_sys') + value('used_cpu_user');
}

export interface IndexStats {
  /** Query phases plus document gets: one per search or get that reached the index. */
  calls: number;
  requestCacheHits: number;
  requestCacheMisses: number;
}

/** Counters of the benchmark's own index, which nobody else queries (unlike the node-wide CPU). */
export async function indexStats(es: Client, alias: string): Promise<IndexStats> {
  const stats = await es.indices.stats({ index: alias, metric: ['search', 'get', 'request_cache'] });
  const p = stats._all.primaries;
  return {
    calls: (p?.search?.query_total ?? 0) + (p?.get?.total ?? 0),
    requestCacheHits: p?.request_cache?.hit_count ?? 0,
    requestCacheMisses: p?.request_cache?.miss_count ?? 0,
  };
}
