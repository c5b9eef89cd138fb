import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { checkCatalogueAtStart } from '../../src/wallpapers/store/catalogue-at-start.js';
import { captureLogs } from '../support/log-capture.js';
import { freePort } from '../support/free-port.js';
import { connectEs, createIndexWithDocs, dropIndicesOf, testConfig, uniqueName } from '../support/harness.js';

describe('the catalogue, checked at start-up', function () {
  this.timeout(30_000);
  let es: Client;
  let alias: string;
  let index: string;
  const check =
    (client: Client, name: string, url = testConfig().elasticsearchUrl) =>
    (logs: ReturnType<typeof captureLogs>) =>
      checkCatalogueAtStart(client, { alias: name, elasticsearchUrl: url, resultWindow: 10_000 }, logs.logger);

  before(async () => {
    es = connectEs();
    alias = uniqueName('window');
    index = await createIndexWithDocs(es, alias, []);
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('when the index is made from the mapping, then it serves a page past MAX_RESULT_WINDOW and nothing is said', async () => {
    const logs = captureLogs();
    await check(es, alias)(logs);
    expect(logs.text()).to.equal('');
  });

  it('when the index serves no more than the window, as one made before, then a warning says how to raise it without a reindex', async () => {
    await es.indices.putSettings({ index, settings: { max_result_window: 10_000 } });
    const logs = captureLogs();
    await check(es, alias)(logs);
    expect(logs.text()).to.include('"level":"warn"').and.include(`PUT /${index}/_settings {\\"index.max_result_window\\": 10100}`);
  });

  it('when the alias names no index, then one warning names INDEX_ALIAS and how to load a catalogue, not Elasticsearch words', async () => {
    const logs = captureLogs();
    const missing = uniqueName('no-such-alias');
    await check(es, missing)(logs);
    expect(logs.text()).to.include('"level":"warn"').and.include(`INDEX_ALIAS ${missing} names no index on Elasticsearch at`);
    expect(logs.text()).to.include('npm run seed').and.not.include('index_not_found_exception');
  });

  it('when Elasticsearch does not answer, then one warning names ELASTICSEARCH_URL and how to start the local stack', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const closed = connectEs(url, 2000);
    try {
      const logs = captureLogs();
      await check(closed, alias, url)(logs);
      expect(logs.text()).to.include(`cannot reach Elasticsearch at ${url} (ELASTICSEARCH_URL)`).and.include('npm run stack:start');
    } finally {
      await closed.close();
    }
  });

  it('when something else answers at ELASTICSEARCH_URL, or Elasticsearch refuses its credentials, then one warning says which (ELASTICSEARCH_URL, its credentials, or only the check lost)', async () => {
    const answers = [
      { status: 404, type: 'text/html', body: '<html>Not Found</html>', said: /\(ELASTICSEARCH_URL\) is not Elasticsearch: it answered 404/ },
      {
        status: 401,
        type: 'application/json',
        body: '{"error":{"type":"security_exception"},"status":401}',
        said: /\(ELASTICSEARCH_URL\) did not accept its credentials \(401\)/,
      },
      {
        status: 403,
        type: 'application/json',
        body: '{"error":{"type":"security_exception"},"status":403}',
        said: /refused to show the settings of INDEX_ALIAS .* serving needs only read/,
      },
      {
        status: 500,
        type: 'application/json',
        body: '{"error":{"type":"x_exception"},"status":500}',
        said: /\(ELASTICSEARCH_URL\) answered 500 x_exception/,
      },
    ];
    for (const answer of answers) {
      const server = createServer((_req, res) => {
        res.writeHead(answer.status, {
          'content-type': answer.type,
          ...(answer.type === 'application/json' ? { 'x-elastic-product': 'Elasticsearch' } : {}),
        });
        res.end(answer.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const other = connectEs(url, 2000);
      try {
        const logs = captureLogs();
        await check(other, alias, url)(logs);
        expect(logs.text(), answer.body).to.include('"level":"warn"').and.match(answer.said);
      } finally {
        await other.close();
        server.close();
      }
    }
  });
});
