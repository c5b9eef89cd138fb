import { expect } from 'chai';
import sharp from 'sharp';
import { UnreadableImage, paletteOfImage } from '../../../../src/catalogue/pixels/palette-of-image.js';
import { hexToLab } from '../../../../src/wallpapers/colors.js';

const distance = (x: string, y: string) => {
  const [a, b] = [hexToLab(x), hexToLab(y)];
  return Math.hypot(a.l - b.l, a.a - b.a, a.b - b.b);
};

/** A picture of vertical stripes, each a colour over a share of the width. */
function stripes(colors: readonly (readonly [string, number])[], width = 300, height = 100): Promise<Buffer> {
  let x = 0;
  const rects = colors.map(([hex, share]) => {
    const w = Math.round(share * width);
    const rect = `<rect x="${x}" width="${w}" height="${height}" fill="${hex}"/>`;
    x += w;
    return rect;
  });
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rects.join('')}</svg>`))
    .png()
    .toBuffer();
}

describe('the palette of a picture', () => {
  it('when a picture has a few flat colours, then each is named once at its share, largest first', async () => {
    const palette = await paletteOfImage(
      await stripes([
        ['#2a5bd7', 0.5],
        ['#f2c14e', 0.3],
        ['#1b1b1b', 0.2],
      ]),
    );
    const drawn = [
      ['#2a5bd7', 0.5],
      ['#f2c14e', 0.3],
      ['#1b1b1b', 0.2],
    ] as const;
    expect(palette).to.have.lengthOf(3);
    drawn.forEach(([hex, share], i) => {
      expect(distance(palette[i]!.hex, hex), `${palette[i]!.hex} for ${hex}`).to.be.below(3);
      expect(palette[i]!.share).to.be.closeTo(share, 0.02);
    });
  });

  it('when a picture has more than six colours, then at most six remain, the closest merged first', async () => {
    const many: [string, number][] = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#ff00ff', '#00ffff', '#000000', '#ffffff'].map((hex) => [
      hex,
      1 / 8,
    ]);
    const palette = await paletteOfImage(await stripes(many, 400));
    expect(palette.length).to.be.at.most(6);
    expect(palette.reduce((sum, { share }) => sum + share, 0)).to.be.closeTo(1, 0.01);
  });

  it('when a gradient holds many near shades, then they merge into few colours', async () => {
    const gradient = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><defs><linearGradient id="g"><stop offset="0" stop-color="#ff8a3c"/><stop offset="1" stop-color="#ff6a3c"/></linearGradient></defs><rect width="200" height="100" fill="url(#g)"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const palette = await paletteOfImage(gradient);
    expect(palette.length).to.equal(1);
    expect(palette[0]!.share).to.be.closeTo(1, 0.01);
  });

  it('when the bytes are not a picture, then UnreadableImage says so', async () => {
    const error = await paletteOfImage(Buffer.from('GIF89a but not really')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(UnreadableImage);
    expect((error as Error).message).to.match(/^not a readable image/);
  });

  it('when a picture has transparent parts, then they count as white', async () => {
    const transparent = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const palette = await paletteOfImage(transparent);
    expect(palette).to.deep.equal([{ hex: '#ffffff', share: 1 }]);
  });

  describe('pictures refused from their header', () => {
    const refusal = (image: Buffer) =>
      paletteOfImage(image).then(
        () => null,
        (e: unknown) => e as Error,
      );

    it('when a picture is an SVG, then it is refused by its format, not rendered', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>');
      const error = await refusal(svg);
      expect(error).to.be.instanceOf(UnreadableImage);
      expect(error?.message).to.equal('svg pictures are not read (JPEG, PNG, WebP, GIF and AVIF are)');
    });

    it('when bytes say SVG but are no SVG at all, then they are refused by their signature, never parsed', async () => {
      const error = await refusal(Buffer.from(`<svg ${'<'.repeat(10_000)}`));
      expect(error?.message).to.equal('svg pictures are not read (JPEG, PNG, WebP, GIF and AVIF are)');
    });

    it('when a JPEG repeats its scans past the bound, then it is refused before it is decoded', async () => {
      const scan = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0xff, 0x00, 0x34]);
      const crafted = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), ...Array.from({ length: 150 }, () => scan)]);
      expect((await refusal(crafted))?.message).to.equal('a JPEG of more than 100 scans is not read (its decoding has no bound on time)');
    });

    it('when an interlaced PNG has more pixels than a picture decoded whole may, then it is refused; the same not interlaced is read', async function () {
      this.timeout(20_000);
      const flat = sharp({ create: { width: 4000, height: 3100, channels: 3, background: '#336699' } });
      const interlaced = await flat.clone().png({ progressive: true, compressionLevel: 1 }).toBuffer();
      expect((await refusal(interlaced))?.message).to.equal(
        '4000 x 3100 is more than a interlaced or progressive PNG picture may have (12.0 megapixels)',
      );
      const sequential = await flat.clone().png({ compressionLevel: 1 }).toBuffer();
      expect(await paletteOfImage(sequential)).to.deep.equal([{ hex: '#336699', share: 1 }]);
    });

    it('when a JPEG carries a gain map (UltraHDR), then it is bounded as a picture decoded whole', async function () {
      this.timeout(30_000);
      // sharp has withGainMap, but its type declarations here do not.
      const hdr = sharp({ create: { width: 3500, height: 3500, channels: 3, background: '#336699' } }).toColourspace('scrgb');
      const ultraHdr = await (hdr as unknown as { withGainMap(): typeof hdr }).withGainMap().jpeg().toBuffer();
      expect((await refusal(ultraHdr))?.message).to.equal('3500 x 3500 is more than a JPEG with a gain map picture may have (12.0 megapixels)');
    });

    it('when an AVIF has more pixels than its bound, then it is refused before it is decoded', async function () {
      this.timeout(30_000);
      const avif = await sharp({ create: { width: 2100, height: 2100, channels: 3, background: '#336699' } })
        .avif({ effort: 0 })
        .toBuffer();
      expect((await refusal(avif))?.message).to.equal('2100 x 2100 is more than a AVIF/HEIF picture may have (4.2 megapixels)');
    });
  });
});
