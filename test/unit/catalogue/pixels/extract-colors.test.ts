import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { DEFAULT_IMAGE_SOURCE } from '../../../../src/catalogue/pixels/fetch-image.js';
import { GIVE_UP_AFTER, NoPictureReadable, withExtractedColors } from '../../../../src/catalogue/pixels/extract-colors.js';
import type { WallpaperDocument } from '../../../../src/wallpapers/wallpaper.js';

const doc = (id: number): WallpaperDocument => ({
  id,
  title: `W ${id}`,
  description: '',
  url: `https://i.example/full/${id}.png`,
  thumbnail: `https://i.example/thumb/${id}.png`,
  resolution: '1920x1080',
  category: 'abstract',
  downloads: 0,
  created_at: '2024-01-01T00:00:00Z',
  width: 1920,
  height: 1080,
});

describe('palettes read on the way to the index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wpc-extract-'));
  mkdirSync(join(dir, 'thumb'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const options = { ...DEFAULT_IMAGE_SOURCE, dir, concurrency: 4 };

  before(async () => {
    for (const [id, hex] of [
      [1, '#ff0000'],
      [3, '#00ff00'],
      [6, '#0000ff'],
    ] as const) {
      writeFileSync(
        join(dir, 'thumb', `${id}.png`),
        await sharp({ create: { width: 8, height: 8, channels: 3, background: hex } })
          .png()
          .toBuffer(),
      );
    }
    // Picture 2 is there but not an image: it fails after a read and a decode, later than the
    // missing picture 4, which still must be reported after it.
    writeFileSync(join(dir, 'thumb', '2.png'), Buffer.alloc(4 << 20, 7));
  });

  it('when some pictures can be read, then every record comes through in order, those with their palette, the rest reported in that order', async () => {
    const failed: number[] = [];
    const counts = { extracted: 0, failed: 0, kept: 0, seconds: 0 };
    const given = { ...doc(5), colors: [{ hex: '#123456', share: 1 }] };
    const docs = [doc(1), doc(2), doc(3), doc(4), given, doc(6)];
    const out: WallpaperDocument[] = [];
    for await (const d of withExtractedColors(docs, { ...options, onFailure: ({ id }) => failed.push(id) }, counts)) out.push(d);
    expect(out.map((d) => d.id)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(out.map((d) => d.colors?.[0]?.hex ?? null)).to.deep.equal(['#ff0000', null, '#00ff00', null, '#123456', '#0000ff']);
    expect(failed).to.deep.equal([2, 4]);
    expect(counts).to.include({ extracted: 3, failed: 2, kept: 1 });
  });

  it('when none of the first pictures can be read, then the run stops saying where it looked', async () => {
    const docs = Array.from({ length: GIVE_UP_AFTER + 20 }, (_, i) => doc(100 + i));
    const read = async () => {
      for await (const _ of withExtractedColors(docs, { ...options, onFailure: () => undefined })) {
        // drained
      }
    };
    const error = await read().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(NoPictureReadable);
    expect((error as Error).message).to.match(
      new RegExp(`none of the first ${GIVE_UP_AFTER} pictures could be read \\(the last: https://i.example/thumb/\\d+\\.png: no file`),
    );
  });
});
