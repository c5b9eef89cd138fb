import { expect } from 'chai';
import { isShared, share } from '../../../src/infra/shared-result.js';

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
});
