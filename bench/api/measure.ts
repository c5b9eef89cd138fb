import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import { type IndexStats, esNodeStats, indexStats, processCpuSeconds, redisCpuSeconds } from './resource-stats.js';
import { sampleRss } from './processes.js';
import { commandCalls, redisDelta } from './redis-stats.js';
import { type WrkResult, runWrk } from './wrk.js';

export interface Target {
  name: string;
  kind: 'api' | 'es' | 'koa';
  /** Which request file it replays. */
  file: keyof RequestFiles;
  url: string;
  /** The API process, for memory and CPU. */
  pid?: number;
  /** API keys, one per line, taken in turn (see createBenchKeys). */
  keysFile?: string;
}

export interface RequestFiles {
  api: string;
  es: string;
  /** The same Elasticsearch requests with request_cache=false: what the queries cost without that cache. */
  esNoRequestCache: string;
}

export interface Measurement extends WrkResult {
  target: string;
  rssPeakMb: number | null;
  /** CPU per request, in ms, of the API process, Elasticsearch and Redis. */
  cpuMsPerRequest: { api: number | null; es: number; redis: number };
  redisPerRequest: { evalsha: number; total: number } | null;
  /** Connections Elasticsearch accepted during the run (from anyone: it is shared). */
  esConnectionsOpened: number;
  /** Searches and gets that reached the benchmark index per request, and the share its request cache answered. */
  esCallsPerRequest: number | null;
  esRequestCacheHitRatio: number | null;
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
  { seconds, warmupSeconds, alias, connections = ctx.connections }: { seconds: number; warmupSeconds: number; alias?: string; connections?: number },
): Promise<Measurement> {
  const file = files[target.file];
  const run = (runSeconds: number) =>
    runWrk({ url: target.url, file, keysFile: target.keysFile, seconds: runSeconds, connections, threads: ctx.threads });
  // Every target starts from the same cold shard request cache and query cache; otherwise the
  // first target would pay the misses and the next ones ride on its work.
  if (alias) await ctx.es.indices.clearCache({ index: alias, request: true, query: true });
  if (warmupSeconds > 0) await run(warmupSeconds);
  const indexBefore: IndexStats | null = alias ? await indexStats(ctx.es, alias) : null;
  const [callsBefore, esBefore, redisCpuBefore] = await Promise.all([commandCalls(ctx.redis), esNodeStats(ctx.es), redisCpuSeconds(ctx.redis)]);
  const apiCpuBefore = target.pid ? processCpuSeconds(target.pid) : 0;
  const rss = target.pid ? sampleRss(target.pid) : null;
  const result = await run(seconds);
  const rssPeakMb = rss ? rss.stop() : null;
  const apiCpu = target.pid ? processCpuSeconds(target.pid) - apiCpuBefore : null;
  const [callsAfter, esAfter, redisCpuAfter] = await Promise.all([commandCalls(ctx.redis), esNodeStats(ctx.es), redisCpuSeconds(ctx.redis)]);
  const indexAfter = alias ? await indexStats(ctx.es, alias) : null;
  const cacheLookups =
    indexBefore && indexAfter
      ? indexAfter.requestCacheHits + indexAfter.requestCacheMisses - indexBefore.requestCacheHits - indexBefore.requestCacheMisses
      : 0;
  const perRequest = (seconds: number) => (result.requests > 0 ? (seconds * 1000) / result.requests : 0);
  const delta = redisDelta(callsBefore, callsAfter);
  return {
    target: target.name,
    ...result,
    rssPeakMb,
    cpuMsPerRequest: {
      api: apiCpu === null ? null : perRequest(apiCpu),
      es: perRequest(esAfter.cpuSeconds - esBefore.cpuSeconds),
      redis: perRequest(redisCpuAfter - redisCpuBefore),
    },
    redisPerRequest:
      target.kind === 'api' && result.requests > 0 ? { evalsha: delta.evalsha / result.requests, total: delta.total / result.requests } : null,
    esConnectionsOpened: esAfter.httpOpened - esBefore.httpOpened,
    esCallsPerRequest: indexBefore && indexAfter && result.requests > 0 ? (indexAfter.calls - indexBefore.calls) / result.requests : null,
    esRequestCacheHitRatio:
      indexBefore && indexAfter && cacheLookups > 0 ? (indexAfter.requestCacheHits - indexBefore.requestCacheHits) / cacheLookups : null,
  };
}
