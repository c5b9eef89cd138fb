import { expect } from 'chai';
import { selectOrphans, selectPrunable, type IndexState, type VersionedIndex } from '../../../../src/catalogue/admin/index-admin.js';

const index = (minute: number, state: IndexState = 'complete', live = false): VersionedIndex => ({
  name: `w-${minute}`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)),
  docs: 10,
  live,
  state,
});

const names = (indices: VersionedIndex[]) => indices.map((i) => i.name);

describe('selectPrunable', () => {
  it('when all indices are complete, then the newest `keep` stay and older ones go', () => {
    expect(names(selectPrunable([index(4, 'complete', true), index(3), index(2), index(1)], 2))).to.deep.equal(['w-2', 'w-1']);
  });

  it('when the live index is older than the kept ones, then it is never pruned', () => {
    expect(names(selectPrunable([index(3), index(2), index(1, 'complete', true)], 1))).to.deep.equal(['w-2']);
  });

  it('when a newer index was rolled back, then an older complete one is kept in its place', () => {
    expect(names(selectPrunable([index(5, 'complete', true), index(4, 'rolled-back'), index(3)], 2))).to.deep.equal(['w-4']);
  });

  it('when an index the alias left still has deletions to record (leaving, rolling-back), then it is never pruned, whatever keep says', () => {
    expect(names(selectPrunable([index(5, 'complete', true), index(4, 'leaving'), index(3, 'rolling-back'), index(2)], 1))).to.deep.equal(['w-2']);
  });

  it('when an abandoned building index is newest, then it is pruned first', () => {
    expect(names(selectPrunable([index(9, 'building'), index(5, 'complete', true), index(3)], 2))).to.deep.equal(['w-9']);
  });
});

describe('selectOrphans', () => {
  it('when indices are building, then only those the alias does not point at are orphans', () => {
    expect(names(selectOrphans([index(9, 'building'), index(8, 'building', true), index(7), index(6, 'rolled-back')]))).to.deep.equal(['w-9']);
  });
});
