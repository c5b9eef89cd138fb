import { type Client, errors } from '@elastic/elasticsearch';
import { Counter, Gauge } from 'prom-client';
import { hedgedReadsOf } from './elasticsearch.js';
import type { Metrics } from './metrics.js';

const HEDGE_KINDS = ['reads', 'hedges', 'rerouted', 'retried', 'won', 'skipped'] as const;

/** The client's hedged reads (hedged-reads.ts) as the registry reports them, read when scraped. */
function reportHedging(es: Client, metrics: Metrics): void {
  new Counter({
    name: 'wallpapers_elasticsearch_hedges_total',
    help: 'Hedged reads since start, by kind: reads, hedges (sent again past the deadline), rerouted (sent again off a node that became a suspect), retried (sent again after a node’s own failure), won (answered by an attempt other than the first), skipped (no hedge budget left)',
    labelNames: ['kind'] as const,
    registers: [metrics.registry],
    collect() {
      const stats = hedgedReadsOf(es).stats();
      this.reset();
      for (const kind of HEDGE_KINDS) this.inc({ kind }, stats[kind]);
    },
  });
  new Gauge({
    name: 'wallpapers_elasticsearch_hedge_deadline_seconds',
    help: 'How long a read waits before it is hedged: the 99th percentile of the last minute, within its floor and ceiling',
    registers: [metrics.registry],
    collect() {
      this.set(hedgedReadsOf(es).stats().deadlineMs / 1000);
    },
  });
}

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
  if (existing?.has(metrics)) return;
  reportHedging(es, metrics);
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
    // A hedged read's losing attempt is aborted by design (hedged-reads.ts): not an error.
    const outcome = err instanceof errors.RequestAbortedError ? 'aborted' : err ? 'error' : 'ok';
    const labels = { operation: operationOf(event.meta.request.params.path), outcome };
    const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
    for (const sink of sinks) sink.elasticsearchDuration.observe(labels, seconds);
  };
  es.diagnostic.on('request', onRequest as never);
  es.diagnostic.on('response', onResponse as never);
}
