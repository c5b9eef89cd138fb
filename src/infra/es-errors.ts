import { errors } from '@elastic/elasticsearch';
import { BackendUnavailable, DomainError, InvalidInput } from '../errors.js';
import { attemptTrailOf } from './hedged-reads.js';
import type { Logger } from './logger.js';

/** What Elasticsearch says of a failure: its type and the root causes (never shown to clients). */
export interface EsFailure {
  type?: string;
  root_cause?: { type?: string; reason?: string }[];
}

/** A failure Elasticsearch reported for one item of a multi-get or multi-search, not for the whole call. */
export class EsItemError extends Error {
  constructor(
    readonly status: number,
    readonly failure: EsFailure | undefined,
  ) {
    super(`elasticsearch item failed: ${status} ${failure?.type ?? 'unknown'}`);
    this.name = 'EsItemError';
  }
}

/**
 * An answer no Elasticsearch gives: a multi-search of another length, items without a status, a
 * page without its hits (a proxy's error page, a misrouted request). Read as found, a broken proxy
 * had served empty pages as the catalogue's, cacheable, and a feed's end (helper-123).
 */
export class MalformedAnswer extends Error {
  constructor(what: string) {
    super(`elasticsearch answered ${what}`);
    this.name = 'MalformedAnswer';
  }
}

const UNAVAILABLE = 'The search backend is unavailable, please retry shortly';

// Refusals a client's request can cause despite validation: a query past the clause limit, or
// a page past the index's result window (an index built with a smaller max_result_window).
const TOO_COMPLEX = /maxClauseCount|too[_ ]many[_ ](nested[_ ])?clauses/i;
const WINDOW_TOO_LARGE = /Result window is too large/i;

// An index built before the completion field existed: the code was upgraded and the catalogue
// not yet reindexed. Suggestions are unavailable until it is; everything else still serves.
const NO_COMPLETION_FIELD = /no mapping found for field \[suggest\]|field \[suggest\] is not a completion suggest field/i;

const causesOf = (failure: EsFailure) =>
  [failure.type ?? '', ...(failure.root_cause ?? []).map((c) => `${c.type ?? ''} ${c.reason ?? ''}`)].join(' ');

function clientCaused(status: number, failure: EsFailure | undefined): InvalidInput | null {
  if (status !== 400 || !failure) return null;
  const causes = causesOf(failure);
  if (TOO_COMPLEX.test(causes)) return new InvalidInput('q', "Invalid query parameter 'q': the search has too many terms to run; use fewer words");
  if (WINDOW_TOO_LARGE.test(causes)) {
    return new InvalidInput(
      'page',
      "Invalid query parameter 'page': the page ends past the deepest result the catalogue serves; continue with meta.next_cursor instead",
    );
  }
  return null;
}

function fromStatus(status: number, failure: EsFailure | undefined, logger: Logger, operation: string): Error {
  const type = failure?.type;
  const client = clientCaused(status, failure);
  if (client) {
    // A page the edge let through past the index's window: the index is older than its mapping (the
    // start-up check said so), which is the operator's to mend, not the client's.
    const level = client.parameter === 'page' ? 'warn' : 'info';
    logger[level]('elasticsearch refused a request as too large', { operation, status, type, root: failure?.root_cause?.[0]?.type });
    return client;
  }
  if (status === 400 && failure && NO_COMPLETION_FIELD.test(causesOf(failure))) {
    logger.error('the catalogue index has no completion field: reindex it (scripts/reindex) to serve suggestions', { operation });
    return new BackendUnavailable('elasticsearch', 'Suggestions are not available for this catalogue yet, please retry later');
  }
  logger.error('elasticsearch error', { operation, status, type });
  // A missing or closed index (an operator's mistake, a restore in progress) is the backend's
  // state, not the client's request: 503, and the log says which.
  if (status === 429 || status >= 500 || type === 'index_not_found_exception' || type === 'index_closed_exception') {
    return new BackendUnavailable('elasticsearch', UNAVAILABLE);
  }
  return new Error(`elasticsearch refused ${operation}: ${status} ${type ?? 'unknown'}`);
}

/**
 * Turns an Elasticsearch client failure into the domain's terms, where it happens: unreachable,
 * overloaded or a missing index is BackendUnavailable, a request too large to run is
 * InvalidInput naming the parameter, anything else is a plain Error (our bug: a bare 500).
 * What Elasticsearch said is logged, never passed on.
 */
export function translateEsError(err: unknown, logger: Logger, operation: string): Error {
  if (err instanceof DomainError) return err;
  if (
    err instanceof errors.ConnectionError ||
    err instanceof errors.TimeoutError ||
    err instanceof errors.NoLivingConnectionsError ||
    err instanceof errors.RequestAbortedError
  ) {
    logger.warn('elasticsearch unreachable', { operation, reason: err.name, attempts: attemptTrailOf(err) });
    return new BackendUnavailable('elasticsearch', UNAVAILABLE);
  }
  // What the node sent cannot be read (not JSON: a proxy's HTML page, an answer cut short) or is not
  // an answer of Elasticsearch's: the backend's fault, as if it had not answered.
  if (err instanceof errors.DeserializationError || err instanceof MalformedAnswer) {
    logger.error('elasticsearch answered what the API cannot read', { operation, reason: err.name, err: err.message.slice(0, 200) });
    return new BackendUnavailable('elasticsearch', UNAVAILABLE);
  }
  if (err instanceof errors.ResponseError) {
    return fromStatus(err.statusCode ?? 500, (err.body as { error?: EsFailure } | undefined)?.error, logger, operation);
  }
  if (err instanceof EsItemError) return fromStatus(err.status, err.failure, logger, operation);
  logger.error('elasticsearch client failure', { operation, err: err instanceof Error ? err.message : String(err) });
  return err instanceof Error ? err : new Error(String(err));
}
