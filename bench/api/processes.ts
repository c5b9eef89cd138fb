import { BENCH_CURSOR_SECRET } from './cursor-workload.js';
import { pinned } from './cpu-pinning.js';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { createKeyStore } from '../../src/access/store/key-store.js';

const execFileAsync = promisify(execFile);

/** Keys the load is spread over: at 3,000 requests/s through a run of several targets, each stays under 3 requests/s. */
export const BENCH_KEYS = 2000;

const children = new Set<ChildProcess>();
// A harness that dies (Ctrl-C, a test timeout) must not leave servers behind.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface Running {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

async function waitFor(what: string, child: ChildProcess, ready: () => Promise<boolean>, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}:\n${stderr()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} not ready after 30 s:\n${stderr()}`);
}

function collect(child: ChildProcess): () => string {
  let text = '';
  const append = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => text;
}

export async function hasCommand(name: string): Promise<boolean> {
  try {
    await execFileAsync('sh', ['-c', `command -v ${name}`]);
    return true;
  } catch {
    return false;
  }
}

/** A bench Redis: `url` by loopback TCP, `socketUrl` the same server by its Unix socket. */
export interface RunningRedis extends Running {
  socketUrl: string;
}

/** A Redis of its own, so INFO commandstats counts the API's calls and nobody else's. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const socket = join(mkdtempSync(join(tmpdir(), 'bench-redis-')), 'redis.sock');
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no'];
  const child = track(
    spawn(...pinned('server', 'redis-server', args), {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const output = collect(child);
  const url = `redis://127.0.0.1:${port}`;
  await waitFor('redis-server', child, async () => (await execFileAsync('redis-cli', ['-p', String(port), 'ping'])).stdout.trim() === 'PONG', output);
  const stop = stopper(child);
  return {
    pid: child.pid!,
    url,
    socketUrl: `unix://${socket}`,
    stop: async () => {
      await stop();
      rmSync(dirname(socket), { recursive: true, force: true });
    },
  };
}

/**
 * Real traffic comes from many keys, each within its tier: `count` premium keys (10,000 requests
 * an hour each), written one per line to `file` for the load generators to take in turn. Created
 * through the key store, in the format every version of the API reads.
 */
export async function createBenchKeys(redisUrl: string, file: string, count = BENCH_KEYS): Promise<string[]> {
  const redis = new Redis(redisUrl);
  try {
    const store = createKeyStore(redis);
    const keys: string[] = [];
    for (let i = 0; i < count; i++) keys.push((await store.createKey({ tier: 'premium', account: `bench-${i}` })).apiKey);
    writeFileSync(file, `${keys.join('\n')}\n`);
    return keys;
  } finally {
    redis.disconnect();
  }
}

export interface ApiProcessOptions {
  /** The tree whose src/ is compiled and run (the working tree, or a --compare copy). */
  cwd: string;
  alias: string;
  redisUrl: string;
  key: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof; after the production flags, so they can override them. */
  nodeArgs?: string[];
  /** The node binary to run it with; the harness's own by default. */
  node?: string;
}

/**
 * The node flags `npm start` runs the compiled server with (package.json's `start` script:
 * `... node <flags> dist/server.js`), so the benchmark measures the production process.
 */
export function productionNodeFlags(cwd: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const match = /\bnode((?:\s+--\S+)*)\s+dist\/server\.js\b/.exec(scripts?.['start'] ?? '');
  if (!match) throw new Error(`package.json in ${cwd}: the start script does not run "node [flags] dist/server.js"`);
  return (match[1] as string).split(/\s+/).filter(Boolean);
}

const builds = new Map<string, Promise<void>>();

/** Compiles the tree's src/ into its dist/ (`npm run build`), once per tree per harness run. */
function buildServer(cwd: string): Promise<void> {
  let build = builds.get(cwd);
  if (!build) {
    const dist = join(cwd, 'dist');
    // A tree whose dist/ links to another tree's would overwrite that build: it gets a dist/ of its own.
    if (lstatSync(dist, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(dist);
    build = execFileAsync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd }).then(
      () => undefined,
      (err: Error & { stdout?: string }) => {
        throw new Error(`build of ${cwd} failed: ${err.message}\n${err.stdout ?? ''}`);
      },
    );
    builds.set(cwd, build);
  }
  return build;
}

export async function startApi({ cwd, alias, redisUrl, key, env = {}, nodeArgs = [], node = process.execPath }: ApiProcessOptions): Promise<Running> {
  await buildServer(cwd);
  const port = await freePort();
  const child = track(
    spawn(...pinned('server', node, [...productionNodeFlags(cwd), ...nodeArgs, 'dist/server.js']), {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        INDEX_ALIAS: alias,
        LOG_LEVEL: 'warn',
        REDIS_URL: redisUrl,
        // Several APIs run side by side; none needs the metrics listener.
        METRICS_PORT: '0',
        CURSOR_SECRET: BENCH_CURSOR_SECRET,
        // No balancer routes to a benchmark's API: stopping it need not wait for one to notice.
        SHUTDOWN_DRAIN_MS: '0',
        ...env,
      },
    }),
  );
  const output = collect(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    `API on ${alias}`,
    child,
    async () => {
      const res = await fetch(`${url}/v1/wallpapers?per_page=1`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      return res.status === 200;
    },
    output,
  );
  return { pid: child.pid!, url, stop: stopper(child) };
}

const compiledServers = new Map<string, Promise<string>>();

/**
 * Compiles one bench server (a file under bench/api, with whatever of src/ it imports) for the
 * API's target, once per tree per harness run; resolves to the compiled entry.
 */
function compileServer(cwd: string, name: string): Promise<string> {
  const outDir = join(cwd, 'bench/tmp', name);
  let compiled = compiledServers.get(outDir);
  if (!compiled) {
    compiled = compileServerInto(cwd, name, outDir);
    compiledServers.set(outDir, compiled);
  }
  return compiled;
}

async function compileServerInto(cwd: string, name: string, outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const compilerFlags = [
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2023',
    '--strict',
    '--skipLibCheck',
    '--types',
    'node',
  ];
  await execFileAsync('npx', ['tsc', `bench/api/${name}.ts`, '--outDir', outDir, '--rootDir', '.', ...compilerFlags], { cwd });
  // Compiled src/ reads the contract from ../../openapi, as dist/ does: the same place beside the
  // build. Made afresh, so a link left by a moved or deleted tree does not stand in the way.
  const contract = join(outDir, 'openapi');
  rmSync(contract, { force: true });
  symlinkSync(join(cwd, 'openapi'), contract);
  return join(outDir, 'bench/api', `${name}.js`);
}

/** Starts a compiled bench server with the production node flags: `node <entry> <port> ...args`. */
async function startCompiledServer(cwd: string, name: string, args: readonly string[], ready: (url: string) => Promise<boolean>): Promise<Running> {
  const entry = await compileServer(cwd, name);
  const port = await freePort();
  const child = track(
    spawn(...pinned('server', process.execPath, [...productionNodeFlags(cwd), entry, String(port), ...args]), {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const output = collect(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(name, child, () => ready(url), output);
  return { pid: child.pid!, url, stop: stopper(child) };
}

/** The framework's ceiling: Koa answering a fixed JSON body, no authentication, no backend; compiled like the API. */
export function startBareKoa(cwd: string, bodyFile: string): Promise<Running> {
  return startCompiledServer(cwd, 'bare-koa', [bodyFile], async (url) => (await fetch(url)).ok);
}

/**
 * A reference minimum: bare Koa plus the API's one admission round trip per request and its quota
 * headers (bench/api/admission-floor.ts). Ready once `key` is admitted through it.
 */
export function startAdmissionFloor(cwd: string, bodyFile: string, redisUrl: string, key: string): Promise<Running> {
  return startCompiledServer(cwd, 'admission-floor', [bodyFile, redisUrl], async (url) => {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return res.status === 200;
  });
}

export function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** Samples VmRSS every 100 ms until stopped; returns the peak in MB. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = rssKb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssKb(pid));
    } catch {
      // the process is gone; keep the peak seen so far
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak / 1024;
    },
  };
}
