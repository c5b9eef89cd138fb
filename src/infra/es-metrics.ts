import type { Client } from '@elastic/elasticsearch';
import type { Metrics } from './metrics.js';

function operationOf(path: string): string {
  if (path.includes('/_msearch')) return 'msearch';
  if (path.includes('/_mget')) return 'mget';
  if (path.includes('/_search')) return 'search';
  if (path.includes('/_doc/')) return 'get';
  if (path.includes('/_count')) return 'count';
  return 'other';
}

const registered = new WeakMap<Client, Set<Metrics>>();

/**
 * Observes every Elasticsearch call's latency from the client's diagnostic
 * events, so call sites need no timing code. One listener pair per client,
 * however many apps share it (tests build many).
 */
export function instrumentElasticsearch(es: Client, metrics: Metrics): void {
  const existing = registered.get(es);
  if (existing) {
    existing.add(metrics);
    return;
  }
  const sinks = new Set([metrics]);
  registered.set(es, sinks);
  const started = new Map<unknown, bigint>();
  const onRequest = (_err: unknown, event: { meta: { request: { id: unknown } } } | null) => {
    if (event) started.set(event.meta.request.id, process.hrtime.bigint());
  };
  const onResponse = (err: unknown, event: { meta: { request: { id: unknown; params: { path: string } } } } | null) => {
    if (!event) return;
    const begin = started.get(event.meta.request.id);
    started.delete(event.meta.request.id);
    if (begin === undefined) return;
    const labels = { operation: operationOf(event.meta.request.params.path), outcome: err ? 'error' : 'ok' };
    const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
    for (const sink of sinks) sink.elasticsearchDuration.observe(labels, seconds);
  };
  es.diagnostic.on('request', onRequest as never);
  es.diagnostic.on('response', onResponse as never);
}
