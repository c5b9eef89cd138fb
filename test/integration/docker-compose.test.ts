import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

function available(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'pipe', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * `docker compose config` (Compose v2) where it exists; otherwise Debian's docker-compose 1.29,
 * which validates the same file offline but predates the top-level `name` key, so it reads a
 * copy without that line.
 */
function compose(...args: string[]): string {
  if (available('docker', ['compose', 'version'])) return execFileSync('docker', ['compose', ...args], { encoding: 'utf8', timeout: 30_000 });
  const dir = mkdtempSync(join(tmpdir(), 'compose-'));
  const file = join(dir, 'docker-compose.yml');
  writeFileSync(file, readFileSync('docker-compose.yml', 'utf8').replace(/^name: .*\n/m, ''));
  return execFileSync('docker-compose', ['-f', file, '--project-directory', process.cwd(), ...args], { encoding: 'utf8', timeout: 30_000 });
}

/** One service's lines in `config`'s output, up to the next service. */
function serviceBlock(config: string, service: string): string {
  const start = config.indexOf(`\n  ${service}:\n`);
  expect(start, service).to.not.equal(-1);
  const rest = config.slice(start + 1);
  const next = rest.slice(1).search(/\n {2}\S/);
  return next === -1 ? rest : rest.slice(0, next + 1);
}

describe('docker-compose.yml', function () {
  this.timeout(60_000);
  before(function () {
    if (!available('docker', ['compose', 'version']) && !available('docker-compose', ['version'])) this.skip();
  });

  it('when validated, then it is a valid file whose default services are the four of the single-node stack', () => {
    compose('config', '-q');
    const services = compose('config', '--services').split('\n').filter(Boolean);
    expect(services).to.include.members(['api', 'elasticsearch', 'redis', 'seed']);
    expect(compose('config')).to.include('elasticsearch:8.19');
  });

  it('when the stack is brought up again, then its seeders leave the catalogue there, and node runs under init where docker stop must reach it', () => {
    const config = compose('--profile', 'cluster', 'config');
    for (const service of ['pictures', 'seed', 'seed-cluster']) {
      const block = serviceBlock(config, service);
      expect(block, service).to.match(/^ {4}init: true$/m);
      expect(block, service).to.not.include('npx');
    }
    expect(serviceBlock(config, 'seed')).to.include('--if-absent');
    expect(serviceBlock(config, 'seed-cluster')).to.include('--if-absent');
  });

  it('when the API is stopped or checked, then compose waits out its 12 s shutdown and reads /readyz', () => {
    const config = compose('--profile', 'cluster', 'config');
    for (const service of ['api', 'api-cluster']) {
      const block = serviceBlock(config, service);
      expect(block, service).to.match(/^ {4}stop_grace_period: 15s$/m);
      expect(block, service).to.include('/readyz');
    }
  });

  it('when the cluster profile is validated, then it has three Elasticsearch nodes, six Redis Cluster nodes and an API on both', () => {
    const config = compose('--profile', 'cluster', 'config');
    for (const service of ['es-1', 'es-2', 'es-3', 'redis-1', 'redis-6', 'redis-cluster-init', 'seed-cluster', 'api-cluster']) {
      expect(config).to.match(new RegExp(`^  ${service}:`, 'm'));
    }
    expect(config).to.include('ELASTICSEARCH_URL: http://es-1:9200,http://es-2:9200,http://es-3:9200');
    expect(config).to.include('REDIS_URL: redis://redis-1:6379,redis://redis-2:6379,redis://redis-3:6379');
    expect(config.match(/-Xms512m -Xmx512m/g)?.length).to.be.at.least(4);
    expect(config).to.include('--cluster-replicas 1');
  });

  it('when the API is rebuilt or restarted, then it seals cursors with the secret its volume keeps, so the cursors clients hold still answer', () => {
    const config = compose('--profile', 'cluster', 'config');
    for (const service of ['api', 'api-cluster']) {
      const block = serviceBlock(config, service);
      const file = /^ {6}CURSOR_SECRET_FILE: (\S+)$/m.exec(block);
      expect(file, `${service} sets CURSOR_SECRET_FILE`).to.not.equal(null);
      const folder = dirname(file![1]!);
      // `config` writes a named volume's target on the line after its source, or in the short form.
      expect(block, `${service} keeps ${folder} in a named volume`).to.match(
        new RegExp(`(source: [\\w-]+secrets\\n\\s+target: ${folder}|- [\\w-]+secrets:${folder})\\b`),
      );
    }
  });

  it('when the host restarts or a long-running service exits, then Docker starts it again', () => {
    const config = compose('--profile', 'cluster', 'config');
    for (const service of ['elasticsearch', 'redis', 'pictures', 'api', 'es-1', 'es-3', 'redis-1', 'redis-6', 'api-cluster']) {
      expect(serviceBlock(config, service), service).to.match(/^ {4}restart: unless-stopped$/m);
    }
    for (const service of ['seed', 'seed-cluster', 'redis-cluster-init'])
      expect(serviceBlock(config, service), service).to.match(/^ {4}restart: "?no"?$/m);
  });
});
