import http from 'node:http';
import net from 'node:net';
import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createEsClient } from './infra/elasticsearch.js';
import { createRedis } from './infra/redis.js';
import { createLogger } from './infra/logger.js';
import { createMetrics } from './infra/metrics.js';
import { createMetricsApp } from './ops/metrics-app.js';
import { createReadiness } from './ops/readiness.js';

// Idle keep-alive sockets are kept this long after SIGTERM (a request may already be
// on its way on one), then swept every IDLE_SWEEP_MS.
const IDLE_GRACE_MS = 2000;
const IDLE_SWEEP_MS = 500;

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const metrics = createMetrics({ defaults: true });
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
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
  ]);
  if (!connected) logger.warn('redis not ready after 5 s; serving anyway (authentication answers 503 until it is)');

  const readiness = createReadiness({ es, redis, alias: config.indexAlias });
  const app = createApp({ config, es, redis, logger, metrics, readiness });
  let stopping = false;
  // Once shutdown starts, responses ask keep-alive clients to reconnect elsewhere.
  app.middleware.unshift(async (ctx, next) => {
    if (stopping) ctx.set('Connection', 'close');
    await next();
  });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await listen(server, config.port, config.host);
  logger.info('listening', { host: config.host, port: config.port, alias: config.indexAlias });

  let metricsServer: http.Server | undefined;
  if (config.metricsPort !== 0) {
    metricsServer = http.createServer(createMetricsApp(metrics).callback());
    await listen(metricsServer, config.metricsPort, config.metricsHost);
    logger.info('metrics listening', { host: config.metricsHost, port: config.metricsPort });
  }

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    readiness.drain();
    // SIGTERM comes from an orchestrator: readiness reports draining while the listener still
    // serves, so load balancers stop sending before connections are refused. Ctrl-C stops at once.
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    logger.info('shutting down: draining, then no new connections, finishing in-flight requests', {
      signal,
      drainMs,
      timeoutMs: config.shutdownTimeoutMs,
    });
    setTimeout(() => closeListener(), drainMs).unref();
  };

  const closeListener = () => {
    const force = setTimeout(() => {
      logger.warn('shutdown timeout reached: closing remaining connections');
      server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    metricsServer?.close();
    // Stop accepting without http.Server#close's immediate sweep of idle keep-alive
    // sockets: a request already written to such a socket would be reset. Requests
    // arriving in the next moments are served with `Connection: close`; idle
    // sockets are swept after that grace.
    net.Server.prototype.close.call(server, async () => {
      clearTimeout(grace);
      clearInterval(sweeper);
      await Promise.allSettled([es.close(), redis.quit()]);
      logger.info('stopped');
      process.exit(0);
    });
    let sweeper: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    }, IDLE_GRACE_MS);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
