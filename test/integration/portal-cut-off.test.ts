import { expect } from 'chai';
import { createConnection } from 'node:net';
import { startApp } from '../support/harness.js';
import { captureLogs } from '../support/log-capture.js';
import { useCatalogue } from './catalogue-context.js';

describe('a portal form whose client is cut off', function () {
  this.timeout(30_000);
  const ctx = useCatalogue();

  it('when the client hangs up before its form has come whole, then nothing is answered and nothing is logged as an error', async () => {
    const logs = captureLogs('info');
    const app = await startApp({ config: ctx.config, es: ctx.es, redis: ctx.redis, logger: logs.logger });
    try {
      const { hostname, port } = new URL(app.url);
      for (let i = 0; i < 3; i++) {
        const socket = createConnection(Number(port), hostname);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(
          'POST /portal/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=a%40b.example&pass',
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        socket.destroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await app.close();
    }
    const lines = logs
      .text()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    // A client can cut off as many forms as it likes: error lines are for what an operator must look at.
    expect(lines.filter(({ level }) => level === 'error' || level === 'fatal')).to.deep.equal([]);
  });
});
