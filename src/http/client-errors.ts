import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { type Logger, silentLogger } from '../infra/logger.js';

/**
 * Requests Node's HTTP parser refuses before the app sees them, answered as the API answers
 * every error, `{error, message, status}`: headers over 16 KB (431), a request that did not arrive
 * within its deadline (408) and malformed requests (400).
 * Used as the server's 'clientError' listener. The request's headers were not read, so whether it
 * carried an Origin is unknown: the CORS answer every origin gets (the API allows any, without
 * credentials) is sent always, so a browser can read the error; and a request id is made, as
 * for every response, since none sent could be read.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket, logger: Logger = silentLogger): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, error, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request_too_large', 'The request line and headers exceed 16 KB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time']
        : [400, 'Bad Request', 'invalid_request', 'Malformed HTTP request'];
  const body = JSON.stringify({ error, message, status });
  const requestId = randomUUID();
  // Its line in the access log, so the id the client was given leads somewhere.
  logger.info('request', { request_id: requestId, status, refused_by: 'http parser', reason: err.code ?? 'unknown' });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: X-Request-Id\r\n` +
      `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
