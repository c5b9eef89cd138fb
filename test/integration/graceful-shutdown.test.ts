import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { type EsGate, heldPageReads, startEsGate } from '../support/es-gate.js';
import { freePort } from '../support/free-port.js';
import { request, testConfig } from '../support/harness.js';
import { type ServerProcess, spawnServer as spawnServerProcess, waitForLine } from '../support/server-process.js';
import { sleep, until } from '../support/until.js';
import { useCatalogue } from './catalogue-context.js';

interface Answer {
  status: number;
  body: { meta?: { total_items?: unknown } };
  at: number;
}

/** GET over a given keep-alive agent, so the test decides which sockets carry which requests. */
function get(agent: Agent, url: string, key?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: key ? { Authorization: `Bearer ${key}` } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {}, at: Date.now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

// Requests are held in flight by construction: the API talks to Elasticsearch through a gate that
// keeps every search's answer until the test opens it, after the signal. Each of the 60 searches
// is distinct (no coalescing) and the batcher may send all of them at once, so the gate holding
// 60 searches means the API has received, admitted and started every one of them.
const IN_FLIGHT = 60;
const DRAIN_MS = 3000;

describe('graceful shutdown', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({ rateLimit: { tiers: { free: 100000, premium: 100000 } } });
  let gate: EsGate;
  let child: ChildProcess | undefined;
  before(async () => {
    gate = await startEsGate(testConfig().elasticsearchUrl);
  });
  // Also after a timeout, when the test's own code never resumes.
  afterEach(() => {
    gate.open();
    if (child?.exitCode === null) child.kill('SIGKILL');
  });
  after(() => gate.close());

  /** The server as production starts it, through the gate, with `env` over the test's settings; resolves once it listens. */
  async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
    const started = await spawnServerProcess({
      ...process.env,
      HOST: '127.0.0.1',
      ELASTICSEARCH_URL: gate.url,
      INDEX_ALIAS: ctx.alias,
      LOG_LEVEL: 'info',
      RATE_LIMIT_TIERS: 'free:100000,premium:100000',
      ...env,
    });
    child = started.server;
    return started;
  }

  it('when SIGTERM arrives with requests in flight (metrics on their own port), then every one completes, new connections are refused and it exits 0', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const { server, exited, output } = await spawnServer({
      PORT: String(port),
      ELASTICSEARCH_BATCH_CONCURRENCY: String(IN_FLIGHT),
      // One key sends all 60: without lanes per account, so every one is in flight at once.
      MAX_IN_FLIGHT_PER_ACCOUNT: '0',
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    });
    await exercise(port, metricsPort, server, exited, output);
  });

  it('when SIGTERM arrives while an account has requests waiting for its lanes, then they are let in and answered before the process exits', async () => {
    const port = await freePort();
    const WAITING = 12;
    const { server, exited, output } = await spawnServer({
      PORT: String(port),
      METRICS_PORT: '0',
      SHUTDOWN_DRAIN_MS: '200',
      // One lane, so all but one of the account's searches wait in the API, not in Elasticsearch.
      MAX_IN_FLIGHT_PER_ACCOUNT: '1',
      SHUTDOWN_TIMEOUT_MS: '3000',
    });
    const base = `http://127.0.0.1:${port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: WAITING });
    try {
      expect((await get(agent, `${base}/v1/search?q=harbor`, ctx.key)).status, 'warm-up').to.equal(200);
      gate.hold();
      const searches = Array.from({ length: WAITING }, (_, i) =>
        get(agent, `${base}/v1/search?q=aurora&per_page=1&page=${i + 1}`, ctx.key).catch((): Answer => ({ status: 0, body: {}, at: Date.now() })),
      );
      expect(await until(async () => heldPageReads(gate, 'aurora') === 1)).to.equal(true);
      await sleep(300);
      expect(heldPageReads(gate, 'aurora'), 'the others wait for the lane').to.equal(1);
      const shuttingDown = waitForLine(server, 'shutting down', 10_000);
      server.kill('SIGTERM');
      await shuttingDown;
      expect(await until(async () => heldPageReads(gate, 'aurora') === WAITING, 5000), 'let in at shutdown').to.equal(true);
      gate.open();
      const answers = await Promise.all(searches);
      expect(answers.map((a) => a.status)).to.deep.equal(Array(WAITING).fill(200));
    } finally {
      agent.destroy();
    }
    expect(await exited).to.equal(0);
    expect(output()).to.include('"clean":true');
  });

  async function exercise(port: number, metricsPort: number, child: ChildProcess, exited: Promise<number | null>, output: () => string) {
    const base = `http://127.0.0.1:${port}`;
    expect((await request(base, '/v1/wallpapers', { key: ctx.key })).status).to.equal(200);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).to.equal(200);
    expect(await scraped.text()).to.match(/wallpapers_http_requests_total\{method="GET",route="\/v1\/wallpapers",status="200"\} 1/);
    expect((await request(base, '/metrics')).status).to.equal(404);

    // Keep-alive sockets that have each served a request, so the batch below is written to
    // accepted sockets: a connection still in the kernel's accept queue when the listener closes
    // is reset by the OS, which is not "in flight". The warm-up requests are issued in one go,
    // so the agent opens a socket for each; the batch then reuses exactly those.
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT, maxFreeSockets: IN_FLIGHT });
    try {
      const warm = await Promise.all(Array.from({ length: IN_FLIGHT }, () => get(agent, `${base}/healthz`)));
      expect(warm.every((r) => r.status === 200)).to.equal(true);
      expect(Object.values(agent.freeSockets).flat(), 'one warm socket per request').to.have.length(IN_FLIGHT);
      gate.hold();
      // A dropped request is an answer of status 0, so the assertion below names every one.
      const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) =>
        get(agent, `${base}/v1/search?q=harbor%20aurora%20nebula&per_page=1&page=${i + 1}`, ctx.key).catch((): Answer => ({
          status: 0,
          body: {},
          at: Date.now(),
        })),
      );
      await gate.holding(IN_FLIGHT);
      const shuttingDown = waitForLine(child, 'shutting down', 10_000);
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      // Draining: still accepting connections, but telling load balancers to stop sending.
      await shuttingDown;
      const drainingReady = await request(base, '/readyz');
      expect(drainingReady.status).to.equal(503);
      expect(drainingReady.body.checks.serving).to.equal('draining');
      gate.open();
      const results = await Promise.all(inFlight);
      expect(results.map((r) => r.status)).to.deep.equal(Array(IN_FLIGHT).fill(200));
      for (const { body } of results) expect(body.meta?.total_items).to.be.a('number');
      expect(
        results.filter((r) => r.at <= signalledAt),
        'responses finished before the signal',
      ).to.deep.equal([]);
    } finally {
      agent.destroy();
    }

    expect(await exited).to.equal(0);
    expect(output()).to.include('"msg":"stopped"');
    let refused = false;
    try {
      await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
    } catch {
      refused = true;
    }
    expect(refused).to.equal(true);
  }
});
