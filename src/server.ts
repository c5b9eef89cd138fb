import http from 'node:http';
import Koa from 'koa';
import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createEsClient } from './infra/elasticsearch.js';
import { createRedis } from './infra/redis.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { metricsHandler } from './ops/routes.js';

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

  const app = createApp({ config, es, redis, logger, metrics });
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
    const metricsApp = new Koa();
    metricsApp.use(async (ctx, next) => (ctx.path === '/metrics' ? metricsHandler(metrics)(ctx) : next()));
    metricsServer = http.createServer(metricsApp.callback());
    await listen(metricsServer, config.metricsPort, config.host);
    logger.info('metrics listening', { port: config.metricsPort });
  }

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down: no new connections, finishing in-flight requests', {
      signal,
      timeoutMs: config.shutdownTimeoutMs,
    });
    const force = setTimeout(() => {
      logger.warn('shutdown timeout reached: closing remaining connections');
      server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    metricsServer?.close();
    server.close(async () => {
      await Promise.allSettled([es.close(), redis.quit()]);
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
