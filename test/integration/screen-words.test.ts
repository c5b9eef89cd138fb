import { expect } from 'chai';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperSized as doc } from './search-words-context.js';

// A tablet or a screen wider than most is asked by its ratios (docs/api.md, "What matches"): no
// wallpaper's words say "ipad" or "dual monitor", so these had found every wallpaper by downloads,
// or nothing.
const DOCS = [
  doc(1, 'Sunset', '1920x1080', 90),
  doc(2, 'Sunset over the Bay', '5120x1440', 10),
  doc(3, 'Quiet Street', '2048x2732', 20),
  doc(4, 'Calm Lake', '3440x1440', 30),
  doc(5, 'Sunset Road', '1080x2340', 80),
];

describe('screen words in a search', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = searchFound(ctx);

  it('when a query names only a tablet, then every wallpaper is found, those of a tablet ratio first', async () => {
    expect(await found('ipad')).to.deep.equal({ ids: [3, 1, 5, 4, 2], total: 5 });
    for (const q of [
      'ipad pro 12.9 wallpaper',
      'samsung galaxy tab s9',
      'android tablet',
      'surface pro 9',
      'kindle paperwhite',
      'kindle fire hd 10',
    ]) {
      expect(await found(q), q).to.deep.equal({ ids: [3, 1, 5, 4, 2], total: 5 });
    }
  });

  it('when a query names two screens or an ultrawide one, then those of its ratios come first, however it is written', async () => {
    for (const q of ['dual monitor', 'dual-monitor-wallpaper', 'wallpapers for multiple screens', 'super ultra wide']) {
      expect(await found(q), q).to.deep.equal({ ids: [2, 1, 4, 5, 3], total: 5 });
    }
    expect(await found('ultrawide')).to.deep.equal({ ids: [4, 2, 1, 5, 3], total: 5 });
  });

  it('when a ratio is typed, as people write it, then every wallpaper is found, those of that ratio first; beside a subject, its wallpapers', async () => {
    for (const q of ['21:9', '21:9 wallpaper', '21 x 9', '21×9 wallpapers', '21x9']) {
      expect(await found(q), q).to.deep.equal({ ids: [4, 1, 5, 3, 2], total: 5 });
    }
    const { ids, total } = await found('32:9 sunset');
    expect([ids[0], total]).to.deep.equal([2, 3]);
  });

  it('when a screen is named beside a subject, then the subject is what is found, that screen first', async () => {
    const { ids, total } = await found('sunset dual monitor');
    expect(ids[0]).to.equal(2);
    expect(ids).to.have.members([1, 2, 5]);
    expect(total).to.equal(3);
  });
});
