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

  it('when its words are of the offer (free, download, a file type), then they are never asked about, even where the catalogue holds them', async () => {
    const wordsOccur = occurringIn(['free', 'download', 'png', 'hq']);
    const repository = recordingRepository();
    const asked = withWallpapersAsked(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }));
    await asked.search(searchParams({ q: 'hd wallpapers free download', page: 1, per_page: 20 }));
    await asked.search(searchParams({ q: 'free png', page: 1, per_page: 20 }));
    await asked.search(searchParams({ q: 'free hq wallpapers', page: 1, per_page: 20 }));
    expect(repository.seen.map(({ text }) => [text.every ?? false, text.groups.map((group) => group.map(({ text }) => text))])).to.deep.equal([
      [true, []],
      [true, []],
      [false, [['hq']]],
    ]);
    expect(wordsOccur.asked, 'free, download and png never; wallpapers once, then remembered').to.deep.equal([['hd', 'wallpapers'], ['hq']]);
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

  it('when some of its wallpaper words occur, then only those are looked for, a joined term keeping all of its words that occur', async () => {
    const repository = recordingRepository();
    const asked = withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: occurringIn(['hq', 'screen']), absentMs: 1000 }));
    for (const q of ['hq wallpaper', 'hq-wallpaper', 'hq-screen', 'hd-wallpaper OR hq-screen-wallpaper', 'hq screen']) {
      await asked.search(searchParams({ q, page: 1, per_page: 20 }));
    }
    const texts = repository.seen.map((params) => params.text.groups.map((group) => group.map(({ text }) => text)));
    expect(texts).to.deep.equal([[['hq']], [['hq']], [['hq screen']], [['hq screen']], [['hq'], ['screen']]]);
    expect(repository.seen.map((params) => params.text.every)).to.deep.equal([undefined, undefined, undefined, undefined, undefined]);
  });

  it('when all of its wallpaper words occur, or Elasticsearch did not say, then it is searched as typed', async () => {
    const repository = recordingRepository();
    const failing = Object.assign(() => Promise.reject(new Error('down')), { asked: [] as string[][] });
    const fourK = searchParams({ q: 'hq-screen', page: 1, per_page: 20 });
    await withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: occurringIn(['hq', 'screen']), absentMs: 1000 })).search(fourK);
    const wallpaper = searchParams({ q: 'wallpaper', page: 1, per_page: 20 });
    await withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: failing, absentMs: 1000 })).search(wallpaper);
    expect(repository.seen).to.deep.equal([fourK, wallpaper]);
  });

  it('when its words ask for a shape or a sharpness, then every wallpaper is searched for, ranked by an orientation, whatever the text says', async () => {
    const wordsOccur = occurringIn(['4k', 'phone', 'iphone']);
    const repository = recordingRepository();
    const asked = withWallpapersAsked(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }));
    for (const q of ['iphone wallpapers', '4k', 'ultra hd desktop -space']) await asked.search(searchParams({ q, page: 1, per_page: 20 }));
    expect(repository.seen.map(({ text, sort }) => [text.groups, text.every, text.shape, sort])).to.deep.equal([
      [[], true, { orientation: 'portrait' }, undefined],
      [[], true, { atLeast: { short: 2160, long: 3840 } }, 'downloads'],
      [[], true, { orientation: 'landscape', atLeast: { short: 2160, long: 3840 } }, undefined],
    ]);
    expect(repository.seen[2]!.text.excluded.map(({ text }) => text)).to.deep.equal(['space']);
    expect(wordsOccur.asked, 'the text is not asked').to.deep.equal([]);
  });

  it('when its words name a tablet or a wide screen, then every wallpaper is searched for, ranked by its ratios, in the tie-break order', async () => {
    const repository = recordingRepository();
    const asked = withWallpapersAsked(repository, createWordOccurrences({ wordsOccur: occurringIn([]), absentMs: 1000 }));
    for (const q of ['ipad', 'dual monitor wallpaper']) await asked.search(searchParams({ q, page: 1, per_page: 20 }));
    expect(repository.seen.map(({ text, sort }) => [text.groups, text.every, text.shape, sort])).to.deep.equal([
      [[], true, { ratios: ['3x4', '4x3', '2x3', '3x2', '10x16'] }, undefined],
      [[], true, { orientation: 'landscape', ratios: ['32x9'] }, undefined],
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
