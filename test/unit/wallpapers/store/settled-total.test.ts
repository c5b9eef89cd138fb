import { expect } from 'chai';
import { settledTotal } from '../../../../src/wallpapers/store/es-repository.js';

describe("a page's total when counted apart from the page", () => {
  it('when a page by number is full, then the total is the count', () => {
    expect(settledTotal({ page: 2, per_page: 20 }, 20, 95)).to.equal(95);
  });

  it('when a page by number is not full, then the total is where its items end, whatever the count saw a moment apart', () => {
    expect(settledTotal({ page: 1, per_page: 100 }, 42, 43)).to.equal(42);
    expect(settledTotal({ page: 3, per_page: 20 }, 5, 44)).to.equal(45);
  });

  it('when page 1 is empty, then the total is 0, whatever the count saw', () => {
    expect(settledTotal({ page: 1, per_page: 20 }, 0, 1)).to.equal(0);
  });

  it('when a page past the end is empty, then the total is the count, or the matches before the page if the count saw more', () => {
    expect(settledTotal({ page: 9, per_page: 20 }, 0, 41)).to.equal(41);
    expect(settledTotal({ page: 3, per_page: 20 }, 0, 41)).to.equal(40);
  });

  it('when the count saw fewer than a full page has shown, then the total is what the page has shown', () => {
    expect(settledTotal({ page: 2, per_page: 20 }, 20, 30)).to.equal(40);
  });

  it('when a cursor page is not full, then the total is where its items end past the depth its walk has served', () => {
    const position = { index: 'i', after: [1], total: 230, depth: 200 };
    expect(settledTotal({ page: 1, per_page: 50, position }, 30, 235)).to.equal(230);
    expect(settledTotal({ page: 1, per_page: 50, position }, 35, 230)).to.equal(235);
  });

  it('when a cursor page is full or empty, then the total is the count, kept between what the walk has served and what it shows', () => {
    const position = { index: 'i', after: [1], total: 230, depth: 200 };
    expect(settledTotal({ page: 1, per_page: 50, position }, 50, 230)).to.equal(250);
    expect(settledTotal({ page: 1, per_page: 50, position }, 50, 300)).to.equal(300);
    expect(settledTotal({ page: 1, per_page: 50, position }, 0, 230)).to.equal(200);
  });

  it('when a cursor page does not say its depth, then the total is the count', () => {
    expect(settledTotal({ page: 1, per_page: 20, position: { index: 'i', after: [1], total: 50 } }, 3, 50)).to.equal(50);
  });
});
