import { expect } from 'chai';
import { withWallpapersAsked } from '../../../../src/wallpapers/domain/with-wallpapers-asked.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';
import { recordingRepository } from '../../../support/recording-repository.js';

describe('a search that only asks for wallpapers', () => {
  it('when none of its wallpaper words occurs, then every wallpaper is searched for, in the downloads order, exclusions kept', async () => {
    const wordsOccur = occurringIn(['show']);
    const repository = recordingRepository();
    await withWallpapersAsked(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 })).search(
      searchParams({ q: 'show me HD wallpapers -space', page: 1, per_page: 20 }),
    );
    const [seen] = repository.seen;
    expect(seen!.text).to.deep.include({ groups: [], every: true });
    expect(seen!.text.excluded.map(({ text }) => text)).to.deep.equal(['space']);
    expect(seen!.sort).to.equal('downloads');
    expect(wordsOccur.asked, 'the words asking for wallpapers alone').to.deep.equal([['hd', 'wallpapers']]);
  });

  it('when tags or colours rank it, or another order is asked, then that order stays', async () => {
    const repository = recordingRepository();
    const asked = withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: occurringIn([]), absentMs: 1000 }));
    await asked.search(searchParams({ q: 'wallpaper', page: 1, per_page: 20, tags: ['misty'] }));
    await asked.search(searchParams({ q: 'wallpaper', page: 1, per_page: 20, color: ['blue'] }));
    await asked.search(searchParams({ q: 'wallpaper', page: 1, per_page: 20, sort: 'newest' }));
    expect(repository.seen.map((params) => [params.text.every, params.sort])).to.deep.equal([
      [true, undefined],
      [true, undefined],
      [true, 'newest'],
    ]);
  });

  it('when one of its wallpaper words occurs, or Elasticsearch did not say, then it is searched as typed', async () => {
    const repository = recordingRepository();
    const failing = Object.assign(() => Promise.reject(new Error('down')), { asked: [] as string[][] });
    await withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: occurringIn(['4k']), absentMs: 1000 })).search(
      searchParams({ q: '4k wallpaper', page: 1, per_page: 20 }),
    );
    await withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: failing, absentMs: 1000 })).search(
      searchParams({ q: 'wallpaper', page: 1, per_page: 20 }),
    );
    expect(repository.seen.map((params) => [params.text.every, params.text.groups.length])).to.deep.equal([
      [undefined, 2],
      [undefined, 1],
    ]);
  });

  it('when it asks for more than wallpapers, then nothing is asked and the search goes down as it came', async () => {
    const wordsOccur = occurringIn([]);
    const repository = recordingRepository();
    const params = searchParams({ q: 'mountain wallpaper', page: 1, per_page: 20 });
    await withWallpapersAsked(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 })).search(params);
    expect(repository.seen[0]).to.equal(params);
    expect(wordsOccur.asked).to.deep.equal([]);
  });
});
