import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Logger, silentLogger } from '../infra/logger.js';
import { errorBeforeTheApp, loggedPath } from './before-the-app.js';
import { requestIdFrom } from './request-id.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface InFlightBounds {
  /** Requests of one connection worked on at once (MAX_PIPELINED_PER_CONNECTION); 0: no bound. */
  perConnection: number;
  /** Requests of one client address worked on at once, over all its connections; 0: no bound. */
  perAddress: number;
}

/** Which bound refused a request: its connection's pipelined requests or its address's. */
export const IN_FLIGHT_BOUNDS = ['connection', 'address'] as const;
export type InFlightBound = (typeof IN_FLIGHT_BOUNDS)[number];

/**
 * Bounds how many requests of one connection, and of one address, are worked on at once. HTTP/1.1
 * lets a client send requests without waiting for answers (pipelining), and Node hands every one it
 * parses to the app at once: one connection can carry thousands, each costing the full path
 * (admission in Redis, the account's lanes, an answer) before any other client's request behind
 * them is looked at. Reviews measured one account pipelining 2,000 requests on each of 4
 * connections (another account's simple gets then took up to 1.3 s, /healthz 0.4 s), and 32 on
 * each of 250 (2.7 s).
 *
 * Past either bound, a request is answered at once with 503 and `Retry-After: 1`, before the app:
 * no key check, no quota counted, a log line of its own (as the parser's refusals have). Node keeps
 * answers in request order, so a refusal goes out after the answers before it. The address's bound
 * is its connection cap (start-server): pipelining then lets an address have no more in flight than
 * one request on each connection it may open. Clients that pipeline a few (rare; browsers and the
 * official clients do not) never meet either.
 *
 * What is left is volume: a client that reads refusals and sends more as fast as they come costs a
 * parse and a refusal each, which a proxy's per-client rate limit answers better than this process
 * can (see docs/operations.md).
 */
export function boundRequestsInFlight(
  handle: Handler,
  { perConnection, perAddress }: InFlightBounds,
  { logger = silentLogger, onRefused = () => {} }: { logger?: Logger; onRefused?: (bound: InFlightBound) => void } = {},
): Handler {
  if (perConnection <= 0 && perAddress <= 0) return handle;
  const ofConnection = new WeakMap<Socket, number>();
  const ofAddress = new Map<string, number>();
  return (req, res) => {
    const socket = req.socket;
    const address = socket.remoteAddress ?? '';
    const onConnection = ofConnection.get(socket) ?? 0;
    const fromAddress = ofAddress.get(address) ?? 0;
    const over = perConnection > 0 && onConnection >= perConnection ? 'connection' : perAddress > 0 && fromAddress >= perAddress ? 'address' : null;
    if (over) {
      refuse(
        req,
        res,
        over === 'connection' ? `pipelined on one connection: at most ${perConnection}` : `from one address: at most ${perAddress}`,
        logger,
      );
      onRefused(over);
      return;
    }
    ofConnection.set(socket, onConnection + 1);
    ofAddress.set(address, fromAddress + 1);
    // 'close' comes once per answer: when it is written, or when the connection goes first.
    res.once('close', () => {
      ofConnection.set(socket, (ofConnection.get(socket) ?? 1) - 1);
      const left = (ofAddress.get(address) ?? 1) - 1;
      if (left > 0) ofAddress.set(address, left);
      else ofAddress.delete(address);
    });
    handle(req, res);
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, bound: string, logger: Logger): void {
  const given = req.headers['x-request-id'];
  const requestId = requestIdFrom(typeof given === 'string' ? given : undefined);
  const message = `Too many requests ${bound} are worked on at once. Wait for answers before sending more; please try again in 1 second`;
  const { body, headers } = errorBeforeTheApp(503, 'service_unavailable', message, requestId, ['Retry-After']);
  // As the access log names a request, and the peer, to find who floods (behind a proxy, the proxy).
  logger.info('request', {
    request_id: requestId,
    method: req.method,
    path: loggedPath(req),
    status: 503,
    refused_by: 'requests in flight',
    peer: req.socket.remoteAddress,
  });
  res.writeHead(503, { ...headers, 'Retry-After': '1' });
  res.end(body);
}
