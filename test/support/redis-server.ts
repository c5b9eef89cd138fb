import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function answers(port: number): Promise<boolean> {
  const { Socket } = await import('node:net');
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(300);
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

export interface RedisServerOptions {
  /** A redis.conf to start from (the project's own, say); otherwise AOF with fsync on every write. */
  configFile?: string;
  /**
   * Cluster mode, one node owning all 16,384 slots: a real Redis Cluster as far as clients see
   * it, refusing any command or script whose keys span slots (CROSSSLOT).
   */
  cluster?: boolean;
  /**
   * Cluster mode as the replica of this node (itself started with `cluster`): it owns no slots,
   * and no failover happens within a test (a node timeout of a minute), so pausing the master
   * leaves a master that hangs and a replica that answers.
   */
  replicaOf?: RedisServer;
  /** Also listens on a Unix socket in its directory (`socketUrl`), readable by this user only. */
  socket?: boolean;
}

/**
 * A private, real redis-server (Debian's binary) that a test can stop, kill, freeze and start
 * again on the same port, keeping its data directory.
 */
export class RedisServer {
  private process: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'wpc-redis-'));

  private constructor(
    readonly port: number,
    private readonly options: RedisServerOptions,
  ) {}

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), options);
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The same server by its Unix socket (started with `socket`). */
  get socketUrl(): string {
    return `unix://${join(this.dir, 'redis.sock')}`;
  }

  async start(): Promise<void> {
    const persistence = this.options.configFile ? [this.options.configFile] : [];
    const defaults = this.options.configFile ? [] : ['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''];
    const cluster =
      this.options.cluster || this.options.replicaOf
        ? [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(this.dir, 'nodes.conf'),
            '--cluster-announce-ip',
            '127.0.0.1',
            '--cluster-node-timeout',
            '60000',
          ]
        : [];
    const socket = this.options.socket ? ['--unixsocket', join(this.dir, 'redis.sock'), '--unixsocketperm', '700'] : [];
    this.process = spawn(
      'redis-server',
      [...persistence, '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, ...defaults, ...cluster, ...socket],
      {
        stdio: 'ignore',
      },
    );
    await waitFor(() => answers(this.port), 10_000, `redis-server on ${this.port}`);
    if (this.options.cluster) await this.claimAllSlots();
    if (this.options.replicaOf) await this.replicate(this.options.replicaOf);
  }

  private async replicate(master: RedisServer): Promise<void> {
    const { Redis } = await import('ioredis');
    const admin = new Redis(this.port, '127.0.0.1', { lazyConnect: true });
    const primary = new Redis(master.port, '127.0.0.1', { lazyConnect: true });
    try {
      await Promise.all([admin.connect(), primary.connect()]);
      const masterId = String(await primary.call('CLUSTER', 'MYID'));
      await admin.call('CLUSTER', 'MEET', '127.0.0.1', String(master.port));
      await waitFor(async () => String(await admin.call('CLUSTER', 'NODES')).includes(masterId), 10_000, 'the master to be known');
      await admin.call('CLUSTER', 'REPLICATE', masterId);
      await waitFor(async () => (await admin.info('replication')).includes('master_link_status:up'), 10_000, 'the replica in sync');
      await waitFor(async () => String(await primary.call('CLUSTER', 'SLOTS')).includes(String(this.port)), 10_000, 'the replica in the slot map');
    } finally {
      admin.disconnect();
      primary.disconnect();
    }
  }

  private async claimAllSlots(): Promise<void> {
    const { Redis } = await import('ioredis');
    const admin = new Redis(this.port, '127.0.0.1', { lazyConnect: true });
    try {
      await admin.connect();
      const info = await admin.cluster('INFO');
      if (!info.includes('cluster_state:ok')) await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
      await waitFor(async () => (await admin.cluster('INFO')).includes('cluster_state:ok'), 10_000, 'cluster_state:ok');
    } finally {
      admin.disconnect();
    }
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.process = undefined;
  }

  /** SIGTERM: Redis shuts down cleanly. */
  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }

  /** SIGKILL: a crash; only what Redis had already written survives. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  /** SIGSTOP: the process keeps its connections open and answers nothing, as a hung server does. */
  pause(): void {
    this.process?.kill('SIGSTOP');
  }

  resume(): void {
    this.process?.kill('SIGCONT');
  }

  async destroy(): Promise<void> {
    this.resume();
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
