import { expect } from 'chai';
import { isShared } from '../../../../src/infra/shared-result.js';
import { createPreparedQueries } from '../../../../src/wallpapers/edge/prepared-queries.js';

const prepared = (n: number) => ({ request: { params: { q: `q${n}`, page: 1 } }, linkQuery: `q=q${n}` });

/** A seeded generator, so a run always admits the same query strings. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function memoOf(maxEntries: number, admitWhenFull: number, random = seeded(7)) {
  return createPreparedQueries<{ params: object }>({ maxEntries, maxQueryLength: 1024, admitWhenFull, random });
}

/** Looks a query string up as the routes do: prepared and kept when it is not known. */
function ask(memo: ReturnType<typeof memoOf>, n: number): boolean {
  if (memo.get(`q=${n}`)) return true;
  memo.keep(`q=${n}`, prepared(n));
  return false;
}

/** Share of lookups that hit over the last `measured` rounds of a loop over `distinct` query strings. */
function loopHitRate(admitWhenFull: number, distinct: number, rounds: number, measured: number): number {
  const memo = memoOf(1000, admitWhenFull);
  let hits = 0;
  let lookups = 0;
  for (let round = 0; round < rounds; round++) {
    for (let n = 0; n < distinct; n++) {
      const hit = ask(memo, n);
      if (round < rounds - measured) continue;
      lookups++;
      if (hit) hits++;
    }
  }
  return hits / lookups;
}

describe('createPreparedQueries', () => {
  it('when there is room, then every query string is kept, frozen, with its params shared', () => {
    const memo = memoOf(2, 0);
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

  it('when full, then a new query string gets in only when the draw falls under admitWhenFull, in place of the oldest', () => {
    const draws = [0.5, 0.05];
    const memo = memoOf(2, 0.1, () => draws.shift()!);
    memo.keep('q=1', prepared(1));
    memo.keep('q=2', prepared(2));
    memo.keep('q=3', prepared(3));
    expect(memo.size).to.equal(2);
    memo.keep('q=3', prepared(3));
    expect(['q=1', 'q=2', 'q=3'].map((q) => memo.get(q) !== undefined)).to.deep.equal([false, true, true]);
  });

  it('when the oldest was hit since admission last passed over it, then it stays and the next oldest goes instead', () => {
    const memo = memoOf(2, 1);
    memo.keep('q=1', prepared(1));
    memo.keep('q=2', prepared(2));
    memo.get('q=1');
    memo.keep('q=3', prepared(3));
    expect(['q=1', 'q=2', 'q=3'].map((q) => memo.get(q) !== undefined)).to.deep.equal([true, false, true]);
  });

  it('when the oldest entries were all hit, then a new query string is not kept, and they lose their second chance', () => {
    const memo = memoOf(8, 1);
    for (let n = 0; n < 8; n++) memo.keep(`q=${n}`, prepared(n));
    for (let n = 0; n < 8; n++) memo.get(`q=${n}`);
    memo.keep('q=new', prepared(99));
    expect(memo.get('q=new')).to.equal(undefined);
    memo.keep('q=new', prepared(99));
    expect(memo.get('q=new')?.linkQuery).to.equal('q=q99');
  });

  it('when a loop of 1,240 distinct queries comes round again and again over 1,000 places, then most of it hits, where keeping every miss hits none', () => {
    expect(loopHitRate(1, 1240, 30, 5)).to.equal(0);
    expect(loopHitRate(1 / 16, 1240, 30, 5)).to.be.above(0.75);
  });

  it('when the queries fit, then after one round every lookup hits', () => {
    expect(loopHitRate(1 / 16, 900, 3, 2)).to.equal(1);
  });

  it('when a hot set is asked every round among a stream of one-off queries, then the hot set keeps hitting however long it stays', () => {
    const memo = memoOf(1000, 1 / 16);
    let oneOff = 10_000;
    const hotHits: boolean[] = [];
    for (let round = 0; round < 400; round++) {
      for (let n = 0; n < 100; n++) hotHits.push(ask(memo, n));
      for (let k = 0; k < 50; k++) ask(memo, oneOff++);
    }
    expect(hotHits.slice(-100 * 300).every(Boolean)).to.equal(true);
  });
});
