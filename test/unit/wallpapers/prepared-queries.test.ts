import { expect } from 'chai';
import { isShared } from '../../../src/infra/shared.js';
import { createPreparedQueries } from '../../../src/wallpapers/prepared-queries.js';

const prepared = (n: number) => ({ request: { params: { q: `q${n}`, page: 1 } }, linkQuery: `q=q${n}` });

/** A seeded generator, so a run always admits the same query strings. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Share of lookups that hit over the last `measured` rounds of a loop over `distinct` query strings. */
function loopHitRate(admitWhenFull: number, distinct: number, rounds: number, measured: number): number {
  const memo = createPreparedQueries<{ params: object }>({ maxEntries: 1000, maxQueryLength: 1024, admitWhenFull, random: seeded(7) });
  let hits = 0;
  let lookups = 0;
  for (let round = 0; round < rounds; round++) {
    for (let n = 0; n < distinct; n++) {
      const found = memo.get(`q=${n}`);
      if (round >= rounds - measured) {
        lookups++;
        if (found) hits++;
      }
      if (!found) memo.keep(`q=${n}`, prepared(n));
    }
  }
  return hits / lookups;
}

describe('createPreparedQueries', () => {
  it('when there is room, then every query string is kept, frozen, with its params shared', () => {
    const memo = createPreparedQueries<{ params: object }>({ maxEntries: 2, maxQueryLength: 100, admitWhenFull: 0 });
    memo.keep('q=a', prepared(1));
    const found = memo.get('q=a');
    expect(found?.linkQuery).to.equal('q=q1');
    expect(Object.isFrozen(found)).to.equal(true);
    expect(isShared(found?.request.params)).to.equal(true);
  });

  it('when a query string is longer than the limit, then it is not kept', () => {
    const memo = createPreparedQueries<{ params: object }>({ maxEntries: 2, maxQueryLength: 5, admitWhenFull: 1 });
    memo.keep('q=abcdef', prepared(1));
    expect(memo.get('q=abcdef')).to.equal(undefined);
  });

  it('when full, then a new query string replaces the oldest only when the draw falls under admitWhenFull', () => {
    const draws = [0.5, 0.05];
    const memo = createPreparedQueries<{ params: object }>({ maxEntries: 2, maxQueryLength: 100, admitWhenFull: 0.1, random: () => draws.shift()! });
    memo.keep('q=1', prepared(1));
    memo.keep('q=2', prepared(2));
    memo.keep('q=3', prepared(3));
    expect([memo.get('q=1'), memo.get('q=3')].map(Boolean)).to.deep.equal([true, false]);
    memo.keep('q=3', prepared(3));
    expect([memo.get('q=1'), memo.get('q=2'), memo.get('q=3')].map(Boolean)).to.deep.equal([false, true, true]);
    expect(memo.size).to.equal(2);
  });

  it('when a loop of 1,240 distinct queries comes round again and again over 1,000 places, then most of it hits, where keeping every miss hits none', () => {
    expect(loopHitRate(1, 1240, 30, 5)).to.equal(0);
    expect(loopHitRate(1 / 16, 1240, 30, 5)).to.be.above(0.7);
  });

  it('when the queries fit, then after one round every lookup hits', () => {
    expect(loopHitRate(1 / 16, 900, 3, 2)).to.equal(1);
  });
});
