import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyRedis } from '../support/harness.js';
import { freePort } from '../support/free-port.js';
import { until } from '../support/until.js';

const run = promisify(execFile);

async function occupyPort(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 200 OK\r\n\r\nnot elasticsearch');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function stack(env: Record<string, string>) {
  try {
    await run('bash', ['scripts/stack.sh', 'start'], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe('scripts/stack.sh', function () {
  this.timeout(90_000);

  it('when the Elasticsearch port is taken by something else, then it says so and exits 1 without hanging', async () => {
    const { server, port } = await occupyPort();
    try {
      const res = await stack({ ES_PORT: String(port) });
      expect(res.code).to.equal(1);
      expect(res.stderr).to.include(`port ${port} is taken by something that is not Elasticsearch`);
    } finally {
      server.close();
    }
  });

  it('when the Redis port is taken by something else, then it says so and exits 1', async () => {
    const { server, port } = await occupyPort();
    try {
      const res = await stack({ REDIS_PORT: String(port) });
      expect(res.code).to.equal(1);
      expect(res.stderr).to.include(`port ${port} is taken by something that is not Redis`);
    } finally {
      server.close();
    }
  });

  it('when another start from the same directory is under way, then a start waits for it, and gives up naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stack-lock-'));
    try {
      mkdirSync(join(dir, 'start.lock'));
      writeFileSync(join(dir, 'start.lock', 'pid'), String(process.pid));
      const began = Date.now();
      const res = await stack({ STACK_DIR: dir, START_WAIT_SECONDS: '2' });
      expect(res.code).to.equal(1);
      expect(res.stderr).to.include(`is under way (pid ${process.pid}): waiting for it`);
      expect(res.stderr).to.include('still under way after 2s');
      expect(Date.now() - began).to.be.at.least(2000);
      expect(existsSync(join(dir, 'start.lock')), 'the other start`s lock is left to it').to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the start that held the lock is gone, then a start takes the lock over, and lets it go when it ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stack-lock-'));
    const { server, port } = await occupyPort();
    try {
      const gone = spawnSync('true').pid;
      mkdirSync(join(dir, 'start.lock'));
      writeFileSync(join(dir, 'start.lock', 'pid'), String(gone));
      const res = await stack({ STACK_DIR: dir, REDIS_PORT: String(port) });
      expect(res.code).to.equal(1);
      expect(res.stderr).not.to.include('under way');
      expect(res.stderr, 'it went on to start Redis').to.include(`port ${port} is taken by something that is not Redis`);
      expect(existsSync(join(dir, 'start.lock'))).to.equal(false);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the stack is already running, then start reuses both nodes', async () => {
    const res = await run('bash', ['scripts/stack.sh', 'start'], { env: process.env, timeout: 60_000 });
    expect(res.stderr).to.include('Redis already answering').and.include('Elasticsearch already answering');
  });

  it('when the stack is already running and another start holds the lock (the cluster topology`s), then start reuses both nodes without waiting', async () => {
    const lock = join('.stack', 'start.lock');
    if (existsSync(lock)) throw new Error(`${lock} is held by a start under way`);
    mkdirSync(lock, { recursive: true });
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const began = Date.now();
      const res = await stack({ START_WAIT_SECONDS: '5' });
      expect(res.code, res.stderr).to.equal(0);
      expect(Date.now() - began).to.be.below(5000);
      expect(existsSync(lock), 'the other start`s lock is left to it').to.equal(true);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  });

  it('when the stack`s Redis writes its snapshot and append-only files, then only their owner can read them', async function () {
    const redis = await readyRedis();
    try {
      const [, dir] = (await redis.config('GET', 'dir')) as [string, string];
      // Only the stack this script started is its to judge (not a Redis of compose or elsewhere);
      // real paths, so a checkout whose .stack is a link to another's still judges it.
      if (!existsSync('.stack') || !realpathSync(dir).startsWith(realpathSync('.stack'))) this.skip();
      const before = await redis.lastsave();
      await redis.bgsave();
      expect(await until(async () => (await redis.lastsave()) !== before, 20_000)).to.equal(true);
      const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      expect(files.map((f) => f.name)).to.include('dump.rdb');
      for (const file of files) {
        const mode = statSync(join(file.parentPath, file.name)).mode & 0o777;
        expect(mode & 0o077, `${file.name} is ${mode.toString(8)}`).to.equal(0);
      }
    } finally {
      redis.disconnect();
    }
  });

  it('when the pictures port is taken by another server, even one answering 404, then it says so and exits 1', async () => {
    const { server, port } = await occupyPort();
    try {
      const res = await run('bash', ['scripts/stack.sh', 'pictures-start', '42'], {
        env: { ...process.env, IMAGE_BASE_URL: `http://127.0.0.1:${port}` },
        timeout: 30_000,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(res.code).to.equal(1);
      expect(res.stderr).to.include(`port ${port} is taken by something that is not the demo pictures (set PICTURES_PORT)`);
    } finally {
      server.close();
    }
  });

  it('when the Redis Cluster`s nodes were killed and a start brings them back, then it waits for them to settle instead of creating a cluster', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stack-cluster-'));
    // Six free ports in a row, and an Elasticsearch port that answers as a node not started from
    // this directory: the start stops there, after the Redis Cluster, without starting a JVM.
    const base = 17_000 + Math.floor(Math.random() * 2000) * 10;
    const fake = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"cluster_name":"elsewhere"}');
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const env = { STACK_DIR: dir, REDIS_CLUSTER: '1', REDIS_CLUSTER_PORT: String(base), ES_PORT: String((fake.address() as AddressInfo).port) };
    const start = () =>
      run('bash', ['scripts/stack.sh', 'start'], { env: { ...process.env, ...env }, timeout: 60_000 }).then(
        (res) => res.stderr,
        (err: { stderr: string }) => err.stderr,
      );
    const pids = () =>
      readdirSync(join(dir, 'cluster')).flatMap((node) =>
        /^redis-\d+$/.test(node) ? [Number(readFileSync(join(dir, 'cluster', node, 'redis.pid'), 'utf8'))] : [],
      );
    try {
      expect(await start())
        .to.include('creating a Redis Cluster')
        .and.include('Redis Cluster ready');
      for (const pid of pids()) process.kill(pid, 'SIGKILL');
      const again = await start();
      expect(again).to.include('know each other from before').and.include('Redis Cluster ready');
      expect(again).not.to.include('create failed');
    } finally {
      await run('bash', ['scripts/stack.sh', 'stop-cluster'], { env: { ...process.env, ...env } }).catch(() => undefined);
      fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the stack directory`s Elasticsearch runs and a start asks for it on another port, then it is refused, naming the one running', async function () {
    // Only where this checkout's stack runs: elsewhere the start would really start a node.
    if (!existsSync(join('.stack', 'elasticsearch-8.19.7', 'es.pid'))) this.skip();
    const port = String(await freePort());
    const redisPort = /^redis:\/\/127\.0\.0\.1:(\d+)(?:\/\d*)?$/.exec(process.env['REDIS_URL'] ?? '')?.[1];
    if (redisPort === undefined) this.skip();
    const res = await stack({ ES_PORT: port, REDIS_PORT: redisPort });
    expect(res.code).to.equal(1);
    expect(res.stderr).to.match(/Elasticsearch of .*\.stack already runs \(pid \d+\) on another port/);
  });
});
