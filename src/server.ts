import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createEsClient } from './infra/elasticsearch.js';
import { createRedis } from './infra/redis.js';
import { createLogger } from './logger.js';

function main(): void {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: config.elasticsearchTimeoutMs });
  const redis = createRedis({ url: config.redisUrl, commandTimeoutMs: config.redisTimeoutMs });
  redis.on('error', (err: Error) => logger.warn('redis connection error', { reason: err.message }));

  const app = createApp({ config, es, redis, logger });
  const server = app.listen(config.port, config.host, () => {
    logger.info('listening', { host: config.host, port: config.port, alias: config.indexAlias });
  });
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      await Promise.allSettled([es.close(), redis.quit()]);
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main();
