import { expect } from 'chai';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@elastic/elasticsearch';
import { type Span, type Tracer, type TracerProvider, trace } from '@opentelemetry/api';
import { createEsClient } from '../../../src/infra/elasticsearch.js';

/** A tracer provider that counts the spans asked of it, and runs each span's work with a stand-in span. */
function countingProvider(): { provider: TracerProvider; spans: () => number } {
  let spans = 0;
  const span = new Proxy({}, { get: (_target, name) => (name === 'isRecording' ? () => false : () => span) }) as Span;
  const tracer = {
    startSpan: () => {
      spans++;
      return span;
    },
    startActiveSpan: (...args: unknown[]) => {
      spans++;
      const work = args[args.length - 1] as (s: Span) => unknown;
      return work(span);
    },
  } as unknown as Tracer;
  return { provider: { getTracer: () => tracer }, spans: () => spans };
}

describe('the Elasticsearch client', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
      res.end('{"found":true,"_id":"1","_index":"wallpapers","_source":{}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    trace.disable();
  });

  it('when a tracer is registered, then the client asks it for no span, one node or several, though a stock client does', async () => {
    const counting = countingProvider();
    expect(trace.setGlobalTracerProvider(counting.provider)).to.equal(true);
    const stock = new Client({ node: url });
    await stock.get({ index: 'wallpapers', id: '1' });
    await stock.close();
    expect(counting.spans(), 'the stock client traces each call').to.equal(1);

    for (const nodes of [url, `${url},${url}`]) {
      const es = createEsClient({ url: nodes, requestTimeoutMs: 2000 });
      await es.get({ index: 'wallpapers', id: '1' });
      await es.close();
    }
    expect(counting.spans()).to.equal(1);
  });
});
