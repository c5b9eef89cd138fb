import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface StackEndpoints {
  elasticsearchUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

function dockerEngineAvailable(): boolean {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<StackEndpoints> {
  const { GenericContainer, Wait } = await import('testcontainers');
  // The official image with the project's analysis plugin, as docker-compose builds it.
  const esImage = await GenericContainer.fromDockerfile(fileURLToPath(new URL('../..', import.meta.url)), 'docker/elasticsearch/Dockerfile').build();
  const [es, redis] = await Promise.all([
    esImage
      .withEnvironment({
        'discovery.type': 'single-node',
        'xpack.security.enabled': 'false',
        'cluster.routing.allocation.disk.threshold_enabled': 'false',
        ES_JAVA_OPTS: '-Xms512m -Xmx512m',
      })
      .withExposedPorts(9200)
      .withWaitStrategy(Wait.forHttp('/_cluster/health?wait_for_status=yellow', 9200).forStatusCode(200))
      .withStartupTimeout(180_000)
      .start(),
    new GenericContainer('redis:7-alpine').withExposedPorts(6379).start(),
  ]);
  return {
    elasticsearchUrl: `http://${es.getHost()}:${es.getMappedPort(9200)}`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    stop: async () => {
      await Promise.allSettled([es.stop(), redis.stop()]);
    },
  };
}

/**
 * Real Elasticsearch and Redis for integration tests: the URLs given in the
 * environment; else containers when a Docker engine answers; else the local
 * stack of scripts/stack.sh on its default ports.
 */
export async function resolveStack(env = process.env): Promise<StackEndpoints> {
  if (env['ELASTICSEARCH_URL'] || env['REDIS_URL']) {
    return {
      elasticsearchUrl: env['ELASTICSEARCH_URL'] ?? 'http://127.0.0.1:9200',
      redisUrl: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      stop: async () => undefined,
    };
  }
  if (dockerEngineAvailable()) return startContainers();
  // Database 15 keeps test keys and counters (e.g. failed logins from 127.0.0.1)
  // away from a demo server using database 0 on the same Redis.
  return { elasticsearchUrl: 'http://127.0.0.1:9200', redisUrl: 'redis://127.0.0.1:6379/15', stop: async () => undefined };
}
