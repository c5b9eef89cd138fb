import { expect } from 'chai';
import {
  CELL,
  COLOR_NAMES,
  HEX_CLOSENESS,
  type Lab,
  cellOf,
  cellsNear,
  colorNamesOf,
  hexToLab,
  isNear,
  labToHex,
  namesOf,
  colorNameOfWord,
  readColor,
  toneOf,
  toneOfWord,
} from '../../../src/wallpapers/colors.js';
import { Random } from '../../../src/catalogue/generation/prng.js';

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

  it('when a hex is compared, then lightness and the a*b* plane have their own tolerances, measured from cell centres', () => {
    const navy = hexToLab('#1e3a8a');
    const lightnessMargin = CELL / 2;
    expect(isNear(navy, navy), 'the hex asked itself').to.equal(true);
    expect(isNear({ ...navy, l: navy.l + HEX_CLOSENESS.lightness - lightnessMargin - 0.01 }, navy)).to.equal(true);
    expect(isNear({ ...navy, l: navy.l + HEX_CLOSENESS.lightness + lightnessMargin + 0.01 }, navy)).to.equal(false);
    expect(isNear({ ...navy, a: navy.a + 6, b: navy.b + 8 }, navy), '10 apart in a*b*').to.equal(true);
    expect(isNear({ ...navy, a: navy.a + 18, b: navy.b + 24 }, navy), '30 apart').to.equal(false);
  });

  it('when random colours are compared with random targets, then the cell rule agrees with the distances but within half a cell', () => {
    const prng = new Random(7);
    const random = () => prng.next();
    const lab = (): Lab => ({ l: random() * 100, a: random() * 200 - 100, b: random() * 200 - 100 });
    let agreed = 0;
    for (let i = 0; i < 3000; i++) {
      const target = lab();
      const color = { l: target.l + (random() - 0.5) * 50, a: target.a + (random() - 0.5) * 60, b: target.b + (random() - 0.5) * 60 };
      const dl = Math.abs(color.l - target.l);
      const dab = Math.hypot(color.a - target.a, color.b - target.b);
      const surelyNear = dl <= HEX_CLOSENESS.lightness - CELL / 2 && dab <= HEX_CLOSENESS.chroma - CELL / Math.SQRT2;
      const surelyFar = dl > HEX_CLOSENESS.lightness + CELL / 2 || dab > HEX_CLOSENESS.chroma + CELL / Math.SQRT2;
      const near = isNear(color, target);
      if (surelyNear) expect(near, JSON.stringify({ color, target })).to.equal(true);
      if (surelyFar) expect(near, JSON.stringify({ color, target })).to.equal(false);
      if (near === (dl <= HEX_CLOSENESS.lightness && dab <= HEX_CLOSENESS.chroma)) agreed++;
    }
    expect(agreed / 3000, 'the same answer as the exact distances for most pairs').to.be.above(0.85);
  });

  it('when the cells near a hex are listed, then each is one colour cell, listed once, about 300 of them', () => {
    const target = hexToLab('#808080');
    const near = cellsNear(target);
    expect(new Set(near.map(({ cell }) => cell)).size).to.equal(near.length);
    expect(near.length).to.be.within(250, 350);
    expect(near.map(({ cell }) => cell)).to.include(cellOf(target));
    expect(Math.max(...near.map(({ distance }) => distance)), 'lightness and the plane together').to.be.at.most(
      Math.hypot(HEX_CLOSENESS.lightness, HEX_CLOSENESS.chroma),
    );
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
    for (const name of ['constructor', '__proto__', 'toString']) expect(() => readColor(name), name).to.throw(RangeError);
    expect(COLOR_NAMES).to.have.lengthOf(12);
  });

  it('when a word of a query is read as a colour, then a name or alias in any case is the name, anything else none', () => {
    expect(colorNameOfWord('Yellow')).to.equal('yellow');
    expect(colorNameOfWord('GREY')).to.equal('gray');
    for (const word of ['yellowish', 'gold', '#f2d338', 'constructor', '__proto__']) expect(colorNameOfWord(word), word).to.equal(null);
  });

  it('when a word of a query says a dark picture, then its tone is dark in any case, named or implied; no word says light', () => {
    for (const word of ['dark', 'DARK', 'darkness', 'amoled']) expect(toneOfWord(word), word).to.deep.equal({ tone: 'dark', named: true });
    for (const word of ['Night', 'MIDNIGHT', 'nighttime', 'black']) expect(toneOfWord(word), word).to.deep.equal({ tone: 'dark', named: false });
    for (const word of ['light', 'bright', 'white', 'darkroom', 'knight', 'constructor']) expect(toneOfWord(word), word).to.equal(null);
  });

  it('when a colour goes to CIELAB and back, then it is the same hex', () => {
    for (const hex of ['#000000', '#ffffff', '#1e3a8a', '#f59e0b', '#7f1d1d']) expect(labToHex(hexToLab(hex))).to.equal(hex);
  });
});
