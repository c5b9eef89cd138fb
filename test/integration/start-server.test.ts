import { expect } from 'chai';
import { startServer } from '../../src/start-server.js';
import { freePort } from '../support/free-port.js';
import { request, testConfig } from '../support/harness.js';
import { captureLogs } from '../support/log-capture.js';
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

  it('when the request line and headers exceed 16 KB, then the answer is a JSON 431 like every other error', async () => {
    const server = await startServer(testConfig({ indexAlias: ctx.alias, port: 0, host: '127.0.0.1', metricsPort: 0 }), {});
    try {
      const res = await fetch(`${server.url}/v1/wallpapers?ids=${'1,'.repeat(9000)}1`, { headers: { Authorization: `Bearer ${ctx.key}` } });
      expect(res.status).to.equal(431);
      expect(await res.json()).to.deep.equal({ error: 'request_too_large', message: 'The request line and headers exceed 16 KB', status: 431 });
    } finally {
      await server.close({ drainMs: 0 });
    }
  });
});
