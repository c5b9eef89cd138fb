import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { BackendUnavailable } from '../../../../src/errors.js';
import { createEsRepository } from '../../../../src/wallpapers/store/es-repository.js';
import { fixtureWallpapers } from '../../../support/fixtures.js';

const BATCHING = { maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000, timeoutMs: 5000 };
const [wallpaper] = fixtureWallpapers();
const page = { status: 200, hits: { total: { value: 1 }, hits: [{ _source: wallpaper, _index: 'w-1' }] } };
const timedOut = { status: 504, error: { type: 'search_timeout_exception' } };

/**
 * A client of `nodes` nodes that answer the node watch's probes, whose multi-searches answer
 * `answers` in turn (the last again once they run out).
 */
function fakeClient(nodes: number, answers: object[][]) {
  const sent: unknown[] = [];
  const connections = Array.from({ length: nodes }, (_, i) => ({
    id: `http://n${i}/`,
    request: () => Promise.resolve({ statusCode: 200, body: JSON.stringify({ nodes: { [`id-${i}`]: {} } }) }),
  }));
  const es = {
    connectionPool: { size: nodes, connections },
    msearch: (request: unknown) => {
      sent.push(request);
      return Promise.resolve({ responses: answers[Math.min(sent.length, answers.length) - 1] });
    },
  } as unknown as Client;
  return { es, sent };
}

describe('a multi-search answered with items failed for the node’s own trouble', () => {
  it('when there are other nodes, then it is sent once more and the caller gets the page the second answered', async () => {
    const { es, sent } = fakeClient(2, [[timedOut], [page]]);
    const answer = await createEsRepository(es, 'w', { batching: BATCHING }).list({ page: 1, per_page: 5 });
    expect(sent).to.have.length(2);
    expect(answer.items.map((w) => w.id)).to.deep.equal([wallpaper!.id]);
  });

  it('when the attempt again fails the same way, then the caller gets its own item’s failure: the backend unavailable (503)', async () => {
    const { es, sent } = fakeClient(2, [[timedOut]]);
    const err = await createEsRepository(es, 'w', { batching: BATCHING })
      .list({ page: 1, per_page: 5 })
      .catch((e: unknown) => e);
    expect(sent).to.have.length(2);
    expect(err).to.be.instanceOf(BackendUnavailable);
  });

  it('when there is one node, then the failed item is answered as it is, with no second attempt', async () => {
    const { es, sent } = fakeClient(1, [[timedOut], [page]]);
    const err = await createEsRepository(es, 'w', { batching: BATCHING })
      .list({ page: 1, per_page: 5 })
      .catch((e: unknown) => e);
    expect(sent).to.have.length(1);
    expect(err).to.be.instanceOf(BackendUnavailable);
  });
});
