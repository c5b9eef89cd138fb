import { expect } from 'chai';
import type { SearchParams } from '../../../../src/wallpapers/params.js';
import { withSizesFound } from '../../../../src/wallpapers/domain/with-sizes-found.js';
import type { Page, WallpaperRepository } from '../../../../src/wallpapers/store/repository.js';
import { searchParams } from '../../../support/search-params.js';

const WALLPAPER = { id: 1 } as unknown as Page['items'][number];

/** A repository answering each search with the page `answer` gives for it, recording what it was asked. */
function answering(answer: (params: SearchParams) => Page): WallpaperRepository & { seen: SearchParams[] } {
  const seen: SearchParams[] = [];
  const repository = {
    search: (params: SearchParams) => {
      seen.push(params);
      return Promise.resolve(answer(params));
    },
  } as unknown as WallpaperRepository;
  return Object.assign(repository, { seen });
}

const words = (params: SearchParams) => params.text.groups.map((group) => group.map(({ text }) => text));
const sizesOnly = (params: SearchParams) => params.text.groups.every((group) => group.every(({ text }) => /^\d+x\d+$/.test(text)));

describe('a search with a size beside words', () => {
  it('when the words find something, then it is searched once, as read', async () => {
    const repository = answering(() => ({ items: [WALLPAPER], total: 1 }));
    await withSizesFound(repository).search(searchParams({ q: 'lake 1920x1080', page: 1, per_page: 20 }));
    expect(repository.seen.map(words)).to.deep.equal([[['lake'], ['1920x1080']]]);
  });

  it('when the words find nothing, then the wallpapers of the size are searched for, its filters, exclusions and order kept', async () => {
    const repository = answering((params) => (sizesOnly(params) ? { items: [WALLPAPER], total: 1 } : { items: [], total: 0 }));
    const params = searchParams({ q: 'img 1920x1080 2560x1440 -sunset', page: 2, per_page: 20, category: ['space'], sort: 'downloads' });
    const page = await withSizesFound(repository).search({ ...params, meaning: params.text, subject: params.text.groups[0]! });
    expect(page.items).to.have.length(1);
    const [, asked, alone] = repository.seen;
    expect(asked!.text.excluded, 'whether the words find anything, asked without exclusions').to.deep.equal([]);
    expect([asked!.category, asked!.sort, asked!.page, asked!.per_page], 'nor filters').to.deep.equal([undefined, undefined, 1, 1]);
    expect(words(alone!)).to.deep.equal([['1920x1080', '2560x1440']]);
    expect(alone!.text.excluded.map(({ text }) => text)).to.deep.equal(['sunset']);
    expect([alone!.category, alone!.sort, alone!.page, alone!.meaning, alone!.subject]).to.deep.equal([
      ['space'],
      'downloads',
      2,
      undefined,
      undefined,
    ]);
  });

  it('when a cursor page is empty, then the first page counts whether the words find anything: the end of their walk, or a walk of the size', async () => {
    const position = { after: [3, 7] } as unknown as SearchParams['position'];
    const ended = answering(() => ({ items: [], total: 108 }));
    const page = await withSizesFound(ended).search({ ...searchParams({ q: 'lake 1920x1080', page: 1, per_page: 20 }), position });
    expect(page.items).to.deep.equal([]);
    expect(ended.seen.map((params) => [params.position !== undefined, params.per_page])).to.deep.equal([
      [true, 20],
      [false, 1],
    ]);
    const none = answering((params) => (sizesOnly(params) ? { items: [WALLPAPER], total: 2121 } : { items: [], total: params.position ? 2121 : 0 }));
    const walked = await withSizesFound(none).search({ ...searchParams({ q: 'xyzzy 1920x1080', page: 1, per_page: 20 }), position });
    expect(walked.items).to.have.length(1);
    expect(none.seen.at(-1)!.position, 'the walk goes on from where it was').to.equal(position);
  });

  it('when a filter or an exclusion leaves the words nothing but they find some elsewhere, then the page stays empty', async () => {
    const repository = answering((params) =>
      params.category || params.text.excluded.length > 0 ? { items: [], total: 0 } : { items: [], total: 108 },
    );
    const page = await withSizesFound(repository).search(searchParams({ q: 'lake 1920x1080 -alpine', page: 1, per_page: 20, category: ['space'] }));
    expect(page.items).to.deep.equal([]);
    expect(repository.seen, 'no search of the size alone').to.have.length(2);
  });

  it('when the search reads a thing the catalogue lacks, or has no size beside words, then nothing else is searched for', async () => {
    const repository = answering(() => ({ items: [], total: 0 }));
    const sized = withSizesFound(repository);
    await sized.search({ ...searchParams({ q: 'unicorn 1920x1080', page: 1, per_page: 20 }), nothing: true });
    await sized.search(searchParams({ q: 'lake sunset', page: 1, per_page: 20 }));
    await sized.search(searchParams({ q: '1920x1080', page: 1, per_page: 20 }));
    expect(repository.seen).to.have.length(3);
  });
});
