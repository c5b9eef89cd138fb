import { expect } from 'chai';
import { type Socket, createConnection } from 'node:net';
import type { Config } from '../../src/config.js';
import { startServer } from '../../src/start-server.js';
import { freePort } from '../support/free-port.js';
import { countedInRedis } from '../support/admission-log.js';
import { contractViolations } from '../support/contract.js';
import { createKey, request, testConfig } from '../support/harness.js';
import { captureLogs } from '../support/log-capture.js';
import { until } from '../support/until.js';
import { useCatalogue } from './catalogue-context.js';

describe('startServer', function () {
  this.timeout(30_000);
  const ctx = useCatalogue();

  it('when started in process, then it serves the API and metrics on their listeners and close() stops both cleanly', async () => {
    const logs = captureLogs('info');
    const metricsPort = await freePort();
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort, metricsHost: '127.0.0.1' }), {
      logger: logs.logger,
    });
    expect((await request(server.url, '/v1/wallpapers', { key: ctx.key })).status).to.equal(200);
    expect(server.metricsUrl).to.equal(`http://127.0.0.1:${metricsPort}`);
    expect(await (await fetch(`${server.metricsUrl}/metrics`)).text()).to.include('wallpapers_http_requests_total');
    expect(await server.close({ drainMs: 0 })).to.equal(true);
    expect(logs.text()).to.include('"msg":"stopped"');
    for (const url of [server.url, server.metricsUrl!]) {
      const refused = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        () => false,
        () => true,
      );
      expect(refused, url).to.equal(true);
    }
  });

  it('when started, then it listens only once search meaning is loaded, so a restarted process takes its first searches warm', async () => {
    const logs = captureLogs('info');
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0 }), { logger: logs.logger });
    try {
      const ready = logs.text().indexOf('search meaning: catalogue words ready');
      expect(ready, 'the words were read').to.be.greaterThan(-1);
      expect(ready, 'before the listener opened').to.be.below(logs.text().indexOf('"msg":"listening"'));
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  it('when the request line and headers exceed 16 KB, then the answer is a JSON 431 like every other error, readable by a browser and with a request id that is logged', async () => {
    const logs = captureLogs('info');
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0 }), { logger: logs.logger });
    try {
      const res = await fetch(`${server.url}/v1/wallpapers?ids=${'1,'.repeat(9000)}1`, {
        headers: { Authorization: `Bearer ${ctx.key}`, Origin: 'https://app.example' },
      });
      expect(res.status).to.equal(431);
      const body: unknown = await res.json();
      expect(body).to.deep.equal({ error: 'request_too_large', message: 'The request line and headers exceed 16 KB', status: 431 });
      expect(contractViolations({ method: 'get', path: '/v1/wallpapers', status: 431, headers: res.headers, body }), 'the contract').to.deep.equal(
        [],
      );
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-expose-headers')).to.equal('X-Request-Id');
      expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const line = logs
        .text()
        .split('\n')
        .find((l) => l.includes(res.headers.get('x-request-id')!));
      expect(line, 'the log line of the refusal').to.be.a('string');
      expect(JSON.parse(line!)).to.include({ msg: 'request', status: 431, refused_by: 'http parser', reason: 'HPE_HEADER_OVERFLOW' });
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  /** What the server answers to these bytes on a connection of their own, read until it closes. */
  async function answerTo(url: string, bytes: string): Promise<{ status: number; head: string; body: string; received: string }> {
    const { hostname, port } = new URL(url);
    const socket = createConnection(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(bytes);
    await closed;
    const at = received.indexOf('\r\n\r\n');
    const head = received.slice(0, at);
    return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]), head, body: received.slice(at + 4), received };
  }

  it('when HTTP itself refuses a request (no Host, CONNECT), then the answer is JSON like every error; an expectation it does not know is ignored', async () => {
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0 }), {});
    try {
      const key = `Authorization: Bearer ${ctx.key}\r\n`;
      const noHost = await answerTo(server.url, `GET /v1/wallpapers/7 HTTP/1.1\r\n${key}Connection: close\r\n\r\n`);
      expect(noHost.status).to.equal(400);
      expect(JSON.parse(noHost.body)).to.deep.equal({
        error: 'invalid_request',
        message: 'An HTTP/1.1 request must carry a Host header',
        status: 400,
      });
      expect(noHost.head).to.match(/\r\nx-request-id: [0-9a-f-]{36}/i);
      const oldClient = await answerTo(server.url, `GET /v1/wallpapers/7 HTTP/1.0\r\n${key}\r\n`);
      expect(oldClient.status, 'HTTP/1.0 has no Host to require').to.equal(200);
      const expecting = await answerTo(server.url, `GET /v1/wallpapers/7 HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n${key}Connection: close\r\n\r\n`);
      expect(expecting.status).to.equal(200);
      expect(JSON.parse(expecting.body)).to.include({ id: 7 });
      const twoHosts = await answerTo(server.url, `GET /v1/wallpapers/7 HTTP/1.1\r\nHost: a\r\nHost: b\r\n${key}Connection: close\r\n\r\n`);
      expect(twoHosts.status).to.equal(400);
      expect(JSON.parse(twoHosts.body).message).to.equal('A request must carry one Host header, not several');
      const afterAnother = await answerTo(
        server.url,
        `GET /v1/wallpapers/7 HTTP/1.1\r\nHost: x\r\n${key}\r\nCONNECT evil:443 HTTP/1.1\r\nHost: evil\r\n\r\n`,
      );
      const statuses = [...afterAnother.received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses, 'a CONNECT after a pipelined request').to.deep.equal([200, 405]);
      for (const coding of ['xchunked', 'gzip', 'identity', 'chunked, gzip']) {
        // A request hidden behind it, which a reader taking the coding as none would run next.
        const smuggled = await answerTo(
          server.url,
          `GET /v1/wallpapers/7 HTTP/1.1\r\nHost: x\r\n${key}Transfer-Encoding: ${coding}\r\n\r\n0\r\n\r\nGET /v1/wallpapers/8 HTTP/1.1\r\nHost: x\r\n${key}\r\n`,
        );
        expect(smuggled.status, coding).to.equal(400);
        // Node's parser refuses some of these itself (a malformed request), the rest are ours to refuse.
        expect(JSON.parse(smuggled.body).message, coding).to.be.oneOf([
          'A request must end its Transfer-Encoding in chunked',
          'Malformed HTTP request',
        ]);
        expect(smuggled.head, coding).to.match(/\r\nconnection: close/i);
        expect([...smuggled.received.matchAll(/HTTP\/1\.1 \d{3} /g)], 'nothing answered after it').to.have.lengthOf(1);
      }
      const unknown = await answerTo(server.url, `GET /v1/wallpapers/7 HTTP/1.1\r\nHost: x\r\n${key}Transfer-Encoding: xchunked\r\n\r\n`);
      expect(JSON.parse(unknown.body).message, 'a coding Node lets through').to.equal('A request must end its Transfer-Encoding in chunked');
      const chunked = await answerTo(
        server.url,
        `GET /v1/wallpapers/7 HTTP/1.1\r\nHost: x\r\n${key}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
      );
      expect(chunked.status, 'chunked, as HTTP/1.1 allows').to.equal(200);
      const tunnel = await answerTo(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expect(tunnel.status).to.equal(405);
      expect(tunnel.head).to.match(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
      expect(JSON.parse(tunnel.body)).to.deep.equal({
        error: 'method_not_allowed',
        message: 'Method not allowed; allowed: GET, HEAD, OPTIONS',
        status: 405,
      });
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  it('when HTTP itself refuses requests, then each is counted by its reason, where the request metrics never see them', async () => {
    const metricsPort = await freePort();
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort, metricsHost: '127.0.0.1' }), {});
    try {
      await answerTo(server.url, 'GET /v1/wallpapers HTTP/1.1\r\nConnection: close\r\n\r\n');
      await answerTo(server.url, 'GET /v1/wallpapers HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
      await answerTo(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      await answerTo(server.url, `GET /v1/wallpapers HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(17_000)}\r\n\r\n`);
      await answerTo(server.url, 'GET /v1/wallpapers HTTP/1.1\r\nHost x\r\n\r\n');
      await answerTo(server.url, 'GET /v1/wallpapers HTTP/1.1\r\nHost x\r\n\r\n');
      await answerTo(server.url, 'GET /v1/wallpapers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n');
      const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
      const counted = Object.fromEntries(
        [...text.matchAll(/^wallpapers_protocol_refusals_total\{reason="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
      );
      expect(counted).to.deep.equal({
        no_host: 1,
        several_hosts: 1,
        connect: 1,
        headers_too_large: 1,
        malformed: 2,
        transfer_coding: 1,
        request_timeout: 0,
      });
      expect(text, 'every refusal reason a series from the start').to.match(/^wallpapers_rate_limit_rejections_total\{reason="account_busy"\} 0$/m);
      expect(text).to.match(/^wallpapers_in_flight_refusals_total\{bound="address"\} 0$/m);
      expect(text).to.not.match(/^wallpapers_http_requests_total\{/m);
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  it('when a HEAD request is too large, then its 431 has the headers and no body', async () => {
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0 }), {});
    try {
      const padding = `X-Padding: ${'p'.repeat(17_000)}\r\n`;
      const { head, body } = await answerTo(server.url, `HEAD /v1/wallpapers HTTP/1.1\r\nHost: x\r\n${padding}\r\n`);
      expect(head).to.match(/^HTTP\/1\.1 431 /);
      expect(head).to.match(/\r\nx-request-id: /i);
      expect(body).to.equal('');
      // The refused request is the last in the bytes the parser had: a GET after a HEAD keeps its body.
      const getAfterHead = await answerTo(
        server.url,
        `HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/wallpapers HTTP/1.1\r\nHost: x\r\n${padding}\r\n`,
      );
      expect(getAfterHead.received).to.match(/HTTP\/1\.1 431 [^]*\r\n\r\n\{"error":"request_too_large"/);
      const headAfterGet = await answerTo(
        server.url,
        `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nHEAD /v1/wallpapers HTTP/1.1\r\nHost: x\r\n${padding}\r\n`,
      );
      expect(headAfterGet.received).to.match(/HTTP\/1\.1 431 [^]*\r\n\r\n$/);
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  it('when a request too large follows another on a keep-alive connection, then the earlier answer comes first and the 431 after it', async () => {
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0 }), {});
    try {
      const valid = `GET /v1/search?q=harbor HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n`;
      const tooLarge = `GET /v1/wallpapers HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(17_000)}\r\n\r\n`;
      const { received } = await answerTo(server.url, valid + tooLarge);
      const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses, 'the answers, in the order they came').to.deep.equal([200, 431]);
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  /**
   * `count` searches (pages 1, 2, …) written at once on one connection: Node parses them together,
   * before any is answered. Resolves with every answer's bytes and their statuses, in order.
   */
  async function pipelinedSearches(url: string, apiKey: string, count: number): Promise<{ received: string; statuses: number[] }> {
    const { hostname, port } = new URL(url);
    const socket = createConnection(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    const get = (page: number) =>
      `GET /v1/search?q=harbor&per_page=1&page=${page} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`;
    socket.write(Array.from({ length: count }, (_, n) => get(n + 1)).join(''));
    expect(await until(async () => statuses().length === count)).to.equal(true);
    socket.destroy();
    return { received, statuses: statuses() };
  }

  it('when one connection pipelines more requests than MAX_PIPELINED_PER_CONNECTION, then the rest get 503 in order, before any key check or quota', async () => {
    const { apiKey, accountId } = await createKey(ctx.redis, 'premium');
    const metricsPort = await freePort();
    const server = await startServer(
      testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort, http: { ...testConfig().http, maxPipelinedPerConnection: 4 } }),
      {},
    );
    try {
      const { received, statuses } = await pipelinedSearches(server.url, apiKey, 40);
      expect(statuses).to.deep.equal([...Array<number>(4).fill(200), ...Array<number>(36).fill(503)]);
      expect(await countedInRedis(ctx.redis, accountId), 'only the answered ones were counted').to.equal(4);
      // The first refusal, against the route's contract.
      const at = received.indexOf('HTTP/1.1 503');
      const [head = '', rest = ''] = received.slice(at).split('\r\n\r\n');
      const headers = new Headers(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]),
      );
      const body: unknown = JSON.parse(rest.slice(0, Number(headers.get('content-length'))));
      expect(body).to.include({ error: 'service_unavailable', status: 503 });
      expect(contractViolations({ method: 'get', path: '/v1/search', status: 503, headers, body }), 'the contract').to.deep.equal([]);
      expect(await (await fetch(`${server.metricsUrl}/metrics`)).text()).to.match(/^wallpapers_in_flight_refusals_total\{bound="connection"\} 36$/m);
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  it('when an address has as many requests in flight as it may open connections, then one more is refused 503, whichever connection carries it', async () => {
    const { apiKey } = await createKey(ctx.redis, 'premium');
    const server = await startServer(
      testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0, http: { ...testConfig().http, maxConnectionsPerAddress: 2 } }),
      {},
    );
    try {
      const { received, statuses } = await pipelinedSearches(server.url, apiKey, 5);
      expect(statuses).to.deep.equal([200, 200, 503, 503, 503]);
      expect(received).to.include('Too many requests from one address: at most 2 are worked on at once');
    } finally {
      await server.close({ drainMs: 0 });
    }
  });

  describe('slow and greedy clients', () => {
    const serverWith = (http: Partial<Config['http']>) =>
      startServer(
        testConfig({
          indexAlias: ctx.alias,
          port: 0,
          host: '127.0.0.1',
          metricsPort: 0,
          http: { headersTimeoutMs: 60_000, requestTimeoutMs: 60_000, maxConnectionsPerAddress: 0, maxPipelinedPerConnection: 0, ...http },
        }),
        {},
      );
    const connect = (url: string) =>
      new Promise<Socket>((resolve, reject) => {
        const { hostname, port } = new URL(url);
        const socket = createConnection({ host: hostname, port: Number(port) }, () => resolve(socket));
        socket.once('error', reject);
      });
    const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

    it('when a client trickles its headers, a line at a time, then the socket is closed at the headers deadline', async () => {
      const server = await serverWith({ headersTimeoutMs: 1000 });
      const socket = await connect(server.url);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('error', () => undefined);
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      let lines = 0;
      const trickle = setInterval(() => {
        if (!socket.destroyed) socket.write(`X-Slow-${lines++}: still coming\r\n`);
      }, 200);
      try {
        const started = Date.now();
        await closed(socket);
        expect(Date.now() - started, 'closed while headers were still arriving').to.be.below(30_000);
        expect(lines, 'header lines sent before the cut').to.be.above(0);
        expect(answer).to.match(/^HTTP\/1\.1 408/);
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        const headers = new Headers(
          head
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(/: (.*)/s, 2) as [string, string]),
        );
        expect(contractViolations({ method: 'get', path: '/healthz', status: 408, headers, body: JSON.parse(body) }), 'the contract').to.deep.equal(
          [],
        );
      } finally {
        clearInterval(trickle);
        socket.destroy();
        await server.close({ drainMs: 0 });
      }
    });

    it('when one address opens more connections than its cap, then the extra one is closed at once and the others are served', async () => {
      const server = await serverWith({ maxConnectionsPerAddress: 5 });
      const sockets: Socket[] = [];
      try {
        for (let i = 0; i < 5; i++) sockets.push(await connect(server.url));
        const extra = await connect(server.url);
        sockets.push(extra);
        extra.on('error', () => undefined);
        await closed(extra);
        const first = sockets[0]!;
        const answer = new Promise<string>((resolve) => first.once('data', (chunk: Buffer) => resolve(chunk.toString())));
        first.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
        expect(await answer).to.match(/^HTTP\/1\.1 200/);
        for (const socket of sockets) socket.destroy();
        await Promise.all(sockets.map(closed));
        // Closed connections give their places back, once the server has seen them close.
        const served = () =>
          request(server.url, '/healthz').then(
            (res) => res.status === 200,
            () => false,
          );
        expect(await until(served)).to.equal(true);
      } finally {
        for (const socket of sockets) socket.destroy();
        await server.close({ drainMs: 0 });
      }
    });
  });
});
