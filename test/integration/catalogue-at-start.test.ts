import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { checkResultWindow } from '../../src/wallpapers/store/result-window.js';
import { captureLogs } from '../support/log-capture.js';
import { connectEs, createIndexWithDocs, dropIndicesOf, uniqueName } from '../support/harness.js';

describe('the result window the catalogue index serves, checked at start-up', function () {
  this.timeout(30_000);
  let es: Client;
  let alias: string;
  let index: string;

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
    await checkResultWindow(es, alias, 10_000, logs.logger);
    expect(logs.text()).to.equal('');
  });

  it('when the index serves no more than the window, as one made before, then a warning says how to raise it without a reindex', async () => {
    await es.indices.putSettings({ index, settings: { max_result_window: 10_000 } });
    const logs = captureLogs();
    await checkResultWindow(es, alias, 10_000, logs.logger);
    expect(logs.text()).to.include('"level":"warn"').and.include(`PUT /${index}/_settings {\\"index.max_result_window\\": 10100}`);
  });

  it('when the settings cannot be read, then starting goes on, and it is said at debug', async () => {
    const logs = captureLogs();
    await checkResultWindow(es, uniqueName('no-such-alias'), 10_000, logs.logger);
    expect(logs.text()).to.include('"level":"debug"').and.not.include('"level":"warn"');
  });
});
