import { Client, SniffingTransport, Transport, type TransportOptions } from '@elastic/elasticsearch';
import { BufferedConnection } from './buffered-connection.js';
import { steeredNodeFilter, watchNodes } from './es-nodes.js';
import { type HedgedReads, createHedgedReads } from './hedged-reads.js';

// The API registers no OpenTelemetry SDK, so the transport's spans (on by default) go nowhere, at
// 3 µs of a get's and 11 µs of a search's CPU (bench/results/profile/README.md). The client does not
// pass this option, nor retryOnTimeout, through to its transport, so the transports ask for them.
const UNTRACED = { openTelemetry: { enabled: false } };

class UntracedTransport extends Transport {
  constructor(options: TransportOptions) {
    super({ ...options, ...UNTRACED });
  }
}

class RetryingOnTimeout extends SniffingTransport {
  constructor(options: TransportOptions) {
    super({ ...options, ...UNTRACED, retryOnTimeout: true });
  }
}

export interface EsClientOptions {
  /** One node's URL, or several separated by commas. */
  url: string;
  requestTimeoutMs: number;
  /** The largest answer read, compressed or not; a larger one fails as the node's fault (API_MAX_ANSWER_BYTES by default). */
  maxAnswerBytes?: number;
}

/**
 * The largest answer the API reads from Elasticsearch. Its largest own is a page of 100 with tags,
 * colours and every facet, about 0.4 MB (a reindex's 2,000 records read 1.5 MB). Unbounded, an
 * answer was read up to the string limit (about 540 MB) within the timeout: five at once from a
 * misbehaving node or proxy took the process from 0.5 to 3.6 GB, which it kept (helper-123).
 */
export const API_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** The catalogue tools read pages of up to 10,000 records and bulk answers of as many items. */
export const TOOLS_MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/**
 * One client per process. With one node, retries are off, so a dead node fails fast instead of
 * hanging a request. With several, a request that fails on one node (refused, reset, or no
 * answer within its attempt's time) is tried once more on another, and the failed node is left
 * out until it answers again; see attemptTimeoutMs for how the time budget is shared.
 */
export function createEsClient({ url, requestTimeoutMs, maxAnswerBytes = API_MAX_ANSWER_BYTES }: EsClientOptions): Client {
  const nodes = url.split(',');
  return new Client({
    nodes,
    requestTimeout: requestTimeoutMs,
    maxResponseSize: maxAnswerBytes,
    maxCompressedResponseSize: maxAnswerBytes,
    maxRetries: nodes.length > 1 ? 1 : 0,
    Transport: nodes.length > 1 ? RetryingOnTimeout : UntracedTransport,
    compression: false,
    Connection: BufferedConnection,
    nodeFilter: steeredNodeFilter,
  });
}

const hedging = new WeakMap<Client, HedgedReads>();

/**
 * The client's hedged reads (hedged-reads.ts), one per client however many repositories share it,
 * with a watch on its nodes when it has several.
 */
export function hedgedReadsOf(es: Client): HedgedReads {
  let reads = hedging.get(es);
  if (reads === undefined) {
    reads = createHedgedReads(es.connectionPool.size > 1 ? watchNodes(es) : null);
    hedging.set(es, reads);
  }
  return reads;
}

/**
 * Each attempt's timeout out of a request's remaining budget: the whole of it with one node;
 * half with several, so a hung node leaves the retry on another node the other half.
 */
export function attemptTimeoutMs(es: Client, remainingMs: number): number {
  return es.connectionPool.size > 1 ? Math.max(1, Math.floor(remainingMs / 2)) : remainingMs;
}
