import { expect } from 'chai';
import { errors, type Client } from '@elastic/elasticsearch';
import { createEsRepository } from '../../../../src/wallpapers/store/es-repository.js';

const BUDGET_MS = 400;
const BATCHING = { maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000, timeoutMs: BUDGET_MS };

type Ask = { size: number; requestTimeout: number };
type Answer = (size: number, ask: number) => string[] | 'failed' | 'hung';

/** One node whose suggester answers each ask with the titles `answer` gives for the size asked. */
function suggester(answer: Answer) {
  const asks: Ask[] = [];
  const es = {
    connectionPool: { size: 1, connections: [{ id: 'http://n0/', request: () => Promise.resolve({ statusCode: 200, body: '{"nodes":{"a":{}}}' }) }] },
    msearch: ({ searches }: { searches: { suggest?: { titles: { completion: { size: number } } } }[] }, options?: { requestTimeout?: number }) => {
      const size = searches[1]!.suggest!.titles.completion.size;
      const requestTimeout = options?.requestTimeout ?? Infinity;
      asks.push({ size, requestTimeout });
      const titles = answer(size, asks.length);
      if (titles === 'failed') return Promise.resolve({ responses: [{ status: 500, error: { type: 'x' } }] });
      if (titles === 'hung')
        return new Promise((_, reject) => setTimeout(() => reject(new errors.TimeoutError('Request timed out')), requestTimeout));
      const options_ = titles.map((title) => ({ _source: { title } }));
      return Promise.resolve({ responses: [{ status: 200, suggest: { titles: [{ options: options_ }] } }] });
    },
  } as unknown as Client;
  return { repository: createEsRepository(es, 'w', { batching: BATCHING }), asks };
}

// The carriers of one title (createTitleCarriers) come first, as many as asked, then the others.
const crowded =
  (carriers: number, others: string[]): Answer =>
  (size) =>
    [...Array.from({ length: Math.min(carriers, size) }, () => 'Vortex Bloom'), ...others].slice(0, size);

describe('suggestions when the options asked are one title`s', () => {
  it('when one title fills the options asked, then more are asked until the limit is filled', async () => {
    const { repository, asks } = suggester(crowded(12, ['Vortex Garden', 'Vortex Lights']));
    const { texts } = await repository.suggest({ q: 'vort', limit: 3 });
    expect(texts).to.deep.equal(['Vortex Bloom', 'Vortex Garden', 'Vortex Lights']);
    expect(asks.map(({ size }) => size)).to.deep.equal([6, 24]);
  });

  it('when fewer options come than were asked, then there are no more to ask for, and one ask is all', async () => {
    const { repository, asks } = suggester(crowded(3, []));
    expect((await repository.suggest({ q: 'vort', limit: 3 })).texts).to.deep.equal(['Vortex Bloom']);
    expect(asks).to.have.length(1);
  });

  it('when one title fills even the most options asked, then asking stops there', async () => {
    const { repository, asks } = suggester(crowded(10_000, ['Vortex Garden']));
    expect((await repository.suggest({ q: 'vort', limit: 10 })).texts).to.deep.equal(['Vortex Bloom']);
    expect(asks.map(({ size }) => size)).to.deep.equal([20, 80, 320, 500]);
  });

  it('when asking again fails or hangs, then the titles of the first ask are the answer, within the budget', async () => {
    for (const trouble of ['failed', 'hung'] as const) {
      const { repository, asks } = suggester((size, ask) => (ask === 1 ? crowded(12, [])(size, ask) : trouble));
      const started = performance.now();
      expect((await repository.suggest({ q: 'vort', limit: 3 })).texts, trouble).to.deep.equal(['Vortex Bloom']);
      expect(performance.now() - started, trouble).to.be.below(BUDGET_MS + 150);
      expect(asks[1]!.requestTimeout, `${trouble}: half of what is left of one budget`).to.be.at.most(BUDGET_MS / 2);
    }
  });
});
