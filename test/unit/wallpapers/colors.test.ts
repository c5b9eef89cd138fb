import { expect } from 'chai';
import { COLOR_NAMES, HEX_CLOSENESS, colorNamesOf, hexToLab, isClose, labToHex, namesOf, readColor, toneOf } from '../../../src/wallpapers/colors.js';

// CSS colour names and what people call them: each named colour's region must hold the shades of
// its name, and no region may claim a shade everyone calls something else.
const CALLED: Record<string, readonly string[]> = {
  black: ['#000000', '#0a0a0a', '#111318'],
  white: ['#ffffff', '#fffafa', '#fffff0', '#f8f8ff'],
  gray: ['#808080', '#c0c0c0', '#696969', '#2f4f4f', '#a9a9a9'],
  red: ['#ff0000', '#800000', '#dc143c', '#8b0000', '#b22222'],
  orange: ['#ffa500', '#ff8c00', '#ff7f50', '#d2691e'],
  yellow: ['#ffff00', '#ffd700', '#f0e68c'],
  green: ['#008000', '#00ff00', '#808000', '#228b22', '#006400', '#2e8b57'],
  teal: ['#008080', '#008b8b', '#00ffff', '#40e0d0'],
  blue: ['#0000ff', '#000080', '#4169e1', '#87ceeb', '#1e90ff', '#4682b4'],
  purple: ['#800080', '#4b0082', '#ee82ee', '#9400d3'],
  pink: ['#ffc0cb', '#ff69b4', '#ff1493'],
  brown: ['#8b4513', '#a0522d', '#a52a2a'],
};

describe('colours', () => {
  for (const [name, shades] of Object.entries(CALLED)) {
    it(`when a shade people call ${name} is named, then ${name} is among its names`, () => {
      for (const hex of shades) expect(namesOf(hexToLab(hex)), hex).to.include(name);
    });
  }

  it('when clearly different colours are named, then they share no name', () => {
    const apart = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#ffffff', '#000000', '#808080', '#800080', '#008080'];
    const names = apart.map((hex) => namesOf(hexToLab(hex)));
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++)
        expect(
          names[i]!.filter((n) => names[j]!.includes(n)),
          `${apart[i]} ${apart[j]}`,
        ).to.deep.equal([]);
    }
  });

  it('when a palette is named, then only colours of at least 5 % count, in the documented order', () => {
    expect(
      colorNamesOf([
        { hex: '#0000ff', share: 0.6 },
        { hex: '#ff0000', share: 0.05 },
        { hex: '#ffff00', share: 0.049 },
      ]),
    ).to.deep.equal(['red', 'blue']);
    expect(colorNamesOf([])).to.deep.equal([]);
  });

  it('when a hex is compared, then lightness and the a*b* plane have their own tolerances', () => {
    const navy = hexToLab('#1e3a8a');
    expect(isClose({ ...navy, l: navy.l + HEX_CLOSENESS.lightness - 0.01 }, navy)).to.equal(true);
    expect(isClose({ ...navy, l: navy.l + HEX_CLOSENESS.lightness + 0.01 }, navy)).to.equal(false);
    expect(isClose({ ...navy, a: navy.a + 12, b: navy.b + 15.9 }, navy)).to.equal(true);
    expect(isClose({ ...navy, a: navy.a + 12, b: navy.b + 16.1 }, navy)).to.equal(false);
  });

  it('when a tone is derived, then the share-weighted lightness decides it, and no palette has none', () => {
    expect(
      toneOf([
        { hex: '#000000', share: 0.6 },
        { hex: '#ffffff', share: 0.4 },
      ]),
    ).to.equal('dark');
    expect(
      toneOf([
        { hex: '#000000', share: 0.4 },
        { hex: '#ffffff', share: 0.6 },
      ]),
    ).to.equal('light');
    expect(toneOf([{ hex: '#1e3a8a', share: 0.1 }])).to.equal('dark');
    expect(toneOf([])).to.equal(null);
  });

  it('when a colour value is read, then names and aliases give the name, hexes the lower-case #rrggbb', () => {
    expect(readColor('grey')).to.deep.equal({ name: 'gray' });
    expect(readColor('blue')).to.deep.equal({ name: 'blue' });
    expect(readColor('1E3A8A')).to.deep.include({ hex: '#1e3a8a' });
    expect(readColor('#1e3a8a')).to.deep.include({ hex: '#1e3a8a' });
    expect(() => readColor('#12345')).to.throw(RangeError);
    expect(COLOR_NAMES).to.have.lengthOf(12);
  });

  it('when a colour goes to CIELAB and back, then it is the same hex', () => {
    for (const hex of ['#000000', '#ffffff', '#1e3a8a', '#f59e0b', '#7f1d1d']) expect(labToHex(hexToLab(hex))).to.equal(hex);
  });
});
