import http from 'node:http';
import { answerClientError } from './http/client-errors.js';
import { answerConnect, refusedForHost, refusedForTransferCoding } from './http/protocol-refusals.js';
import { PROTOCOL_REFUSALS, type ProtocolRefusal } from './http/before-the-app.js';
import { IN_FLIGHT_BOUNDS, boundRequestsInFlight } from './http/requests-in-flight.js';
import { REFUSAL_REASONS } from './access/edge/refusals.js';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createEsClient } from './infra/elasticsearch.js';
import { type Logger, createLogger } from './infra/logger.js';
import { createMetrics } from './infra/metrics.js';
import { createRedis } from './infra/redis.js';
import { createMetricsApp } from './ops/edge/metrics-app.js';
import { createReadiness } from './ops/store/readiness.js';
import { buildServices } from './services.js';
import { checkCatalogueAtStart } from './wallpapers/store/catalogue-at-start.js';

// Idle keep-alive sockets are kept this long after the listener closes (a request may already
// be on its way on one), then swept every IDLE_SWEEP_MS.
const IDLE_GRACE_MS = 2000;
const IDLE_SWEEP_MS = 500;
const REDIS_FIRST_CONNECT_MS = 5000;
const SLOW_CLIENT_CHECK_MS = 1000;

/**
 * Closes a new connection at once when its address already holds `max` open ones. Behind a
 * reverse proxy every connection comes from the proxy: there the proxy caps per client
 * (docs/operations.md) and MAX_CONNECTIONS_PER_ADDRESS=0 turns this off.
 */
function capConnectionsPerAddress(server: http.Server, max: number, logger: Logger): void {
  const open = new Map<string, number>();
  let warnedAt = -Infinity;
  server.on('connection', (socket: net.Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        logger.warn('connections refused: too many open from one address', { max });
      }
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

export interface RunningServer {
  /** The API listener, e.g. http://127.0.0.1:3000. */
  url: string;
  /** The metrics listener, or null when METRICS_PORT is 0. */
  metricsUrl: string | null;
  /**
   * Shuts down: readiness reports draining for `drainMs` while the listener still serves, then
   * no new connections; requests already received are served (with `Connection: close`), idle
   * keep-alive sockets are swept after a grace, and the clients are closed. Resolves true when
   * everything finished within `shutdownTimeoutMs`, false when the rest had to be cut.
   */
  close(options?: { drainMs?: number }): Promise<boolean>;
}

// The longest a start waits for search meaning before it listens anyway.
const WARM_MAX_MS = 10_000;

/** Why a listener could not open, naming the settings that choose it: Node's own says only `listen EADDRINUSE`. */
export function listenProblem(error: NodeJS.ErrnoException, port: number, host: string, names: { port: string; host: string }): string {
  const where = `${names.host}=${host} ${names.port}=${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: another process holds that port; stop it or set ${names.port} to a free one`;
    case 'EACCES':
      return `cannot listen on ${where}: this user may not open that port (below 1024 needs privileges); set ${names.port} to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no interface of this machine has that address; set ${names.host} to one it has (0.0.0.0 for all)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: ${names.host} does not resolve to an address; set it to an address or a name this machine resolves`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}

function listen(server: http.Server, port: number, host: string, names: { port: string; host: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new Error(listenProblem(error, port, host, names), { cause: error })));
    server.listen(port, host, () => {
      const { address, port: bound } = server.address() as AddressInfo;
      resolve(`http://${address.includes(':') ? `[${address}]` : address}:${bound}`);
    });
  });
}

/** Opens the clients and listeners of one API process. The only place that opens sockets. */
export async function startServer(config: Config, { logger = createLogger(config.logLevel) }: { logger?: Logger } = {}): Promise<RunningServer> {
  const metrics = createMetrics({ defaults: true });
  // Every reason a refusal can have is a series from the start, at 0: a dashboard or an alert on a
  // rate reads 0 before the first refusal, not "no data" (helper-122).
  for (const reason of REFUSAL_REASONS) metrics.rateLimitRejections.inc({ reason }, 0);
  for (const reason of PROTOCOL_REFUSALS) metrics.protocolRefusals.inc({ reason }, 0);
  for (const bound of IN_FLIGHT_BOUNDS) metrics.inFlightRefusals.inc({ bound }, 0);
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: config.elasticsearchTimeoutMs });
  const redis = createRedis({ url: config.redisUrl, commandTimeoutMs: config.redisTimeoutMs });
  let redisDown = false;
  redis.on('error', (err: Error) => {
    if (!redisDown) logger.warn('redis connection error', { reason: err.message });
    redisDown = true;
  });
  redis.on('ready', () => {
    if (redisDown) logger.info('redis connection restored');
    redisDown = false;
  });
  // Commands are not queued while disconnected, so give the first connection a moment before serving.
  const connected = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), REDIS_FIRST_CONNECT_MS).unref()),
  ]);
  if (!connected) logger.warn('redis not ready after 5 s; serving anyway (authentication answers 503 until it is)');

  if (config.cursorSecret === null) {
    logger.warn('CURSOR_SECRET is not set: cursors are sealed with a secret of this process, so they fail after a restart or on another instance');
  }
  void checkCatalogueAtStart(
    es,
    { alias: config.indexAlias, elasticsearchUrl: config.elasticsearchUrl, resultWindow: config.maxResultWindow },
    logger,
  );
  const readiness = createReadiness({ es, redis, alias: config.indexAlias });
  const services = buildServices(config, { es, redis, logger, metrics, readiness });
  const app = createApp(services, config);
  // Warm before listening: a process restarted under load would otherwise hold its first searches
  // for the model (measured: the first search 742 ms, the p99 of the first seconds 1.6 s at 40/s).
  // Loading is bounded by its own timeouts; this bound is for a disk that does not answer.
  await Promise.race([services.warm, new Promise((resolve) => setTimeout(resolve, WARM_MAX_MS).unref())]);
  const handle = app.callback();
  let stopping = false;
  // Once shutdown starts, responses ask keep-alive clients to reconnect elsewhere. A client that
  // trickles its headers or body is cut off at the deadlines (checked every second, not Node's
  // default 30 s), so a few machines cannot hold every file descriptor with slow requests.
  const { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress, maxPipelinedPerConnection } = config.http;
  // An address may have as many requests in flight as it may open connections: pipelining adds none.
  const admit = boundRequestsInFlight(
    (req, res) => void handle(req, res),
    { perConnection: maxPipelinedPerConnection, perAddress: maxConnectionsPerAddress },
    { logger, onRefused: (bound) => metrics.inFlightRefusals.inc({ bound }) },
  );
  const refused = (reason: ProtocolRefusal) => metrics.protocolRefusals.inc({ reason });
  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (stopping) res.setHeader('Connection', 'close');
    if (refusedForHost(req, res, logger, refused) || refusedForTransferCoding(req, res, logger, refused)) return;
    admit(req, res);
  };
  // The Host check is ours, so that its refusal is answered as every error is (Node's own is a bare 400).
  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: SLOW_CLIENT_CHECK_MS,
      requireHostHeader: false,
    },
    serve,
  );
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (err: Error & { code?: string }, socket: net.Socket) => answerClientError(err, socket, logger, refused));
  // An expectation other than 100-continue is one HTTP lets a server ignore (RFC 9110 §10.1.1):
  // the request is answered as if it had none, not with Node's bare 417.
  server.on('checkExpectation', serve);
  server.on('connect', (_req: http.IncomingMessage, socket: net.Socket) => answerConnect(socket, logger, refused));
  if (maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, maxConnectionsPerAddress, logger);
  const url = await listen(server, config.port, config.host, { port: 'PORT', host: 'HOST' });
  logger.info('listening', { host: config.host, port: config.port, alias: config.indexAlias });

  let metricsServer: http.Server | null = null;
  let metricsUrl: string | null = null;
  if (config.metricsPort !== 0) {
    const handleMetrics = createMetricsApp(metrics).callback();
    metricsServer = http.createServer((req, res) => void handleMetrics(req, res));
    metricsUrl = await listen(metricsServer, config.metricsPort, config.metricsHost, { port: 'METRICS_PORT', host: 'METRICS_HOST' });
    logger.info('metrics listening', { host: config.metricsHost, port: config.metricsPort });
  }

  let closing: Promise<boolean> | null = null;
  async function shutdown(drainMs: number): Promise<boolean> {
    stopping = true;
    readiness.drain();
    // Requests waiting for their account's lanes are let in now: at lane pace, a long line would
    // outlast the shutdown's deadline, and they were already counted.
    services.lanes?.openAll();
    logger.info('shutting down: draining, then no new connections, finishing in-flight requests', { drainMs, timeoutMs: config.shutdownTimeoutMs });
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    metricsServer?.close();
    const finished = await new Promise<boolean>((resolve) => {
      const force = setTimeout(() => {
        logger.warn('shutdown timeout reached: closing remaining connections');
        server.closeAllConnections();
        resolve(false);
      }, config.shutdownTimeoutMs);
      // Stop accepting without http.Server#close's immediate sweep of idle keep-alive sockets: a
      // request already written to such a socket would be reset. Idle sockets are swept after a grace.
      let sweeper: NodeJS.Timeout | undefined;
      const grace = setTimeout(() => {
        server.closeIdleConnections();
        sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      }, IDLE_GRACE_MS);
      net.Server.prototype.close.call(server, () => {
        clearTimeout(force);
        clearTimeout(grace);
        clearInterval(sweeper);
        resolve(true);
      });
    });
    await Promise.allSettled([es.close(), redis.quit()]);
    logger.info('stopped', { clean: finished });
    return finished;
  }

  return {
    url,
    metricsUrl,
    close: ({ drainMs = 0 } = {}) => (closing ??= shutdown(drainMs)),
  };
}
