import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.js';
import { testConfig } from '../support/harness.js';
import { type ServerProcess, spawnServer } from '../support/server-process.js';
import { useCatalogue } from './catalogue-context.js';

// What compose and `npm run up` rely on: the API, started with CURSOR_SECRET_FILE naming a file
// that is not there yet, makes the secret, and a restart reads it, so a client's cursor still answers.
describe('CURSOR_SECRET_FILE, across a restart of the API', function () {
  this.timeout(90_000);
  const ctx = useCatalogue();
  let running: ServerProcess | undefined;
  afterEach(async () => {
    if (running?.server.exitCode === null) {
      running.server.kill('SIGINT');
      await running.exited;
    }
  });

  async function start(secretFile: string): Promise<string> {
    const port = await freePort();
    const { CURSOR_SECRET: _given, ...env } = process.env;
    running = await spawnServer({
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: '0',
      ELASTICSEARCH_URL: testConfig().elasticsearchUrl,
      REDIS_URL: testConfig().redisUrl,
      INDEX_ALIAS: ctx.alias,
      MEANING_MODEL_DIR: 'off',
      LOG_LEVEL: 'info',
      CURSOR_SECRET_FILE: secretFile,
    });
    return `http://127.0.0.1:${port}`;
  }

  async function stop(): Promise<void> {
    running!.server.kill('SIGINT');
    expect(await running!.exited).to.equal(0);
  }

  async function page(base: string, query: string): Promise<{ status: number; body: { meta: { next_cursor?: string }; data: { id: number }[] } }> {
    const res = await fetch(`${base}/v1/wallpapers?${query}`, { headers: { Authorization: `Bearer ${ctx.key}` } });
    return { status: res.status, body: (await res.json()) as never };
  }

  it('when the API starts on a volume with no secret, then it makes one, does not warn, and a cursor it issued answers after a restart', async () => {
    const secretFile = join(mkdtempSync(join(tmpdir(), 'secret-volume-')), 'cursor-secret');
    let base = await start(secretFile);
    const first = await page(base, 'per_page=2');
    expect(first.status).to.equal(200);
    const cursor = first.body.meta.next_cursor!;
    expect(cursor).to.be.a('string');
    const next = await page(base, `per_page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(running!.output()).to.not.include('CURSOR_SECRET is not set');
    await stop();
    const secret = readFileSync(secretFile, 'utf8');

    base = await start(secretFile);
    const again = await page(base, `per_page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(again.status).to.equal(200);
    expect(again.body.data.map((w) => w.id)).to.deep.equal(next.body.data.map((w) => w.id));
    expect(readFileSync(secretFile, 'utf8')).to.equal(secret);
    expect(running!.output()).to.not.include(secret.trim());
  });
});
