import { type Server, createServer } from 'node:http';
import sharp from 'sharp';
import { parseResolution } from '../../wallpapers/resolution.js';
import { demoLook, generateWallpaper } from './generator.js';
import { pictureSvg } from './picture.js';

export interface PictureServerOptions {
  /** The generator seed the demo catalogue was made with: pictures are drawn from its words. */
  seed: number;
  /** The base the catalogue's URLs were made with: a URL is served only if it is the wallpaper's own. */
  imageBaseUrl: string;
}

// A thumbnail's long side. Full pictures are drawn at the wallpaper's resolution, one at a time
// (an 8K JPEG takes a few hundred milliseconds and a hundred megabytes to draw).
const THUMB_LONG_SIDE = 400;
const PICTURE = /^\/(full|thumb)\/(\d{1,15})-[a-z0-9-]+\.jpg$/;

function render(id: number, seed: number, kind: 'full' | 'thumb', width: number, height: number): Promise<Buffer> {
  const scale = kind === 'thumb' ? Math.min(1, THUMB_LONG_SIDE / Math.max(width, height)) : 1;
  const [w, h] = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  return sharp(Buffer.from(pictureSvg(id, demoLook(id, seed), w, h)))
    .jpeg({ quality: kind === 'thumb' ? 80 : 90 })
    .toBuffer();
}

/**
 * Serves the demo catalogue's pictures: each URL the generator gave a wallpaper (`/full/…` at
 * its resolution, `/thumb/…` at 400 pixels on the long side) answers a JPEG drawn from its words,
 * the same bytes every time; anything else is 404. What `npm run up` reads palettes from, and
 * what a person sees opening a demo wallpaper's URL.
 */
export function createPictureServer({ seed, imageBaseUrl }: PictureServerOptions): Server {
  const base = new URL(imageBaseUrl.replace(/\/*$/, '/'));
  let drawingFull: Promise<unknown> = Promise.resolve();
  function draw(id: number, kind: 'full' | 'thumb', width: number, height: number): Promise<Buffer> {
    const drawOne = () => render(id, seed, kind, width, height);
    if (kind === 'thumb') return drawOne();
    const drawn = drawingFull.then(drawOne, drawOne);
    drawingFull = drawn.catch(() => undefined);
    return drawn;
  }
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const relative = path.startsWith(base.pathname) ? `/${path.slice(base.pathname.length)}` : '';
    const match = PICTURE.exec(relative);
    const id = match ? Number(match[2]) : 0;
    const wallpaper = id >= 1 && Number.isSafeInteger(id) ? generateWallpaper(id, seed, imageBaseUrl.replace(/\/+$/, ''), 'none') : null;
    const kind = match?.[1] as 'full' | 'thumb' | undefined;
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      !wallpaper ||
      !kind ||
      new URL(wallpaper[kind === 'full' ? 'url' : 'thumbnail']).pathname !== path
    ) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such picture\n');
      return;
    }
    const { width, height } = parseResolution(wallpaper.resolution)!;
    draw(id, kind, width, height).then(
      (jpeg) => {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length, 'cache-control': 'public, max-age=86400, immutable' });
        res.end(req.method === 'HEAD' ? undefined : jpeg);
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`could not draw: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  });
}
