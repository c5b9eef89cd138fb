import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import { esCpuSeconds, processCpuSeconds, redisCpuSeconds } from './cpu.js';
import { sampleRss } from './processes.js';
import { commandCalls, redisDelta } from './redis-stats.js';
import { type WrkResult, runWrk } from './wrk.js';

export interface Target {
  name: string;
  kind: 'api' | 'es' | 'koa';
  url: string;
  /** The API process, for memory and CPU. */
  pid?: number;
  key?: string;
}

export interface RequestFiles {
  api: string;
  es: string;
}

export interface Measurement extends WrkResult {
  target: string;
  rssPeakMb: number | null;
  /** CPU per request, in ms, of the API process, Elasticsearch and Redis. */
  cpuMsPerRequest: { api: number | null; es: number; redis: number };
  redisPerRequest: { evalsha: number; total: number } | null;
}

export interface MeasureContext {
  es: Client;
  redis: Redis;
  connections: number;
  threads: number;
}

export async function measure(
  ctx: MeasureContext,
  target: Target,
  files: RequestFiles,
  { seconds, warmupSeconds, connections = ctx.connections }: { seconds: number; warmupSeconds: number; connections?: number },
): Promise<Measurement> {
  const file = target.kind === 'es' ? files.es : files.api;
  const run = (runSeconds: number) => runWrk({ url: target.url, file, key: target.key, seconds: runSeconds, connections, threads: ctx.threads });
  if (warmupSeconds > 0) await run(warmupSeconds);
  const [callsBefore, esCpuBefore, redisCpuBefore] = await Promise.all([commandCalls(ctx.redis), esCpuSeconds(ctx.es), redisCpuSeconds(ctx.redis)]);
  const apiCpuBefore = target.pid ? processCpuSeconds(target.pid) : 0;
  const rss = target.pid ? sampleRss(target.pid) : null;
  const result = await run(seconds);
  const rssPeakMb = rss ? rss.stop() : null;
  const apiCpu = target.pid ? processCpuSeconds(target.pid) - apiCpuBefore : null;
  const [callsAfter, esCpuAfter, redisCpuAfter] = await Promise.all([commandCalls(ctx.redis), esCpuSeconds(ctx.es), redisCpuSeconds(ctx.redis)]);
  const perRequest = (seconds: number) => (result.requests > 0 ? (seconds * 1000) / result.requests : 0);
  const delta = redisDelta(callsBefore, callsAfter);
  return {
    target: target.name,
    ...result,
    rssPeakMb,
    cpuMsPerRequest: { api: apiCpu === null ? null : perRequest(apiCpu), es: perRequest(esCpuAfter - esCpuBefore), redis: perRequest(redisCpuAfter - redisCpuBefore) },
    redisPerRequest:
      target.kind === 'api' && result.requests > 0
        ? { evalsha: delta.evalsha / result.requests, total: delta.total / result.requests }
        : null,
  };
}
