import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Logger, silentLogger } from '../infra/logger.js';
import { withoutKeys } from '../access/api-key.js';
import { errorBeforeTheApp } from './before-the-app.js';

/**
 * Requests HTTP itself refuses, which Node's server would otherwise answer on its own (a bare 400
 * or 417 with no body, or a closed socket): answered here as the API answers every error, with a
 * request id that is logged.
 */

/** An HTTP/1.1 request without a Host header (RFC 9112 §3.2): 400, before any key check. True when answered. */
export function refusedWithoutHost(req: IncomingMessage, res: ServerResponse, logger: Logger = silentLogger): boolean {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) return false;
  const requestId = randomUUID();
  const { body, headers } = errorBeforeTheApp(400, 'invalid_request', 'An HTTP/1.1 request must carry a Host header', requestId);
  logger.info('request', {
    request_id: requestId,
    method: req.method,
    path: withoutKeys((req.url ?? '').split('?')[0]!.slice(0, 200)),
    status: 400,
    refused_by: 'no host',
  });
  res.writeHead(400, { ...headers, Connection: 'close' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * CONNECT asks the server to be a tunnel, which it is not: 405 naming the methods it takes, and the
 * connection closed (Node hands it over raw, and would otherwise just drop it).
 */
export function answerConnect(socket: Duplex, logger: Logger = silentLogger): void {
  const requestId = randomUUID();
  const { body, headers } = errorBeforeTheApp(405, 'method_not_allowed', 'Method not allowed; allowed: GET, HEAD', requestId);
  logger.info('request', { request_id: requestId, method: 'CONNECT', status: 405, refused_by: 'connect' });
  const lines = Object.entries({ ...headers, Allow: 'GET, HEAD', Connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${lines.join('')}\r\n${body}`);
}
