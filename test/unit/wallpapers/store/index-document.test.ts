import { expect } from 'chai';
import { cellOf, hexToLab } from '../../../../src/wallpapers/colors.js';
import { toIndexDocument } from '../../../../src/wallpapers/store/index-document.js';

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
});
