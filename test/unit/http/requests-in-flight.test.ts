import { expect } from 'chai';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createConnection } from 'node:net';
import { boundRequestsInFlight } from '../../../src/http/requests-in-flight.js';
import { captureLogs } from '../../support/log-capture.js';
import { until } from '../../support/until.js';

interface Answer {
  status: number;
  headers: string;
  /** Content-Length bytes after the headers (for an answer to HEAD, what follows instead). */
  body: string;
  /** The first bytes after the headers. */
  next: string;
}

/** Writes the requests at once on one connection and reads `expected` answers back, in order. */
function pipeline(port: number, paths: string[], expected = paths.length, head = (_path: string) => 'GET'): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1');
    let received = '';
    const answers = (): Answer[] =>
      [...received.matchAll(/HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n/g)].map((m) => {
        const length = Number(/content-length: (\d+)/i.exec(m[2]!)?.[1] ?? 0);
        const start = m.index + m[0].length;
        return { status: Number(m[1]), headers: m[2]!, body: received.slice(start, start + length), next: received.slice(start, start + 9) };
      });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (answers().length >= expected) {
        socket.destroy();
        resolve(answers());
      }
    });
    socket.on('error', reject);
    socket.write(paths.map((path) => `${head(path)} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: given-${path.slice(1)}\r\n\r\n`).join(''));
  });
}

describe('requests in flight per connection and address (boundRequestsInFlight)', () => {
  let server: http.Server;
  let port: number;
  let held: ServerResponse[];
  let refused: number;
  let refusedBy: string[];

  let logs: ReturnType<typeof captureLogs>;

  async function serve(limit: number, perAddress = 0) {
    held = [];
    refused = 0;
    refusedBy = [];
    logs = captureLogs('info');
    // Every request is held until the test answers it: in flight by construction.
    const handle = (_req: IncomingMessage, res: ServerResponse) => void held.push(res);
    server = http.createServer(
      boundRequestsInFlight(
        handle,
        { perConnection: limit, perAddress },
        {
          onRefused: (bound) => {
            refused++;
            refusedBy.push(bound);
          },
          logger: logs.logger,
        },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }
  const answerHeld = () => {
    for (const res of held.splice(0)) res.end('ok');
  };

  afterEach(async () => {
    answerHeld();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('when more are pipelined than the limit, then the app gets the limit, the rest get 503 with Retry-After, after the earlier answers', async () => {
    await serve(3);
    const answers = pipeline(port, ['/1', '/2', '/3', '/4', '/5', '/6', '/7', '/8']);
    expect(await until(async () => held.length === 3 && refused === 5)).to.equal(true);
    answerHeld();
    const got = await answers;
    expect(got.map((a) => a.status)).to.deep.equal([200, 200, 200, 503, 503, 503, 503, 503]);
    const refusal = got[3]!;
    expect(JSON.parse(refusal.body)).to.deep.equal({
      error: 'service_unavailable',
      message:
        'Too many requests pipelined on one connection: at most 3 are worked on at once. Wait for answers before sending more; please try again in 1 second',
      status: 503,
    });
    expect(refusal.headers)
      .to.match(/retry-after: 1/i)
      .and.match(/x-request-id: given-4\r?$/im)
      .and.match(/access-control-allow-origin: \*/i);
    const line = logs
      .text()
      .split('\n')
      .find((l) => l.includes('given-4'));
    expect(JSON.parse(line!)).to.include({
      msg: 'request',
      request_id: 'given-4',
      method: 'GET',
      path: '/4',
      status: 503,
      refused_by: 'requests in flight',
    });
  });

  it('when each of two connections pipelines up to the limit, then every request reaches the app: the bound is per connection', async () => {
    await serve(2);
    const first = pipeline(port, ['/1', '/2']);
    const second = pipeline(port, ['/3', '/4', '/5']);
    expect(await until(async () => held.length === 4 && refused === 1)).to.equal(true);
    answerHeld();
    expect((await first).map((a) => a.status)).to.deep.equal([200, 200]);
    expect((await second).map((a) => a.status)).to.deep.equal([200, 200, 503]);
  });

  it('when an address has its bound in flight over several connections, then its next request is refused, whichever connection it comes on', async () => {
    await serve(10, 3);
    const first = pipeline(port, ['/1', '/2']);
    expect(await until(async () => held.length === 2)).to.equal(true);
    const second = pipeline(port, ['/3', '/4']);
    expect(await until(async () => held.length === 3 && refused === 1)).to.equal(true);
    expect(refusedBy).to.deep.equal(['address']);
    answerHeld();
    expect((await first).map((a) => a.status)).to.deep.equal([200, 200]);
    const answers = await second;
    expect(answers.map((a) => a.status)).to.deep.equal([200, 503]);
    expect(JSON.parse(answers[1]!.body)).to.include({
      message:
        'Too many requests from one address: at most 3 are worked on at once. Wait for answers before sending more; please try again in 1 second',
    });
    const third = pipeline(port, ['/5', '/6', '/7']);
    expect(await until(async () => held.length === 3), 'the address is counted from its answers out').to.equal(true);
    answerHeld();
    expect((await third).map((a) => a.status)).to.deep.equal([200, 200, 200]);
  });

  it('when a HEAD is refused, then its answer has the headers and no body', async () => {
    await serve(1);
    const answers = pipeline(port, ['/1', '/2', '/3'], 3, (path) => (path === '/2' ? 'HEAD' : 'GET'));
    expect(await until(async () => held.length === 1 && refused === 2)).to.equal(true);
    answerHeld();
    const [, head, get] = await answers;
    expect(head!.status).to.equal(503);
    expect(head!.next, 'the next answer follows the headers at once').to.equal('HTTP/1.1 ');
    expect(get!.status, 'the answer after the HEAD is framed apart').to.equal(503);
    expect(JSON.parse(get!.body)).to.include({ error: 'service_unavailable' });
  });

  it('when the answers in flight are written, then the same connection may pipeline as many again', async () => {
    await serve(2);
    const socket = createConnection(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    const send = (paths: string[]) => socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join(''));
    try {
      send(['/1', '/2', '/3']);
      expect(await until(async () => held.length === 2 && refused === 1)).to.equal(true);
      answerHeld();
      expect(await until(async () => statuses().length === 3)).to.equal(true);
      send(['/4', '/5']);
      expect(await until(async () => held.length === 2), 'both reach the app').to.equal(true);
      answerHeld();
      expect(await until(async () => statuses().length === 5)).to.equal(true);
      expect(statuses()).to.deep.equal([200, 200, 503, 200, 200]);
      expect(refused).to.equal(1);
    } finally {
      socket.destroy();
    }
  });

  it('when the limit is 0, then every pipelined request reaches the app', async () => {
    await serve(0);
    const answers = pipeline(port, ['/1', '/2', '/3', '/4', '/5', '/6']);
    expect(await until(async () => held.length === 6)).to.equal(true);
    answerHeld();
    expect((await answers).map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
  });
});
