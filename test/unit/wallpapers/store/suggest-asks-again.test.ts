import { expect } from 'chai';
import { errors, type Client } from '@elastic/elasticsearch';
import { createEsRepository } from '../../../../src/wallpapers/store/es-repository.js';

const BUDGET_MS = 400;
const BATCHING = { maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000, timeoutMs: BUDGET_MS };

interface Search {
  suggest: Record<string, { prefix: string; completion: { size: number } }>;
}
type Options = Partial<Record<'titles' | 'typos' | 'words', string[]>>;
/** What the suggesters answer an ask of `size` slots: titles per suggester, or trouble. */
type Answer = (size: number, ask: number, prefix: string) => Options | 'failed' | 'hung';

/** One node whose suggesters answer each ask as `answer` says, every ask of a batch recorded. */
function suggester(answer: Answer) {
  const asks: { size: number; prefix: string; requestTimeout: number }[] = [];
  const es = {
    connectionPool: { size: 1, connections: [{ id: 'http://n0/', request: () => Promise.resolve({ statusCode: 200, body: '{"nodes":{"a":{}}}' }) }] },
    msearch: ({ searches }: { searches: (Search | object)[] }, options?: { requestTimeout?: number }) => {
      const requestTimeout = options?.requestTimeout ?? Infinity;
      const answers = searches
        .filter((search): search is Search => 'suggest' in search)
        .map(({ suggest }) => {
          const { prefix, completion } = suggest['titles']!;
          asks.push({ size: completion.size, prefix, requestTimeout });
          return answer(completion.size, asks.length, prefix);
        });
      if (answers.includes('hung'))
        return new Promise((_, reject) => setTimeout(() => reject(new errors.TimeoutError('Request timed out')), requestTimeout));
      return Promise.resolve({
        responses: answers.map((options) =>
          options === 'failed' || options === 'hung'
            ? { status: 500, error: { type: 'x' } }
            : {
                status: 200,
                suggest: Object.fromEntries(
                  Object.entries(options).map(([name, titles]) => [name, [{ options: titles.map((title) => ({ _source: { title } })) }]]),
                ),
              },
        ),
      });
    },
  } as unknown as Client;
  return { repository: createEsRepository(es, 'w', { batching: BATCHING }), asks };
}

// The carriers of one title (createTitleCarriers) come first, as many as the slots, then the others.
const crowded =
  (carriers: number, others: string[], title = 'Vortex Bloom') =>
  (size: number): string[] =>
    [...Array.from({ length: Math.min(carriers, size) }, () => title), ...others].slice(0, size);

describe('suggestions when one title takes the slots asked', () => {
  it('when one title fills the slots asked, then more are asked until the limit is filled', async () => {
    const { repository, asks } = suggester((size) => ({ titles: crowded(12, ['Vortex Garden', 'Vortex Lights'])(size) }));
    const { texts } = await repository.suggest({ q: 'vort', limit: 3 });
    expect(texts).to.deep.equal(['Vortex Bloom', 'Vortex Garden', 'Vortex Lights']);
    expect(asks.map(({ size }) => size)).to.deep.equal([6, 24]);
  });

  it('when the options took fewer slots than were asked, then there are no more to ask for, and one ask is all', async () => {
    const { repository, asks } = suggester((size) => ({ titles: crowded(3, [])(size) }));
    expect((await repository.suggest({ q: 'vort', limit: 3 })).texts).to.deep.equal(['Vortex Bloom']);
    expect(asks).to.have.length(1);
  });

  it('when a title completes the prefix through several of its words, then each takes a slot, and fewer options than slots still ask again', async () => {
    // "wave" completes "Wave upon Wave upon Wave" from its first, third and fifth word: two
    // carriers took the six slots of limit 3 (helper-139).
    const { repository, asks } = suggester((size) => ({
      titles: size <= 6 ? ['Wave upon Wave upon Wave', 'Wave upon Wave upon Wave'] : ['Wave upon Wave upon Wave', 'Wave Rider', 'Wave Crest'],
    }));
    expect((await repository.suggest({ q: 'wave', limit: 3 })).texts).to.deep.equal(['Wave upon Wave upon Wave', 'Wave Rider', 'Wave Crest']);
    expect(asks.map(({ size }) => size)).to.deep.equal([6, 24]);
  });

  it('when the completions as typed fill their slots with one title, then typos do not take the places more slots find for them', async () => {
    // A typo's completions weigh their downloads times the letters in common: a popular Vertex Peak
    // had come before Vortex Garden (helper-139).
    const { repository, asks } = suggester((size) => ({
      titles: crowded(30, ['Vortex Garden', 'Vortex Lights'])(size),
      typos: ['Vertex Peak', 'Vartan Sky', ...crowded(30, [])(size)].slice(0, size),
    }));
    expect((await repository.suggest({ q: 'vortex', limit: 2 })).texts).to.deep.equal(['Vortex Bloom', 'Vortex Garden']);
    expect((await repository.suggest({ q: 'vort', limit: 4 })).texts).to.deep.equal([
      'Vortex Bloom',
      'Vortex Garden',
      'Vortex Lights',
      'Vertex Peak',
    ]);
    expect(asks.map(({ size }) => size)).to.deep.equal([4, 16, 64, 8, 32, 128]);
  });

  it('when options take slots this reading does not see, then each still counts one (helper-140)', async () => {
    // Elasticsearch's fuzzy completion keeps the first byte, not the first letter: п and м share
    // theirs, so "пост" completes "Мост Ночь" through a typo, which a reading by letters misses.
    const { repository, asks } = suggester((size) => ({
      typos: size <= 6 ? Array(6).fill('Мост Ночь') : ['Мост Ночь', 'Мостик Дня', 'Мостик Утро'],
    }));
    expect((await repository.suggest({ q: 'пост', limit: 3 })).texts).to.deep.equal(['Мост Ночь', 'Мостик Дня', 'Мостик Утро']);
    expect(asks.map(({ size }) => size)).to.deep.equal([6, 24]);
  });

  it('when titles differ only in case, then they are one, the spelling of the first (the most popular)', async () => {
    const { repository } = suggester(() => ({ titles: ['HARBOR LIGHTS', 'harbor lights', 'Harbor Lights', 'Harbour in Hong Kong'] }));
    expect((await repository.suggest({ q: 'harb', limit: 3 })).texts).to.deep.equal(['HARBOR LIGHTS', 'Harbour in Hong Kong']);
  });

  it('when one title fills even the most slots asked, then asking stops there', async () => {
    const { repository, asks } = suggester((size) => ({ titles: crowded(10_000, ['Vortex Garden'])(size) }));
    expect((await repository.suggest({ q: 'vort', limit: 10 })).texts).to.deep.equal(['Vortex Bloom']);
    expect(asks.map(({ size }) => size)).to.deep.equal([20, 80, 320, 500]);
  });

  it('when asking again fails or hangs, then the titles of the first ask are the answer, within the budget', async () => {
    for (const trouble of ['failed', 'hung'] as const) {
      const { repository, asks } = suggester((size, ask) => (ask === 1 ? { titles: crowded(12, [])(size) } : trouble));
      const started = performance.now();
      expect((await repository.suggest({ q: 'vort', limit: 3 })).texts, trouble).to.deep.equal(['Vortex Bloom']);
      expect(performance.now() - started, trouble).to.be.below(BUDGET_MS / 4 + 150);
      expect(asks[1]!.requestTimeout, `${trouble}: a quarter of a budget at most`).to.be.at.most(BUDGET_MS / 4);
    }
  });

  it('when one request of a batch asks again and that ask hangs, then the others of its batch are answered after their first ask', async () => {
    const { repository } = suggester((size, _, prefix) =>
      prefix === 'vort' ? (size > 6 ? 'hung' : { titles: crowded(12, [])(size) }) : { titles: ['Harbour in Hong Kong'] },
    );
    const started = performance.now();
    const crowdedOne = repository.suggest({ q: 'vort', limit: 3 });
    const plain = await repository.suggest({ q: 'harb', limit: 3 });
    expect(plain.texts).to.deep.equal(['Harbour in Hong Kong']);
    expect(performance.now() - started, 'the plain request waited for nobody').to.be.below(BUDGET_MS / 4);
    expect((await crowdedOne).texts).to.deep.equal(['Vortex Bloom']);
  });
});
