import { expect } from 'chai';
import { cellOf, hexToLab, toneOf } from '../../../../src/wallpapers/colors.js';
import { createTitleCarriers, toIndexDocument } from '../../../../src/wallpapers/store/index-document.js';

const WALLPAPER = {
  id: 1,
  title: 'Quiet Lake',
  description: 'A quiet lake.',
  url: 'https://images.example/1.jpg',
  thumbnail: 'https://images.example/t/1.jpg',
  resolution: '1920x1080',
  category: 'nature',
  downloads: 3,
  created_at: '2024-01-01T00:00:00Z',
};

describe('what the index keeps of a palette', () => {
  it('when a palette is indexed, then its colours of 5 % or more give their cells, names, and the largest share tier reached', () => {
    const document = toIndexDocument({
      ...WALLPAPER,
      colors: [
        { hex: '#1e3a8a', share: 0.4 },
        { hex: '#4169e1', share: 0.2 },
        { hex: '#ffffff', share: 0.3 },
        { hex: '#ff0000', share: 0.04 },
      ],
    });
    const navy = cellOf(hexToLab('#1e3a8a'));
    const royal = cellOf(hexToLab('#4169e1'));
    const white = cellOf(hexToLab('#ffffff'));
    expect(document.color_cells).to.have.members([navy, royal, white]);
    expect(document.color_names, 'red covers under 5 %').to.deep.equal(['white', 'blue']);
    expect(document.color_ranks, 'the largest tier reached, blue by navy and royal together').to.have.members([
      `${navy}@30`,
      `${royal}@15`,
      `${white}@30`,
      'white@30',
      'blue@50',
    ]);
  });

  it('when shades of one cell share a picture, then their shares add up to its size tier, as the shares of a name do', () => {
    const document = toIndexDocument({
      ...WALLPAPER,
      colors: [
        { hex: '#000000', share: 0.45 },
        { hex: '#fefefe', share: 0.3 },
        { hex: '#fdfdfd', share: 0.25 },
      ],
    });
    const white = cellOf(hexToLab('#fefefe'));
    expect(cellOf(hexToLab('#fdfdfd'))).to.equal(white);
    expect(document.color_cells).to.have.lengthOf(2);
    expect(document.color_ranks).to.include.members([`${white}@50`, 'white@50']);
  });

  it('when a wallpaper has no palette, then it has no colour terms and no tone', () => {
    const document = toIndexDocument(WALLPAPER);
    expect([document.color_cells, document.color_names, document.color_ranks, document.tone]).to.deep.equal([[], [], [], undefined]);
  });

  it('when any palette is indexed, then its stored tone is the one toneOf gives, and the shape is read from the resolution unless the document carries one', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 500; round++) {
      const shares = Array.from({ length: 1 + Math.floor(random() * 6) }, () => random()).sort((a, b) => b - a);
      const total = shares.reduce((sum, share) => sum + share, 0) * (1 + random());
      const colors = shares.map((share) => ({
        hex: `#${Math.floor(random() * 0xffffff)
          .toString(16)
          .padStart(6, '0')}`,
        share: share / total,
      }));
      const document = toIndexDocument({ ...WALLPAPER, colors });
      expect(document.tone ?? null, JSON.stringify(colors)).to.equal(toneOf(colors));
    }
    expect(toIndexDocument({ ...WALLPAPER, resolution: '1080x1920' })).to.include({ width: 1080, height: 1920, orientation: 'portrait' });
    expect(toIndexDocument({ ...WALLPAPER, width: 640, height: 480 })).to.include({ width: 640, height: 480 });
  });
});

describe('which documents of a load carry their title`s suggestions', () => {
  it('when a title comes again, then only a wallpaper more popular than every earlier one of it carries it, in any case of its letters', () => {
    const carries = createTitleCarriers();
    const loaded = [
      ['Harbour in Hong Kong', 572],
      ['Golden Harbour', 10],
      ['harbour in hong kong', 100],
      ['Harbour in Hong Kong', 3_651],
      ['Harbour in Hong Kong', 3_651],
      ['Golden Harbour', 4_606],
    ] as const;
    expect(loaded.map(([title, downloads]) => carries(title, downloads))).to.deep.equal([true, true, false, true, false, true]);
  });
});
