import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Logger, silentLogger } from '../infra/logger.js';
import { errorBeforeTheApp, loggedPath, type ProtocolRefusal, rawAnswer } from './before-the-app.js';
import { afterEarlierAnswers } from './client-errors.js';
import { allowedMethods } from './route-fallbacks.js';

/**
 * Requests HTTP itself refuses, which Node's server would otherwise answer on its own (a bare 400
 * or 417 with no body, or a closed socket): answered here as the API answers every error, with a
 * request id that is logged.
 */

// Read for every request: counted in place, without building an array.
function hostLines({ rawHeaders }: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}

/** A 400 before the app, logged and counted by its reason, and the connection closed. */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  { logger, onRefused }: { logger: Logger; onRefused: ((reason: ProtocolRefusal) => void) | undefined },
  { reason, message, refusedBy }: { reason: ProtocolRefusal; message: string; refusedBy: string },
): true {
  const requestId = randomUUID();
  const { body, headers } = errorBeforeTheApp(400, 'invalid_request', message, requestId);
  logger.info('request', { request_id: requestId, method: req.method, path: loggedPath(req), status: 400, refused_by: refusedBy });
  onRefused?.(reason);
  res.shouldKeepAlive = false;
  res.writeHead(400, { ...headers, Connection: 'close' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * An HTTP/1.1 request without a Host header, or any request with more than one (RFC 9112 §3.2:
 * Node keeps the first, a proxy may have read the other): 400, before any key check. True when answered.
 */
export function refusedForHost(
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger = silentLogger,
  onRefused?: (reason: ProtocolRefusal) => void,
): boolean {
  const missing = req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
  if (!missing && hostLines(req) <= 1) return false;
  return refuse(
    req,
    res,
    { logger, onRefused },
    missing
      ? { reason: 'no_host', message: 'An HTTP/1.1 request must carry a Host header', refusedBy: 'no host' }
      : { reason: 'several_hosts', message: 'A request must carry one Host header, not several', refusedBy: 'no host' },
  );
}

// RFC 9112 §6.1: a request whose last transfer coding is not chunked has no length a server can
// tell, and another reader on the way (a proxy) may have read it otherwise: 400, and the connection
// closed. Node served `Transfer-Encoding: xchunked` (or gzip, identity) and read what followed as
// the next request (helper-123).
const CHUNKED_LAST = /(?:^|,)[\t ]*chunked[\t ]*$/i;

/** A request whose Transfer-Encoding does not end in chunked: 400 and the connection closed. True when answered. */
export function refusedForTransferCoding(
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger = silentLogger,
  onRefused?: (reason: ProtocolRefusal) => void,
): boolean {
  const coding = req.headers['transfer-encoding'];
  if (coding === undefined || CHUNKED_LAST.test(coding)) return false;
  refuse(
    req,
    res,
    { logger, onRefused },
    { reason: 'transfer_coding', message: 'A request must end its Transfer-Encoding in chunked', refusedBy: 'transfer coding' },
  );
  req.socket.destroySoon();
  return true;
}

// Every path of the API answers the same methods.
const ALLOW = allowedMethods('').join(', ');

/**
 * CONNECT asks the server to be a tunnel, which it is not: 405 naming the methods it takes, and the
 * connection closed (Node hands it over raw, and would otherwise just drop it).
 */
export function answerConnect(socket: Socket, logger: Logger = silentLogger, onRefused?: (reason: ProtocolRefusal) => void): void {
  // Requests before it on the connection (pipelined) are answered first, in their order.
  afterEarlierAnswers(socket, () => {
    const requestId = randomUUID();
    const { body, headers } = errorBeforeTheApp(405, 'method_not_allowed', `Method not allowed; allowed: ${ALLOW}`, requestId);
    logger.info('request', { request_id: requestId, method: 'CONNECT', status: 405, refused_by: 'connect' });
    onRefused?.('connect');
    socket.end(rawAnswer(405, 'Method Not Allowed', { ...headers, Allow: ALLOW }, body));
  });
}
