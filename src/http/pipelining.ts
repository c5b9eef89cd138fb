import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Logger, silentLogger } from '../infra/logger.js';

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
 * before the app: no key check, no quota counted, no log line of the app's (one of its own, as the
 * parser's refusals have). Node keeps answers in request order, so the refusal goes out after the
 * answers before it. Clients that pipeline a few (rare; browsers and the official clients do not)
 * never meet it.
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
      refuse(res, maxPerConnection, logger);
      onRefused();
      return;
    }
    inFlight.set(socket, working + 1);
    // 'close' comes once per answer: when it is written, or when the connection goes first.
    res.once('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
    handle(req, res);
  };
}

function refuse(res: ServerResponse, maxPerConnection: number, logger: Logger): void {
  const requestId = randomUUID();
  const message = `Too many requests pipelined on one connection: at most ${maxPerConnection} are worked on at once. Wait for answers before sending more; please try again in 1 second`;
  const body = JSON.stringify({ error: 'service_unavailable', message, status: 503 });
  logger.info('request', { request_id: requestId, status: 503, refused_by: 'pipelining limit' });
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
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
