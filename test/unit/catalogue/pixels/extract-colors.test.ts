import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    // Pictures are read several at once, so a few more than GIVE_UP_AFTER may have failed by then.
    const said = /^none of the first (\d+) pictures could be read \(the last: https:\/\/i\.example\/thumb\/\d+\.png: no file/.exec(
      (error as Error).message,
    );
    expect(said, (error as Error).message).to.not.equal(null);
    expect(Number(said![1])).to.be.within(GIVE_UP_AFTER, GIVE_UP_AFTER + 20);
  });

  describe('over HTTP, with a picture that does not come', () => {
    let url = '';
    const asked: string[] = [];
    const held: (() => void)[] = [];
    let png: Buffer;
    // Pictures that do not come until released (their connections' closing noted), and 404 for ids 1000-1999.
    let hanging = new Set(['/thumb/1.png']);
    const closed = new Set<string>();
    const server = createServer((req, res) => {
      asked.push(req.url!);
      const id = Number(/(\d+)\.png$/.exec(req.url!)?.[1]);
      if (id >= 1000 && id < 2000) return res.writeHead(404).end();
      if (hanging.has(req.url!)) {
        req.socket.once('close', () => closed.add(req.url!));
        held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
      } else res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    before(async () => {
      png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(() => {
      for (const release of held.splice(0)) release();
      asked.length = 0;
      hanging = new Set(['/thumb/1.png']);
      closed.clear();
    });
    after(() => new Promise((resolve) => server.close(resolve)));
    const http = (id: number): WallpaperDocument => ({ ...doc(id), thumbnail: `${url}/thumb/${id}.png` });

    it('when the first picture hangs, then the pictures behind it are read meanwhile, and the records come out in order once it does', async () => {
      const docs = Array.from({ length: 12 }, (_, i) => http(i + 1));
      const out: number[] = [];
      const reading = (async () => {
        for await (const d of withExtractedColors(docs, { ...DEFAULT_IMAGE_SOURCE, concurrency: 2, onFailure: () => undefined })) out.push(d.id);
      })();
      // Two at once, and records held: the eleven behind the hung one are all read.
      while (asked.length < 12) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(out).to.deep.equal([]);
      held.shift()!();
      await reading;
      expect(out).to.deep.equal(docs.map((d) => d.id));
    });

    it('when hung pictures take every place, then the records before them whose pictures are done come out meanwhile', async () => {
      hanging = new Set(['/thumb/3.png', '/thumb/4.png']);
      const out: number[] = [];
      const reading = (async () => {
        const docs = Array.from({ length: 6 }, (_, i) => http(i + 1));
        for await (const d of withExtractedColors(docs, { ...DEFAULT_IMAGE_SOURCE, concurrency: 2, onFailure: () => undefined })) out.push(d.id);
      })();
      // Both hung pictures asked (each holds a place), and the two before them out meanwhile.
      while (out.length < 2 || held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(out).to.deep.equal([1, 2]);
      for (const release of held.splice(0)) release();
      await reading;
      expect(out).to.deep.equal([1, 2, 3, 4, 5, 6]);
    });

    it('when the run gives up on its pictures, then the fetches still in flight are abandoned with it', async () => {
      const docs = [...Array.from({ length: GIVE_UP_AFTER }, (_, i) => http(1000 + i)), http(3000), http(3001)];
      hanging = new Set(['/thumb/3000.png', '/thumb/3001.png']);
      const options = { ...DEFAULT_IMAGE_SOURCE, concurrency: 8, onFailure: () => undefined };
      const error = await (async () => {
        for await (const _ of withExtractedColors(docs, options)) {
          // drained
        }
      })().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(NoPictureReadable);
      const until = Date.now() + 2_000;
      const hungAsked = () => [...new Set(asked.filter((path) => hanging.has(path)))].sort();
      const hungClosed = () => [...closed].filter((path) => hanging.has(path)).sort();
      while ((hungAsked().length === 0 || hungClosed().length < hungAsked().length) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(hungAsked()).to.not.be.empty;
      expect(hungClosed(), 'hung fetches closed, not left to their 10 s timeout').to.deep.equal(hungAsked());
    });

    it('when the first picture hangs and the rest fail, then the run gives up once the failures say so, not after the hung one', async () => {
      hanging = new Set(['/thumb/3100.png']);
      const docs = [http(3100), ...Array.from({ length: 400 }, (_, i) => http(1000 + i))];
      const started = Date.now();
      const error = await (async () => {
        for await (const _ of withExtractedColors(docs, { ...DEFAULT_IMAGE_SOURCE, concurrency: 4, onFailure: () => undefined })) {
          // drained
        }
      })().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(NoPictureReadable);
      expect(Date.now() - started, 'not the hung picture`s 10 s timeout').to.be.below(5_000);
      expect(asked.filter((path) => path !== '/thumb/3100.png').length, 'about the first 50 fetched, not the 400').to.be.below(GIVE_UP_AFTER + 10);
    });

    it('when the run stops while a picture hangs, then reading ends at once with the stop, and the records held are not passed on', async () => {
      const stop = new AbortController();
      const out: number[] = [];
      const reading = (async () => {
        const options = { ...DEFAULT_IMAGE_SOURCE, concurrency: 2, signal: stop.signal, onFailure: () => undefined };
        for await (const d of withExtractedColors([http(1), http(2), http(3)], options)) out.push(d.id);
      })();
      while (asked.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
      stop.abort(new Error('stopped by SIGTERM'));
      const error = await reading.then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).to.equal('stopped by SIGTERM');
      expect(out).to.deep.equal([]);
    });
  });
});
