import { expect } from 'chai';
import { ByteBudgetLru } from '../../../src/infra/byte-budget-lru.js';

describe('byte-budget LRU', () => {
  it('when the budget is exceeded, then the least recently used entries go first', () => {
    const lru = new ByteBudgetLru<string>(800, 10_000);
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    for (const key of keys) lru.set(key, key.toUpperCase(), 100, 0);
    expect(lru.get('a', 1)).to.equal('A');
    lru.set('i', 'I', 100, 2);
    expect(lru.get('b', 3)).to.equal(undefined);
    expect(['a', 'c', 'h', 'i'].map((key) => lru.get(key, 3))).to.deep.equal(['A', 'C', 'H', 'I']);
    expect(lru.bytes).to.equal(800);
  });

  it('when an entry outlives its time to live, then it is a miss and its bytes are released', () => {
    const lru = new ByteBudgetLru<string>(1000, 50);
    lru.set('a', 'A', 100, 0);
    expect(lru.get('a', 49)).to.equal('A');
    expect(lru.get('a', 50)).to.equal(undefined);
    expect(lru.bytes).to.equal(0);
  });

  it('when a value is larger than an eighth of the budget, then it is not kept', () => {
    const lru = new ByteBudgetLru<string>(800, 1000);
    lru.set('small', 's', 100, 0);
    lru.set('big', 'b', 101, 0);
    expect(lru.get('big', 1)).to.equal(undefined);
    expect(lru.get('small', 1)).to.equal('s');
  });

  it('when a key is set again, then its bytes are counted once', () => {
    const lru = new ByteBudgetLru<string>(1000, 1000);
    lru.set('a', 'A', 100, 0);
    lru.set('a', 'A2', 120, 0);
    expect(lru.bytes).to.equal(120);
    expect(lru.size).to.equal(1);
    lru.clear();
    expect([lru.bytes, lru.size]).to.deep.equal([0, 0]);
  });
});
