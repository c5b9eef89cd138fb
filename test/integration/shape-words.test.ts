import { expect } from 'chai';
import { useCatalogue } from './catalogue-context.js';
import { searchFound, wallpaperSized as doc } from './search-words-context.js';

// Device and sharpness words ask for a shape (docs/api.md, "What matches"): with a subject, its
// wallpapers of that shape first; alone, those wallpapers only.
const DOCS = [
  // The plainest sunset ranks first on its words: a shape asked has to lift the others above it.
  doc(1, 'Sunset', '1920x1080', 90),
  doc(2, 'Sunset in the Hills of the Far North', '1080x2340', 10),
  doc(3, 'Sunset beside the Tower of the Old Harbour', '3840x2160', 50),
  doc(4, 'Quiet Street', '2160x3840', 70),
  doc(5, 'Calm Lake', '1280x720', 80),
];

describe('shape and sharpness words in a search', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({}, { docs: () => DOCS });

  const found = searchFound(ctx);

  it('when a phone is named beside a subject, then its upright wallpapers come first and the others still follow', async () => {
    for (const q of ['sunset iphone', 'sunset phone wallpaper', 'vertical sunset']) {
      const { ids, total } = await found(q);
      expect(ids[0], q).to.equal(2);
      expect(total, q).to.equal(3);
    }
  });

  it('when a sharpness is named beside a subject, then the wallpapers at least that sharp come first', async () => {
    const { ids } = await found('sunset 4k');
    expect(ids[0]).to.equal(3);
    expect(ids).to.have.members([1, 2, 3]);
  });

  it('when a query names only a device, then every wallpaper is found, those of its shape first', async () => {
    expect(await found('iphone wallpapers')).to.deep.equal({ ids: [4, 2, 1, 5, 3], total: 5 });
    expect(await found('desktop')).to.deep.equal({ ids: [1, 5, 3, 4, 2], total: 5 });
  });

  it('when a query names only a sharpness, then the wallpapers at least that sharp are all it finds, either way round', async () => {
    expect(await found('4k')).to.deep.equal({ ids: [4, 3], total: 2 });
    expect(await found('ultra hd desktop'), 'the wide ones first').to.deep.equal({ ids: [3, 4], total: 2 });
    expect(await found('4k phone wallpaper'), 'no upright one that sharp: the sharp ones').to.deep.equal({ ids: [4, 3], total: 2 });
  });

  it('when a device of each shape is named, then no shape is asked', async () => {
    expect((await found('phone desktop wallpaper')).total).to.equal(5);
  });
});
