import { expect } from 'chai';
import Koa from 'koa';
import { errorHandler } from '../../../src/http/error-handler.js';
import { ERROR_MESSAGE_MAX, HttpError } from '../../../src/http/http-error.js';
import { InvalidInput } from '../../../src/errors.js';
import { silentLogger } from '../../../src/infra/logger.js';

async function answer(thrown: unknown): Promise<{ status: number; body: { error: string; message: string; status: number } }> {
  const app = new Koa();
  app.use(errorHandler(silentLogger));
  app.use(() => {
    throw thrown;
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`);
    return { status: res.status, body: (await res.json()) as never };
  } finally {
    server.close();
  }
}

describe('the error handler', () => {
  it('when a message is longer than the contract allows, then it is cut to the bound, in characters, and marked', async () => {
    const { status, body } = await answer(new HttpError(400, 'invalid_request', '😀'.repeat(ERROR_MESSAGE_MAX + 10)));
    expect(status).to.equal(400);
    expect(Array.from(body.message)).to.have.length(ERROR_MESSAGE_MAX);
    expect(body.message.endsWith('😀…')).to.equal(true);
  });

  it('when a domain error says the input is invalid, then 400 carries its message whole', async () => {
    const { status, body } = await answer(new InvalidInput('q', "Invalid query parameter 'q': too long"));
    expect({ status, body }).to.deep.equal({
      status: 400,
      body: { error: 'invalid_request', message: "Invalid query parameter 'q': too long", status: 400 },
    });
  });

  it('when something unexpected is thrown, then a bare 500 with no details', async () => {
    const { status, body } = await answer(new Error('ECONNRESET at 10.0.0.3:9200 index wallpapers-1'));
    expect(body).to.deep.equal({ error: 'internal_error', message: 'Internal server error', status: 500 });
    expect(status).to.equal(500);
  });
});
