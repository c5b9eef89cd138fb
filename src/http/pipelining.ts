import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Logger, silentLogger } from '../infra/logger.js';
import { requestIdFrom } from './request-id.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Bounds how many requests of one connection are worked on at once. HTTP/1.1 lets a client send
 * requests without waiting for answers (pipelining), and Node hands every one it parses to the app
 * at once: one connection can carry thousands, each costing the full path (admission in Redis, the
 * account's lanes, an answer) before any other client's request behind them is looked at. A review
 * measured one account pipelining 2,000 requests on each of 4 connections: another account's
 * simple gets then took up to 1.3 s and /healthz 0.4 s, even with the flooding key's quota spent.
 *
 * Past `maxPerConnection` in flight, a request is answered at once with 503 and `Retry-After: 1`,
 * before the app: no key check, no quota counted, a log line of its own (as the parser's refusals
 * have). Node keeps answers in request order, so the refusal goes out after the answers before it.
 * Clients that pipeline a few (rare; browsers and the official clients do not) never meet it.
 *
 * This bounds one connection only. An address may hold `MAX_CONNECTIONS_PER_ADDRESS` of them, and a
 * client that fills each to the bound, or sends refusals as fast as it reads them, is a flood by
 * volume that a proxy's per-client rate limit answers better than this process can (see
 * docs/operations.md).
 */
export function limitPipelining(
  handle: Handler,
  maxPerConnection: number,
  { logger = silentLogger, onRefused = () => {} }: { logger?: Logger; onRefused?: () => void } = {},
): Handler {
  if (maxPerConnection <= 0) return handle;
  const inFlight = new WeakMap<Socket, number>();
  return (req, res) => {
    const socket = req.socket;
    const working = inFlight.get(socket) ?? 0;
    if (working >= maxPerConnection) {
      refuse(req, res, maxPerConnection, logger);
      onRefused();
      return;
    }
    inFlight.set(socket, working + 1);
    // 'close' comes once per answer: when it is written, or when the connection goes first.
    res.once('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
    handle(req, res);
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, maxPerConnection: number, logger: Logger): void {
  const given = req.headers['x-request-id'];
  const requestId = requestIdFrom(typeof given === 'string' ? given : undefined);
  const message = `Too many requests pipelined on one connection: at most ${maxPerConnection} are worked on at once. Wait for answers before sending more; please try again in 1 second`;
  const body = JSON.stringify({ error: 'service_unavailable', message, status: 503 });
  // As the access log names a request, and the peer, to find who pipelines (behind a proxy, the proxy).
  logger.info('request', {
    request_id: requestId,
    method: req.method,
    path: (req.url ?? '').split('?')[0]!.slice(0, 200),
    status: 503,
    refused_by: 'pipelining limit',
    peer: req.socket.remoteAddress,
  });
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': '1',
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
