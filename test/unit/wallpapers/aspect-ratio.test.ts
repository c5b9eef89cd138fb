import { expect } from 'chai';
import { OTHER_RATIO, RATIOS, nominalRatio, orientationOf } from '../../../src/wallpapers/aspect-ratio.js';
import { parseResolution } from '../../../src/wallpapers/resolution.js';

const ratioOf = (resolution: string) => nominalRatio(parseResolution(resolution)!);

describe('aspect ratios and orientation', () => {
  it('when a resolution is wider, taller or as wide as tall, then it is landscape, portrait or square', () => {
    expect(orientationOf({ width: 1920, height: 1080 })).to.equal('landscape');
    expect(orientationOf({ width: 1080, height: 2340 })).to.equal('portrait');
    expect(orientationOf({ width: 2048, height: 2048 })).to.equal('square');
  });

  for (const [resolution, ratio] of [
    ['1920x1080', '16x9'],
    ['1366x768', '16x9'],
    ['3840x2160', '16x9'],
    ['2560x1600', '16x10'],
    ['2560x1080', '21x9'],
    ['3440x1440', '21x9'],
    ['3840x1600', '21x9'],
    ['5120x1440', '32x9'],
    ['1024x768', '4x3'],
    ['1280x1024', '5x4'],
    ['2048x2048', '1x1'],
    ['2048x2732', '3x4'],
    ['1080x1920', '9x16'],
    ['1080x2340', '9x19.5'],
    ['1170x2532', '9x19.5'],
    ['1080x2400', '9x20'],
  ] as const) {
    it(`when the resolution is ${resolution}, then its nominal ratio is ${ratio}`, () => {
      expect(ratioOf(resolution)).to.equal(ratio);
    });
  }

  it('when a resolution is more than 6 % from every nominal ratio, then it is other', () => {
    expect(ratioOf('4000x1000')).to.equal(OTHER_RATIO);
    expect(ratioOf('1000x1150')).to.equal(OTHER_RATIO);
  });

  it('when the ratios are read, then they are the OpenAPI enum, each one its own nearest', () => {
    expect(RATIOS).to.include.members(['16x9', '21x9', '9x16']);
    for (const name of RATIOS) {
      const [w, h] = name.split('x').map(Number) as [number, number];
      expect(nominalRatio({ width: w * 1000, height: h * 1000 })).to.equal(name);
    }
  });
});
