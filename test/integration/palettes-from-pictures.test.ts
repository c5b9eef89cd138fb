import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { COLOR_NAMES, hexToLab } from '../../src/wallpapers/colors.js';
import type { Wallpaper, WallpaperDetail } from '../../src/wallpapers/wallpaper.js';
import { runScript, toNdjson, wallpapers } from '../support/catalogue-cli.js';
import { type RunningApp, connectEs, createKey, dropIndicesOf, readyRedis, request, startApp, testConfig, uniqueName } from '../support/harness.js';

/** A picture of horizontal bands, each a colour over a share of its height: what its palette must say. */
type Bands = readonly (readonly [hex: string, share: number])[];

async function picture(bands: Bands, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const [width, height] = [200, 100];
  const raw = Buffer.alloc(width * height * 3);
  let row = 0;
  for (const [hex, share] of bands) {
    const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const rows = Math.round(share * height);
    for (let y = row; y < Math.min(height, row + rows); y++) {
      for (let x = 0; x < width; x++) raw.set(rgb, (y * width + x) * 3);
    }
    row += rows;
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

// What each wallpaper's thumbnail shows, by id; the ones without bands fail in their own way.
const DRAWN: Record<number, Bands> = {
  1: [
    ['#1e3a8a', 0.7],
    ['#f59e0b', 0.3],
  ],
  2: [['#16a34a', 1]],
  3: [
    ['#ffffff', 0.6],
    ['#000000', 0.4],
  ],
  4: [['#7f1d1d', 1]],
  11: [
    ['#f59e0b', 0.8],
    ['#1e3a8a', 0.2],
  ],
};
const GIVEN = [{ hex: '#ff00ff', share: 1 }];

describe('palettes read from pictures (npm run import -- --extract-colors) and found by colour', function () {
  this.timeout(120_000);
  const es = connectEs(undefined, 60_000);
  const alias = uniqueName('test-palettes');
  const dir = mkdtempSync(join(tmpdir(), 'wpc-palettes-'));
  const asked = new Map<string, number>();
  let server: Server;
  let base = '';
  let app: RunningApp;
  let key = '';
  let run: Awaited<ReturnType<typeof runScript>>;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '';
    asked.set(path, (asked.get(path) ?? 0) + 1);
    const id = Number(/\/(\d+)\.img$/.exec(path)?.[1]);
    if (DRAWN[id]) {
      res.writeHead(200, { 'content-type': id === 11 ? 'image/jpeg' : 'image/png' }).end(await picture(DRAWN[id], id === 11 ? 'jpeg' : 'png'));
    } else if (id === 5) {
      res.writeHead(404).end();
    } else if (id === 6) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a picture</html>');
    } else if (id === 7) {
      // Busy the first time: a retry must get it.
      if (asked.get(path) === 1) res.writeHead(503).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end(await picture([['#800080', 1]]));
    } else if (id === 9) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50_000_000) });
      res.write(Buffer.alloc(1024));
    } else if (id === 10) {
      // Never answers: the timeout must.
    } else {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('not a png at all'));
    }
  }

  before(async () => {
    server = createServer((req, res) => void serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const records = wallpapers(12).map((record): Wallpaper & { colors?: typeof GIVEN } => ({
      ...record,
      thumbnail: `${base}/thumbs/${record.id}.img`,
      ...(record.id === 8 ? { colors: GIVEN } : {}),
    }));
    const path = join(dir, 'pictures.ndjson');
    writeFileSync(path, toNdjson(records));
    run = await runScript('import', [path, '--extract-colors', '--image-timeout-ms', '800', '--image-retries', '1', '--image-max-bytes', '1000000'], {
      env: { INDEX_ALIAS: alias },
      cwd: dir,
    });
    const redis = await readyRedis();
    key = (await createKey(redis, 'premium')).apiKey;
    app = await startApp({ config: testConfig({ indexAlias: alias }), es, redis });
  });

  after(async () => {
    await app?.close();
    server.closeAllConnections();
    server.close();
    await dropIndicesOf(es, alias);
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const res = await request(app.url, path, { key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const ids = async (query: string) =>
    ((await get(`/v1/wallpapers?per_page=100&${query}`)).data as Wallpaper[]).map((w) => w.id).sort((a, b) => a - b);
  const detail = async (id: number) => (await get(`/v1/wallpapers/${id}`)) as WallpaperDetail;
  const distance = (x: string, y: string) => {
    const [a, b] = [hexToLab(x), hexToLab(y)];
    return Math.hypot(a.l - b.l, a.a - b.a, a.b - b.b);
  };

  it('when pictures are read, then each palette names the colours drawn, at their shares, largest first', async () => {
    expect(run.status, run.stderr).to.equal(0);
    for (const id of [1, 2, 3, 4, 11]) {
      const { colors } = await detail(id);
      const drawn = DRAWN[id]!;
      expect(colors, `wallpaper ${id}: ${JSON.stringify(colors)}`).to.have.lengthOf(drawn.length);
      drawn.forEach(([hex, share], i) => {
        expect(distance(colors[i]!.hex, hex), `${colors[i]!.hex} for ${hex}`).to.be.below(3);
        expect(colors[i]!.share).to.be.closeTo(share, 0.02);
      });
    }
  });

  it('when a picture cannot be read, then its record loads without a palette and the run names it and why', async () => {
    expect(run.stderr).to.match(/id 5: no palette, picture \S+\/5\.img: HTTP 404/);
    expect(run.stderr).to.match(/id 6: no palette, picture \S+\/6\.img: not an image \(Content-Type text\/html\)/);
    expect(run.stderr).to.match(/id 9: no palette, picture \S+\/9\.img: larger than 1000000 bytes/);
    expect(run.stderr).to.match(/id 10: no palette, picture \S+\/10\.img: no answer within 800 ms/);
    expect(run.stderr).to.match(/id 12: no palette, picture \S+\/12\.img: not a readable image/);
    expect(asked.get('/thumbs/10.img'), 'a timeout is retried').to.equal(2);
    expect(run.stderr, run.stderr).to.match(/palettes read from 6 pictures \(\d+ images\/s over [\d.]+s\), 5 pictures could not be read/);
    expect(run.stderr).to.match(/12 records loaded from 12 lines, none rejected/);
    for (const id of [5, 6, 9, 10, 12]) {
      const wallpaper = await detail(id);
      expect([wallpaper.colors, wallpaper.tone, wallpaper.title]).to.deep.equal([[], null, wallpapers(12)[id - 1]!.title]);
    }
  });

  it('when a 503 answers first, then the retry reads the picture', async () => {
    expect(asked.get('/thumbs/7.img')).to.equal(2);
    expect((await detail(7)).colors.map(({ hex }) => distance(hex, '#800080') < 3)).to.deep.equal([true]);
  });

  it('when a record comes with its palette, then it is kept and its picture is not fetched', async () => {
    expect((await detail(8)).colors).to.deep.equal(GIVEN);
    expect(asked.has('/thumbs/8.img')).to.equal(false);
    expect(run.stderr).to.include('1 records kept the palette they came with');
  });

  it('when colours are asked by name or by hex, then the wallpapers showing them are found', async () => {
    expect(await ids('color=blue')).to.deep.equal([1, 11]);
    expect(await ids('color=orange')).to.deep.equal([1, 11]);
    expect(await ids('color=green')).to.deep.equal([2]);
    expect(await ids('color=white')).to.deep.equal([3]);
    expect(await ids('color=red')).to.deep.equal([4]);
    expect(await ids('color=purple')).to.deep.equal([7, 8]);
    expect(await ids('color=%23f59e0b')).to.deep.equal([1, 11]);
    expect(await ids('color=f7a20d'), 'a close shade, without #').to.deep.equal([1, 11]);
    expect(await ids('color=%2300ff00')).to.deep.equal([]);
    expect(await ids('color=green,black')).to.deep.equal([2, 3]);
    expect(await ids('color=grey')).to.deep.equal(await ids('color=gray'));
    expect((await request(app.url, '/v1/wallpapers?color=Green', { key })).status, 'names are lower case').to.equal(400);
    expect(await ids('color=%2316a34a,red')).to.deep.equal([2, 4]);
  });

  it('when a colour is asked with sort=relevance, then larger shares rank first', async () => {
    expect((await get('/v1/wallpapers?color=orange&sort=relevance')).data.map((w: Wallpaper) => w.id)).to.deep.equal([11, 1]);
    expect((await get('/v1/wallpapers?color=blue&sort=relevance')).data.map((w: Wallpaper) => w.id)).to.deep.equal([1, 11]);
  });

  it('when a tone is asked, then it follows the palette, and wallpapers without one have none', async () => {
    expect(await ids('tone=dark')).to.deep.equal([1, 4, 7]);
    expect(await ids('tone=light')).to.deep.equal([2, 3, 8, 11]);
  });

  it('when colours and tones are faceted, then each count is the total its filter finds', async () => {
    const { meta } = await get('/v1/wallpapers?facets=color,tone');
    const counted = new Map<string, number>(meta.facets.color.map((f: { value: string; count: number }) => [f.value, f.count]));
    for (const name of COLOR_NAMES) {
      const total = (await get(`/v1/wallpapers?color=${name}`)).meta.total_items as number;
      expect(counted.get(name) ?? 0, name).to.equal(total);
    }
    expect(meta.facets.tone).to.deep.equal([
      { value: 'light', count: 4 },
      { value: 'dark', count: 3 },
    ]);
  });
});
