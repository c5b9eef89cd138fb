import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { type Logger, silentLogger } from '../infra/logger.js';
import { errorBeforeTheApp, type ProtocolRefusal, rawAnswer } from './before-the-app.js';

/**
 * Requests Node's HTTP parser refuses before the app sees them, answered as the API answers
 * every error (errorBeforeTheApp): headers over 16 KB (431), a request that did not arrive within
 * its deadline (408) and malformed requests (400).
 * Used as the server's 'clientError' listener. The request's headers were not read, so a request
 * id is made, as for every response, since none sent could be read.
 */
/** A socket as Node's HTTP server keeps it: the answer being written for an earlier request, if any. */
type ServedSocket = Socket & { _httpMessage?: NodeJS.EventEmitter | null };

/**
 * Runs `send` once the answers of the connection's earlier requests are written. A request that
 * fails to parse may follow others on a keep-alive connection (pipelined) whose answers are still
 * being made; written at once, the error would go out first and the client would take it for the
 * earlier request's answer. Node assigns the next queued answer when one finishes, so the socket
 * is looked at again on the turn after.
 */
export function afterEarlierAnswers(socket: ServedSocket, send: () => void): void {
  const pending = socket._httpMessage;
  if (!pending) {
    send();
    return;
  }
  pending.once('finish', () => setImmediate(() => afterEarlierAnswers(socket, send)));
}

// A HEAD request's answer has no body, even an error's: a client reading one after it takes the
// body for the start of its next answer. The parser refused the request, so its method is read
// from the bytes it was given when it failed: the last request line among them, which is the
// refused request's (earlier ones in the same bytes were whole). When that line is not among them
// (its headers came in a later packet), the body is sent, as for any other method.
const REQUEST_LINE = /(?:^|\r\n\r\n)([A-Z]+) \S+ HTTP\/1\.[01]\r\n/g;
function refusedHead(err: { rawPacket?: unknown }): boolean {
  if (!Buffer.isBuffer(err.rawPacket)) return false;
  const lines = [...err.rawPacket.toString('latin1').matchAll(REQUEST_LINE)];
  return lines.at(-1)?.[1] === 'HEAD';
}

export function answerClientError(
  err: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
  logger: Logger = silentLogger,
  onRefused?: (reason: ProtocolRefusal) => void,
): void {
  const [status, reason, error, message, refusal] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'Request Header Fields Too Large', 'request_too_large', 'The request line and headers exceed 16 KB', 'headers_too_large'] as const)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time', 'request_timeout'] as const)
        : ([400, 'Bad Request', 'invalid_request', 'Malformed HTTP request', 'malformed'] as const);
  const send = () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const { body, headers } = errorBeforeTheApp(status, error, message, requestId);
    // Its line in the access log, so the id the client was given leads somewhere.
    logger.info('request', { request_id: requestId, status, refused_by: 'http parser', reason: err.code ?? 'unknown' });
    onRefused?.(refusal);
    socket.end(rawAnswer(status, reason, headers, refusedHead(err) ? '' : body));
  };
  // A request that timed out may be the one whose answer is pending: it is refused at once.
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') send();
  else afterEarlierAnswers(socket, send);
}
