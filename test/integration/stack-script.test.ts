import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';

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

  it('when the stack is already running, then start reuses both nodes', async () => {
    const res = await run('bash', ['scripts/stack.sh', 'start'], { env: process.env, timeout: 60_000 });
    expect(res.stderr).to.include('Redis already answering').and.include('Elasticsearch already answering');
  });
});
