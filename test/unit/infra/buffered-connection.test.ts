import { expect } from 'chai';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Client, errors } from '@elastic/elasticsearch';
import { BufferedConnection } from '../../../src/infra/buffered-connection.js';

interface Answer {
  chunks: Buffer[];
  headers?: Record<string, string>;
  /** Leaves the answer unfinished after its chunks: a node that hangs mid-body. */
  stall?: boolean;
  requestTimeoutMs?: number;
}

// A stand-in HTTP peer for the connection alone: it answers every request with the given chunks,
// written apart so the client receives them as separate reads.
async function peer(answer: Answer): Promise<{ client: Client; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch', ...answer.headers });
    const [first, ...rest] = answer.chunks;
    res.write(first);
    let at = 0;
    const next = () => {
      if (at === rest.length) return answer.stall ? undefined : res.end();
      res.write(rest[at++]);
      setTimeout(next, 5);
    };
    setTimeout(next, 5);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new Client({
    node: `http://127.0.0.1:${port}`,
    Connection: BufferedConnection,
    maxRetries: 0,
    ...(answer.requestTimeoutMs ? { requestTimeout: answer.requestTimeoutMs } : {}),
  });
  return { client, server };
}

describe('buffered Elasticsearch connection', () => {
  let server: Server | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('when an answer arrives in chunks that split a character, then it is decoded whole', async () => {
    const text = Buffer.from(JSON.stringify({ title: 'Fjörd über München — 東京の夜' }));
    const split = text.indexOf(Buffer.from('ö')) + 1;
    ({ client, server } = await peer({ chunks: [text.subarray(0, split), text.subarray(split, split + 7), text.subarray(split + 7)] }));
    const body = await client.transport.request({ method: 'GET', path: '/x' });
    expect(body).to.deep.equal({ title: 'Fjörd über München — 東京の夜' });
  });

  it('when an answer is larger than the response size limit, then the request is aborted with the stock error', async () => {
    const text = Buffer.from(JSON.stringify({ pad: 'x'.repeat(5000) }));
    ({ client, server } = await peer({ chunks: [text.subarray(0, 2000), text.subarray(2000)] }));
    const failure = await client.transport.request({ method: 'GET', path: '/x' }, { maxResponseSize: 3000 }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(errors.RequestAbortedError);
    expect((failure as Error).message).to.match(/bigger than the maximum allowed string \(3000\)/);
  });

  it('when the declared length is over the limit, then the request is aborted before the body is read', async () => {
    const text = Buffer.from(JSON.stringify({ pad: 'x'.repeat(5000) }));
    ({ client, server } = await peer({ chunks: [text], headers: { 'content-length': String(text.length) } }));
    const failure = await client.transport.request({ method: 'GET', path: '/x' }, { maxResponseSize: 3000 }).catch((err: unknown) => err);
    expect((failure as Error).message).to.equal(`The content length (${text.length}) is bigger than the maximum allowed string (3000)`);
  });

  it('when an answer is gzip-compressed, then the transport still inflates and parses it', async () => {
    const zipped = gzipSync(JSON.stringify({ hits: { total: { value: 3 } } }));
    ({ client, server } = await peer({ chunks: [zipped.subarray(0, 10), zipped.subarray(10)], headers: { 'content-encoding': 'gzip' } }));
    expect(await client.transport.request({ method: 'GET', path: '/x' })).to.deep.equal({ hits: { total: { value: 3 } } });
  });

  it('when a node hangs in the middle of an answer, then the request fails within its timeout instead of waiting', async () => {
    const text = Buffer.from(JSON.stringify({ pad: 'x'.repeat(5000) }));
    ({ client, server } = await peer({ chunks: [text.subarray(0, 100)], stall: true, requestTimeoutMs: 300 }));
    const started = Date.now();
    const failure = await client.transport.request({ method: 'GET', path: '/x' }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(errors.TimeoutError);
    expect(Date.now() - started).to.be.below(2000);
  });

  it("when a node trickles its answer steadily, then the request fails at the client's timeout, not when the answer ends", async () => {
    const chunks = Array.from({ length: 400 }, () => Buffer.from('x'.repeat(100)));
    ({ client, server } = await peer({ chunks, requestTimeoutMs: 300 }));
    const started = Date.now();
    const failure = await client.transport.request({ method: 'GET', path: '/x' }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(errors.TimeoutError);
    expect(Date.now() - started).to.be.within(250, 1500);
  });

  it("when a request has a timeout of its own shorter than the client's and the node hangs mid-answer, then it fails with a timeout at its own, not the client's", async () => {
    const text = Buffer.from(JSON.stringify({ pad: 'x'.repeat(5000) }));
    ({ client, server } = await peer({ chunks: [text.subarray(0, 100)], stall: true, requestTimeoutMs: 10_000 }));
    const started = Date.now();
    const failure = await client.transport.request({ method: 'GET', path: '/x' }, { requestTimeout: 200 }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(errors.TimeoutError);
    expect(Date.now() - started).to.be.within(150, 2000);
  });

  it('when the caller aborts (another attempt answered), then the request fails as aborted at once, and the next request is answered', async () => {
    const text = Buffer.from(JSON.stringify({ ok: true }));
    ({ client, server } = await peer({ chunks: [text.subarray(0, 5), text.subarray(5)] }));
    const controller = new AbortController();
    const pending = client.transport.request({ method: 'GET', path: '/x' }, { signal: controller.signal }).catch((err: unknown) => err);
    controller.abort();
    expect(await pending).to.be.instanceOf(errors.RequestAbortedError);
    const aborted = new AbortController();
    aborted.abort();
    expect(await client.transport.request({ method: 'GET', path: '/x' }, { signal: aborted.signal }).catch((err: unknown) => err)).to.be.instanceOf(
      errors.RequestAbortedError,
    );
    expect(await client.transport.request({ method: 'GET', path: '/x' })).to.deep.equal({ ok: true });
  });

  async function echo(status: number): Promise<void> {
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch', 'x-seen-path': req.url ?? '' });
        res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(parts).toString() }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new Client({ node: `http://127.0.0.1:${port}/prefix/`, Connection: BufferedConnection, maxRetries: 0 });
  }

  it("when a request has a body and a query string, then the node receives both, under the node's path prefix", async () => {
    await echo(200);
    const answer = await client!.transport.request({
      method: 'POST',
      path: '/idx/_search',
      querystring: 'size=2',
      body: { query: { match_all: {} } },
    });
    expect(answer).to.deep.equal({ method: 'POST', url: '/prefix/idx/_search?size=2', body: '{"query":{"match_all":{}}}' });
  });

  it('when a node answers an error status, then the transport reports it with its body, as from the stock connection', async () => {
    await echo(404);
    const failure = await client!.transport.request({ method: 'GET', path: '/missing' }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(errors.ResponseError);
    expect((failure as errors.ResponseError).statusCode).to.equal(404);
    expect((failure as errors.ResponseError).body).to.include({ url: '/prefix/missing' });
  });

  it('when a HEAD request is answered, then it resolves with the status and no body', async () => {
    await echo(200);
    const answer = await client!.transport.request({ method: 'HEAD', path: '/idx' }, { meta: true });
    expect(answer.statusCode).to.equal(200);
    expect(answer.headers?.['x-seen-path']).to.equal('/prefix/idx');
  });

  it('when a path holds characters Node refuses, then the request fails with the stock TypeError before anything is sent', async () => {
    await echo(200);
    const failure = await client!.transport.request({ method: 'GET', path: '/idx/\u2603' }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.match(/ERR_UNESCAPED_CHARACTERS/);
  });
});
