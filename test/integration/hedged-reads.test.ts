import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { createEsClient, hedgedReadsOf } from '../../src/infra/elasticsearch.js';
import { createEsRepository } from '../../src/wallpapers/store/es-repository.js';
import { fixtureWallpapers } from '../support/fixtures.js';
import { connectEs, createIndexWithDocs, dropIndicesOf, testConfig, uniqueName } from '../support/harness.js';
import { hungServer } from '../support/hung-server.js';
import { searchParams } from '../support/search-params.js';

const BATCHING = { maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000, timeoutMs: 5000 };

describe('hedged reads', function () {
  this.timeout(60_000);
  let es: Client;
  let alias: string;

  before(async () => {
    es = connectEs();
    alias = uniqueName('test-hedged');
    await createIndexWithDocs(es, alias, fixtureWallpapers());
  });

  after(async () => {
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it('when one of two nodes accepts connections and never answers, then every read is answered well inside its budget and that node is left out', async () => {
    const hung = await hungServer();
    // The hung node first: the pool's round robin sends it every other read until the watch leaves it out.
    const pair = createEsClient({ url: `${hung.url},${testConfig().elasticsearchUrl}`, requestTimeoutMs: BATCHING.timeoutMs });
    const repository = createEsRepository(pair, alias, { batching: BATCHING });
    try {
      const reads = Array.from({ length: 40 }, (_, i) => {
        const started = Date.now();
        const read =
          i % 3 === 0
            ? repository.getById(1 + (i % 20))
            : i % 3 === 1
              ? repository.list({ page: 1 + (i % 4), per_page: 5 })
              : repository.search(searchParams({ q: 'mountain', page: 1, per_page: 5 }));
        return read.then(
          () => Date.now() - started,
          (err: unknown) => `failed: ${String(err)}`,
        );
      });
      const outcomes = await Promise.all(reads);
      expect(outcomes.filter((o) => typeof o === 'string')).to.deep.equal([]);
      // The budget is 5 s; without hedging, a read coordinated by the hung node waited half of it.
      expect(Math.max(...(outcomes as number[]))).to.be.below(1500);
      const stats = hedgedReadsOf(pair).stats();
      expect(stats.hedges + stats.rerouted, 'reads sent again').to.be.greaterThan(0);
      const later = Date.now();
      await repository.list({ page: 7, per_page: 5 });
      expect(Date.now() - later, 'a read after the watch left the node out goes straight to the live one').to.be.below(500);
    } finally {
      await pair.close();
      await hung.close();
    }
  });

  it('when a search goes out, then it refuses partial results and bounds each shard to its attempt’s time', async () => {
    const sent: string[] = [];
    const listener = (_err: unknown, event: { meta: { request: { params: { path: string; body?: unknown } } } } | null) => {
      if (event?.meta.request.params.path.includes('_msearch')) sent.push(String(event.meta.request.params.body));
    };
    es.diagnostic.on('request', listener as never);
    try {
      await createEsRepository(es, alias, { batching: BATCHING }).list({ page: 1, per_page: 5 });
    } finally {
      es.diagnostic.off('request', listener as never);
    }
    const [header, body] = sent[0]!
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(header).to.include({ allow_partial_search_results: false });
    // One node: the attempt has the whole budget (with several, half, leaving the other half for a retry).
    expect(body).to.include({ timeout: `${BATCHING.timeoutMs}ms` });
  });
});
