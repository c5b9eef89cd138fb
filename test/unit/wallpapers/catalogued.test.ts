import { expect } from 'chai';
import fc from 'fast-check';
import { packPalette, packTags, toDetail, toDocument, toListItem, unpackPalette, unpackTags } from '../../../src/wallpapers/catalogued.js';
import { toIndexDocument } from '../../../src/wallpapers/store/index-document.js';
import { TAG_PATTERN } from '../../../src/wallpapers/tags.js';
import type { WallpaperDocument } from '../../../src/wallpapers/wallpaper.js';

const WALLPAPER: WallpaperDocument = {
  id: 7,
  title: 'Remote Alpine Lake',
  description: 'd',
  url: 'https://i.example/full/7.jpg',
  thumbnail: 'https://i.example/thumb/7.jpg',
  resolution: '1170x2532',
  category: 'landscapes',
  downloads: 666,
  created_at: '2020-07-16T02:55:39Z',
  width: 1170,
  height: 2532,
};

describe('a wallpaper as the catalogue keeps it', () => {
  it('when any tags and palette are packed and unpacked, then they come back exactly', () => {
    const tag = fc.stringMatching(new RegExp(TAG_PATTERN)).filter((t) => t.length <= 32);
    const color = fc.record({ hex: fc.stringMatching(/^#[0-9a-f]{6}$/), share: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(tag, { maxLength: 20 }), fc.array(color, { maxLength: 6 }), (tags, colors) => {
        expect(unpackTags(packTags(tags))).to.deep.equal(tags);
        expect(unpackPalette(packPalette(colors))).to.deep.equal(colors);
      }),
      { seed: 27 },
    );
  });

  it('when a described wallpaper is kept, then its detail, its list item and its record read back what was loaded', () => {
    const described = {
      ...WALLPAPER,
      tags: ['alpine lake', 'quiet'],
      colors: [
        { hex: '#d7e7f4', share: 0.546 },
        { hex: '#2e6a34', share: 0.338 },
      ],
    };
    const { tags: _indexed, color_names: _names, color_cells: _cells, color_ranks: _ranks, suggest: _suggest, ...kept } = toIndexDocument(described);
    expect(kept.tag_line).to.equal('alpine lake|quiet');
    expect(kept.palette_line).to.equal('d7e7f4:0.546 2e6a34:0.338');
    expect(toDocument(kept)).to.deep.equal(described);
    expect(toDetail(kept)).to.deep.include({
      ratio: '9x19.5',
      orientation: 'portrait',
      tags: described.tags,
      colors: described.colors,
      tone: 'light',
    });
    expect(toListItem(kept, ['tags']))
      .to.deep.include({ tags: described.tags })
      .and.not.have.property('colors');
  });

  it('when a wallpaper of an older catalogue is read, then its detail has empty tags and palette, its shape from the resolution', () => {
    const { width: _w, height: _h, ...nine } = WALLPAPER;
    expect(toDetail(nine)).to.deep.include({ width: 1170, height: 2532, ratio: '9x19.5', orientation: 'portrait', tags: [], colors: [], tone: null });
    expect(toDocument(nine)).to.deep.equal(WALLPAPER);
  });
});
