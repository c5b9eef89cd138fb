import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { expect } from 'chai';
import { nodeArgsFor } from '../support/compiled-scripts.js';
import { freePort } from '../support/free-port.js';
import { testConfig } from '../support/harness.js';

/** src/server.ts as production starts it, run to its exit: its code and what it wrote to stderr. */
async function startFailing(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, nodeArgsFor('src/server.ts'), {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      ELASTICSEARCH_URL: testConfig().elasticsearchUrl,
      REDIS_URL: testConfig().redisUrl,
      MEANING_MODEL_DIR: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('the API when it cannot open its listeners', function () {
  this.timeout(60_000);
  let holder: Server;
  let held: number;

  before(async () => {
    holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    held = (holder.address() as { port: number }).port;
  });
  after(() => holder.close());

  it('when PORT or METRICS_PORT is taken by another process, then it exits 1 naming the setting and its value', async () => {
    const api = await startFailing({ PORT: String(held) });
    expect(api.code).to.equal(1);
    expect(api.stderr).to.include(`cannot listen on HOST=127.0.0.1 PORT=${held}: another process holds that port; stop it or set PORT to a free one`);
    const metrics = await startFailing({ PORT: String(await freePort()), METRICS_PORT: String(held) });
    expect(metrics.code).to.equal(1);
    expect(metrics.stderr).to.include(`cannot listen on METRICS_HOST=127.0.0.1 METRICS_PORT=${held}: another process holds that port`);
  });

  it('when HOST is an address this machine does not have, then it exits 1 naming HOST and what to set', async () => {
    // 192.0.2.0/24 is kept for documentation (RFC 5737): no interface holds it.
    const run = await startFailing({ HOST: '192.0.2.1', PORT: String(await freePort()) });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('cannot listen on HOST=192.0.2.1');
    expect(run.stderr).to.include('set HOST to one it has (0.0.0.0 for all)');
  });
});
