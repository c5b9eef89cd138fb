import { errors } from '@elastic/elasticsearch';
import { HttpError, internalError, serviceUnavailable } from '../http/http-error.js';
import type { Logger } from '../logger.js';
import { QueueFullError } from './natural-batcher.js';

function esErrorType(err: InstanceType<typeof errors.ResponseError>): string | undefined {
  const body = err.body as { error?: { type?: string } } | undefined;
  return body?.error?.type;
}

/** A failure Elasticsearch reported for one item of a multi-get or multi-search, not for the whole call. */
export class EsItemError extends Error {
  constructor(
    readonly status: number,
    readonly type: string | undefined,
  ) {
    super(`elasticsearch item failed: ${status} ${type ?? 'unknown'}`);
    this.name = 'EsItemError';
  }
}

function fromStatus(status: number, type: string | undefined, logger: Logger, operation: string): HttpError {
  logger.error('elasticsearch error', { operation, status, type });
  if (status === 429 || status >= 500 || type === 'index_not_found_exception') {
    return serviceUnavailable('The search backend is unavailable, please retry shortly');
  }
  return internalError();
}

/**
 * Maps an Elasticsearch client failure to the API's error model. Nothing from
 * Elasticsearch reaches the client: unreachable, overloaded or missing index
 * become 503, anything else is our bug and becomes a bare 500.
 */
export function translateEsError(err: unknown, logger: Logger, operation: string): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof QueueFullError) {
    logger.warn('elasticsearch reads shed: queue full', { operation });
    return serviceUnavailable('The service is busy, please retry shortly');
  }
  if (
    err instanceof errors.ConnectionError ||
    err instanceof errors.TimeoutError ||
    err instanceof errors.NoLivingConnectionsError ||
    err instanceof errors.RequestAbortedError
  ) {
    logger.warn('elasticsearch unreachable', { operation, reason: err.name });
    return serviceUnavailable('The search backend is unavailable, please retry shortly');
  }
  if (err instanceof errors.ResponseError) return fromStatus(err.statusCode ?? 500, esErrorType(err), logger, operation);
  if (err instanceof EsItemError) return fromStatus(err.status, err.type, logger, operation);
  logger.error('elasticsearch client failure', { operation, err: err instanceof Error ? err.message : String(err) });
  return internalError();
}
