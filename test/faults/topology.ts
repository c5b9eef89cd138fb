import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '../..');
const STACK = process.env['STACK_DIR'] ?? join(ROOT, '.stack');
export const ES_PORTS = [9201, 9202, 9203];
export const REDIS_PORTS = [7001, 7002, 7003, 7004, 7005, 7006];
export const ES_URL = ES_PORTS.map((p) => `http://127.0.0.1:${p}`).join(',');
export const REDIS_URL = REDIS_PORTS.map((p) => `redis://127.0.0.1:${p}`).join(',');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function stack(...args: string[]): Promise<void> {
  await exec('bash', [join(ROOT, 'scripts/stack.sh'), ...args], { timeout: 600_000 });
}

export const esPid = (node: number) => Number(readFileSync(join(STACK, `cluster/es-${node}/es.pid`), 'utf8').trim());
export const redisPid = (port: number) => Number(readFileSync(join(STACK, `cluster/redis-${port}/redis.pid`), 'utf8').trim());

export async function esGet<T>(path: string, ports = ES_PORTS): Promise<T> {
  for (const port of ports) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return (await res.json()) as T;
    } catch {
      // the next node
    }
  }
  throw new Error(`no Elasticsearch node answered ${path}`);
}

/** The node (1-based) holding the primary of the index behind the alias. */
export async function primaryNode(alias: string): Promise<number> {
  const shards = await esGet<{ prirep: string; node: string }[]>(`/_cat/shards/${alias}?format=json&h=prirep,node`);
  const primary = shards.find((s) => s.prirep === 'p');
  if (!primary) throw new Error(`no primary for ${alias}`);
  return Number(primary.node.replace('es-', ''));
}

/** Waits for the cluster to report this status with this many nodes; returns the seconds it took. */
export async function waitForCluster(status: 'green' | 'yellow', nodes: number, ports = ES_PORTS, timeoutMs = 180_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const health = await esGet<{ status: string; number_of_nodes: number }>(`/_cluster/health`, ports);
      if (health.number_of_nodes === nodes && (health.status === status || (status === 'yellow' && health.status === 'green')))
        return (Date.now() - started) / 1000;
    } catch {
      // not yet
    }
    await sleep(500);
  }
  throw new Error(`the cluster did not reach ${status} with ${nodes} nodes`);
}

export async function redisCli(port: number, ...args: string[]): Promise<string> {
  return (await exec('redis-cli', ['-p', String(port), ...args], { timeout: 10_000 })).stdout;
}

/** Masters as `port` list, from CLUSTER NODES on any node that answers. */
export async function redisMasters(): Promise<number[]> {
  for (const port of REDIS_PORTS) {
    try {
      const nodes = await redisCli(port, 'cluster', 'nodes');
      return nodes
        .split('\n')
        .filter((line) => line.includes('master') && !line.includes('fail'))
        .map((line) => Number(/127\.0\.0\.1:(\d+)@/.exec(line)?.[1]))
        .filter(Boolean);
    } catch {
      // the next node
    }
  }
  throw new Error('no Redis Cluster node answered');
}

/** The master port serving a Redis key's slot. */
export async function masterOf(key: string): Promise<number> {
  for (const port of REDIS_PORTS) {
    try {
      const slot = Number((await redisCli(port, 'cluster', 'keyslot', key)).trim());
      const slots = (await redisCli(port, 'cluster', 'slots')).split('\n');
      // redis-cli prints each range as: start, end, then the master's host and port.
      for (let i = 0; i + 3 < slots.length; i++) {
        if (/^\d+$/.test(slots[i]!.trim()) && /^\d+$/.test(slots[i + 1]!.trim())) {
          const [start, end] = [Number(slots[i]!.trim()), Number(slots[i + 1]!.trim())];
          if (slot >= start && slot <= end) return Number(slots[i + 3]!.trim());
        }
      }
    } catch {
      // the next node
    }
  }
  throw new Error(`no master found for ${key}`);
}

/**
 * Waits until the cluster has marked the killed master failed and serves every slot again (as a
 * surviving node sees it); returns the seconds it took.
 */
export async function waitForFailover(killed: number, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  const survivors = REDIS_PORTS.filter((port) => port !== killed);
  while (Date.now() - started < timeoutMs) {
    for (const port of survivors) {
      try {
        const nodes = await redisCli(port, 'cluster', 'nodes');
        const line = nodes.split('\n').find((l) => l.includes(`127.0.0.1:${killed}@`)) ?? '';
        if (line.includes('fail') && !line.includes('fail?') && (await redisCli(port, 'cluster', 'info')).includes('cluster_state:ok')) {
          return (Date.now() - started) / 1000;
        }
        break;
      } catch {
        // the next survivor
      }
    }
    await sleep(100);
  }
  throw new Error(`the Redis Cluster did not fail over from ${killed}`);
}

/**
 * Every Redis Cluster node answers, the cluster serves every slot, and every replica is in sync
 * with its master: a replica still resynchronising (a stopped master that woke as a replica asks
 * for a full copy) cannot take over, so a fault before then would be two at once. A run read a
 * failover that never came for 26 s that way.
 */
export async function waitForRedisWhole(timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const nodes = await redisCli((await redisMasters())[0]!, 'cluster', 'nodes');
      const lines = nodes.split('\n').filter(Boolean);
      if (lines.length === 6 && !lines.some((l) => l.includes('fail') || l.includes('disconnected'))) {
        const replicas = lines.filter((l) => l.includes('slave')).map((l) => Number(/:(\d+)@/.exec(l)?.[1]));
        const links = await Promise.all(replicas.map((port) => redisCli(port, 'info', 'replication')));
        if (replicas.length === 3 && links.every((info) => info.includes('master_link_status:up'))) return;
      }
    } catch {
      // not yet
    }
    await sleep(500);
  }
  throw new Error('the Redis Cluster did not become whole again');
}

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Where the API on `port` logs, at warn and above; a restart on the same port appends. */
export const apiLogPath = (port: number) => join(ROOT, 'test-output', `faults-api-${port}.log`);

/** The API's warnings and errors, counted by what they say, most frequent first. */
export function summarizeApiLogs(ports: number[]): string[] {
  const counts = new Map<string, number>();
  for (const port of ports) {
    if (!existsSync(apiLogPath(port))) continue;
    for (const line of readFileSync(apiLogPath(port), 'utf8').split('\n')) {
      if (line === '') continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        entry = { msg: line.slice(0, 120) };
      }
      const said = ['level', 'msg', 'operation', 'status', 'type', 'reason']
        .map((field) => entry[field])
        .filter((value) => typeof value === 'string' || typeof value === 'number')
        .join(' ');
      counts.set(said, (counts.get(said) ?? 0) + 1);
    }
  }
  return [...counts].sort(([, a], [, b]) => b - a).map(([said, count]) => `${count}× ${said}`);
}

/** The compiled API (dist/server.js) on the cluster topology. */
export async function startApi(port: number, env: Record<string, string>): Promise<ApiProcess> {
  // The log goes to a file: a pipe nobody reads fills and then blocks the API's writes.
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  const log = openSync(apiLogPath(port), 'a');
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ELASTICSEARCH_URL: ES_URL,
      REDIS_URL,
      ...env,
    },
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 300 && !ready && child.exitCode === null; i++) {
    try {
      ready = (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      // starting
    }
    if (!ready) await sleep(200);
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the API on port ${port} did not become ready (exit ${child.exitCode}); its log is in test-output`);
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
