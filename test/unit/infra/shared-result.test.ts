import { expect } from 'chai';
import { derivedOnce, isShared, share } from '../../../src/infra/shared-result.js';

describe('shared results', () => {
  it('when a result is shared, then it and everything it holds are frozen', () => {
    const page = share({ items: [{ id: 1, tags: ['a'] }], total: 1 });
    expect(Object.isFrozen(page) && Object.isFrozen(page.items) && Object.isFrozen(page.items[0]) && Object.isFrozen(page.items[0]!.tags)).to.equal(
      true,
    );
    expect(() => {
      (page as { total: number }).total = 2;
    }).to.throw(TypeError);
  });

  it('when an object is frozen but was never shared, then it is not taken for a shared result', () => {
    expect(isShared(Object.freeze({ total: 1 }))).to.equal(false);
    expect(isShared(share({ total: 1 }))).to.equal(true);
    expect(isShared(null)).to.equal(false);
  });

  it('when a result is shared twice, then the second call returns it as it is', () => {
    const page = share({ total: 1 });
    expect(share(page)).to.equal(page);
  });

  it('when a result is shared, then only the result is registered, while its parts are frozen', () => {
    const page = share({ items: [{ id: 1 }], facets: { category: [{ value: 'nature', count: 1 }] } });
    expect(isShared(page)).to.equal(true);
    expect(isShared(page.items)).to.equal(false);
    expect(Object.isFrozen(page.facets.category[0])).to.equal(true);
  });

  it('when a value is derived from a shared result, then it is built once and handed to every later request', () => {
    const derive = derivedOnce<{ text: string }>();
    const result = share({ id: 1 });
    let builds = 0;
    const first = derive(result, () => ({ text: `built ${++builds}` }));
    const second = derive(result, () => ({ text: `built ${++builds}` }));
    expect(second).to.equal(first);
    expect(builds).to.equal(1);
  });

  it('when a value is derived from a result that is not shared, then it is built every time and not kept', () => {
    const derive = derivedOnce<number>();
    const result = Object.freeze({ id: 1 });
    let builds = 0;
    derive(result, () => ++builds);
    expect(derive(result, () => ++builds)).to.equal(2);
  });

  it('when two kinds of value are derived from one result, then each keeps its own', () => {
    const json = derivedOnce<string>();
    const key = derivedOnce<string>();
    const result = share({ id: 1 });
    expect(json(result, () => 'json')).to.equal('json');
    expect(key(result, () => 'key')).to.equal('key');
    expect(json(result, () => 'other')).to.equal('json');
  });
});
