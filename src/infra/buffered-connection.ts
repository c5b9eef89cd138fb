import { constants } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import {
  type ConnectionRequestOptions,
  type ConnectionRequestOptionsAsStream,
  type ConnectionRequestParams,
  type ConnectionRequestResponse,
  type ConnectionRequestResponseAsStream,
  UndiciConnection,
  errors,
} from '@elastic/elasticsearch';
import { type Dispatcher, util } from 'undici';

const COMPRESSED = /gzip|deflate/i;
// As the stock connection: Node refuses a path with these, and would throw later and less clearly.
const INVALID_PATH = /[^\u0021-\u00ff]/;

type Failure = errors.ConnectionError | errors.TimeoutError | errors.RequestAbortedError;

/** Undici's failures as the client's errors, as the stock connection names them. */
function translate(err: Error & { code?: string }, timedOut: boolean): Failure {
  if (err instanceof errors.RequestAbortedError || err instanceof errors.TimeoutError || err instanceof errors.ConnectionError) return err;
  switch (err.code) {
    case 'UND_ERR_ABORTED':
      return timedOut ? new errors.TimeoutError('Request timed out') : new errors.RequestAbortedError('Request aborted');
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new errors.TimeoutError('Request timed out');
    default:
      return new errors.ConnectionError(err.message);
  }
}

/**
 * The client's Undici connection, reading each answer through Undici's dispatch API into bytes.
 * The stock connection asks for a stream per answer and reads it by async iteration, decoding
 * chunk by chunk into strings; the parser then flattens the join. Measured on this machine, eight
 * concurrent callers, client CPU a call against reading the stream as bytes, which it replaced
 * (bench/results/profile/README.md, "A lean read of Elasticsearch's answers"): a get by id 68 →
 * 51 µs, a search 194 → 175, an mget of 20 132 → 121, with the transport's tracing off. Node choice,
 * retries, sniffing and the parse stay the transport's; failures are the stock connection's errors.
 *
 * One difference, on purpose: a request's timeout (its own, a hedged read's attempt, see
 * hedged-reads.ts, or else the client's) bounds its whole answer. The stock connection stops its
 * timer at the headers and leaves the body to the pool's timeouts, which bound the wait for each
 * chunk, not the answer: a node that hung mid-answer held an attempt past its share of the budget,
 * and one trickling its answer held a request until the answer ended (helper-123).
 */
export class BufferedConnection extends UndiciConnection {
  override request(params: ConnectionRequestParams, options: ConnectionRequestOptions): Promise<ConnectionRequestResponse>;
  override request(params: ConnectionRequestParams, options: ConnectionRequestOptionsAsStream): Promise<ConnectionRequestResponseAsStream>;
  override request(
    params: ConnectionRequestParams,
    options: ConnectionRequestOptions | ConnectionRequestOptionsAsStream,
  ): Promise<ConnectionRequestResponse | ConnectionRequestResponseAsStream> {
    if ('asStream' in options && options.asStream) return super.request(params, options);
    const prefix = this.url.pathname === '/' ? '' : this.url.pathname.replace(/\/$/, '');
    let path = prefix + params.path + (params.querystring == null || params.querystring === '' ? '' : `?${params.querystring}`);
    if (path[0] !== '/') path = `/${path}`;
    if (INVALID_PATH.test(path)) return Promise.reject(new TypeError(`ERR_UNESCAPED_CHARACTERS: ${path}`));
    const { signal, timeout, maxResponseSize, maxCompressedResponseSize } = options;
    if (signal?.aborted) return Promise.reject(new errors.RequestAbortedError('Request aborted'));

    return new Promise((resolve, reject) => {
      let abort: ((err: Error) => void) | undefined;
      let timedOut = false;
      let settled = false;
      let statusCode = 0;
      let headers: IncomingHttpHeaders = {};
      let limit: number = constants.MAX_STRING_LENGTH;
      let kind = 'string';
      const chunks: Buffer[] = [];
      let length = 0;
      const tooLarge = (size: number) =>
        new errors.RequestAbortedError(`The content length (${size}) is bigger than the maximum allowed ${kind} (${limit})`);

      // Before Undici has a connection for it, a request cannot be aborted yet: it fails at once,
      // and is dropped when its connection comes (onConnect).
      const fail = (failure: Failure) => (abort ? abort(failure) : settle(failure));
      const onAbort = () => fail(new errors.RequestAbortedError('Request aborted'));
      // Every request's, the client's default too: Undici's body timeout bounds only the gap between
      // two chunks, so a node trickling its answer (64 KB every 50 ms) held a request for minutes.
      const whole = timeout ?? this.timeout;
      const timer =
        whole != null && whole > 0
          ? setTimeout(() => {
              timedOut = true;
              fail(new errors.TimeoutError('Request timed out'));
            }, whole)
          : undefined;
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (failure: Failure | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (failure) reject(failure);
        else resolve({ statusCode, headers, body: Buffer.concat(chunks, length) });
      };

      const handler: Dispatcher.DispatchHandlers = {
        onConnect(abortRequest) {
          abort = abortRequest;
          if (settled) abortRequest(new errors.RequestAbortedError('Request aborted'));
        },
        onHeaders(status, raw) {
          statusCode = status;
          headers = util.parseHeaders(raw);
          const compressed = COMPRESSED.test(String(headers['content-encoding'] ?? ''));
          limit = compressed ? (maxCompressedResponseSize ?? constants.MAX_LENGTH) : (maxResponseSize ?? constants.MAX_STRING_LENGTH);
          kind = compressed ? 'buffer' : 'string';
          const declared = Number(headers['content-length'] ?? 0);
          if (declared > limit) fail(tooLarge(declared));
          return true;
        },
        onData(chunk) {
          length += chunk.length;
          if (length > limit) {
            fail(tooLarge(length));
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          settle(undefined);
        },
        onError(err) {
          settle(translate(err, timedOut));
        },
      };
      this.pool.dispatch(
        {
          method: params.method as Dispatcher.HttpMethod,
          path,
          headers: { ...this.headers, ...params.headers } as Record<string, string>,
          body: params.body,
        },
        handler,
      );
    });
  }
}
