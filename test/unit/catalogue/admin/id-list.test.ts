import { expect } from 'chai';
import { IdList } from '../../../../src/catalogue/admin/id-list.js';

describe('ids gathered during a load (IdList)', () => {
  it('when ids are added past its first capacity, out of order and repeated, then they come back sorted, each once', () => {
    const list = new IdList();
    const added = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 3001);
    for (const id of added) list.add(id);
    expect([...list.sortedUnique()]).to.deep.equal([...new Set(added)].sort((a, b) => a - b));
  });

  it('when nothing was added, then it is empty', () => {
    expect(new IdList().sortedUnique()).to.have.length(0);
  });
});
