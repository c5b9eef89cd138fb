import type { Client } from '@elastic/elasticsearch';
import type { Metrics } from '../metrics.js';

function operationOf(path: string): string {
  if (path.includes('/_search')) return 'search';
  if (path.includes('/_doc/')) return 'get';
  if (path.includes('/_count')) return 'count';
  return 'other';
}

/**
 * Observes every Elasticsearch call's latency from the client's diagnostic
 * events, so call sites need no timing code.
 */
export function instrumentElasticsearch(es: Client, metrics: Metrics): () => void {
  const started = new Map<unknown, bigint>();
  const onRequest = (_err: unknown, event: { meta: { request: { id: unknown } } } | null) => {
    if (event) started.set(event.meta.request.id, process.hrtime.bigint());
  };
  const onResponse = (
    err: unknown,
    event: { meta: { request: { id: unknown; params: { path: string } } } } | null,
  ) => {
    if (!event) return;
    const begin = started.get(event.meta.request.id);
    started.delete(event.meta.request.id);
    if (begin === undefined) return;
    metrics.elasticsearchDuration.observe(
      { operation: operationOf(event.meta.request.params.path), outcome: err ? 'error' : 'ok' },
      Number(process.hrtime.bigint() - begin) / 1e9,
    );
  };
  es.diagnostic.on('request', onRequest as never);
  es.diagnostic.on('response', onResponse as never);
  return () => {
    es.diagnostic.off('request', onRequest as never);
    es.diagnostic.off('response', onResponse as never);
  };
}
