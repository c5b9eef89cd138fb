import { expect } from 'chai';
import sharp from 'sharp';
import { jpegScans, pictureFormat, unreadFormatName } from '../../../../src/catalogue/pixels/picture-format.js';

describe('what a picture is, by its first bytes', () => {
  const flat = () => sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } });

  it('when a picture is one of the formats read, then its signature names it', async () => {
    expect(pictureFormat(await flat().jpeg().toBuffer())).to.equal('jpeg');
    expect(pictureFormat(await flat().png().toBuffer())).to.equal('png');
    expect(pictureFormat(await flat().gif().toBuffer())).to.equal('gif');
    expect(pictureFormat(await flat().webp().toBuffer())).to.equal('webp');
    expect(pictureFormat(await flat().avif({ effort: 0 }).toBuffer())).to.equal('heif');
  });

  it('when a picture is another format, then it is none of them, named for the report without being parsed', async () => {
    const tiff = await flat().tiff().toBuffer();
    expect(pictureFormat(tiff)).to.equal(null);
    expect(unreadFormatName(tiff)).to.equal('tiff');
    for (const svg of ['<svg xmlns="http://www.w3.org/2000/svg">', '\uFEFF  <?xml version="1.0"?><svg width="1">']) {
      expect(pictureFormat(Buffer.from(svg)), svg).to.equal(null);
      expect(unreadFormatName(Buffer.from(svg)), svg).to.equal('svg');
    }
    expect(unreadFormatName(Buffer.from('<!doctype html><p>not found'))).to.equal('markup');
    expect(unreadFormatName(Buffer.from('plain words'))).to.equal('unknown');
    expect(pictureFormat(Buffer.alloc(0))).to.equal(null);
  });

  it('when a JPEG is counted, then each start of scan counts, up to one past the limit', async () => {
    expect(jpegScans(await flat().jpeg().toBuffer(), 100)).to.equal(1);
    expect(jpegScans(await flat().jpeg({ progressive: true }).toBuffer(), 100)).to.be.within(2, 12);
    const scan = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0xff, 0x00, 0x34]);
    const crafted = Buffer.concat([Buffer.from([0xff, 0xd8]), ...Array.from({ length: 5000 }, () => scan)]);
    expect(jpegScans(crafted, 100)).to.equal(101);
  });
});
