import { expect } from 'chai';
import { walkGoesOn } from '../../../../src/wallpapers/edge/page-envelope.js';
import type { Page } from '../../../../src/wallpapers/store/repository.js';
import type { CataloguedWallpaper } from '../../../../src/wallpapers/catalogued.js';

const items = (n: number) => Array.from({ length: n }, (_, id) => ({ id }) as CataloguedWallpaper);
const last = { index: 'wallpapers-1', after: [1, 2] };
const pageOf = (n: number, total: number, more?: boolean): Page => ({ items: items(n), total, last, ...(more === undefined ? {} : { more }) });

describe('whether a walk goes on past a page', () => {
  it('when a full page leaves the walk short of the matches counted, then it goes on', () => {
    expect(walkGoesOn(pageOf(5, 20), 5, 15)).to.equal(true);
  });

  it('when a full page brings the walk to the matches counted and nothing read on, then it ends there, with no empty page after', () => {
    expect(walkGoesOn(pageOf(5, 20), 5, 20)).to.equal(false);
  });

  it('when a full page brings the walk past the count but reading on found more, then it goes on', () => {
    expect(walkGoesOn(pageOf(5, 17, true), 5, 20)).to.equal(true);
  });

  it('when reading on found nothing past a full page, then it ends', () => {
    expect(walkGoesOn(pageOf(5, 20, false), 5, 20)).to.equal(false);
  });

  it('when a page is short or has no last place, then it ends whatever the count', () => {
    expect(walkGoesOn(pageOf(4, 100, true), 5, 9)).to.equal(false);
    expect(walkGoesOn({ items: items(5), total: 100 }, 5, 5)).to.equal(false);
  });
});
