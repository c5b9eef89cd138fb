import sharp, { type Metadata } from 'sharp';
import { jpegScans, pictureFormat, unreadFormatName } from './picture-format.js';
import { type ColorShare, type Lab, MAX_COLORS, hexToLab, labToHex } from '../../wallpapers/colors.js';

/** The picture could not be decoded: not an image, a format libvips does not read, or too many pixels. */
export class UnreadableImage extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'UnreadableImage';
  }
}

// A palette describes a picture as a whole, so a small copy of it says as much as the original:
// the long side is scaled to SAMPLE_SIDE pixels (decoding a JPEG shrinks on load, so this is also
// the cheap way to read it), sampling pixels rather than blending them, so a palette holds colours
// the picture has, not the blend at an edge between two of them. libimagequant (pngquant's quantiser, inside sharp's libvips) then
// reduces it to QUANTISED colours without dithering, so each pixel takes its nearest colour.
const SAMPLE_SIDE = 64;
const QUANTISED = 16;
// A decompression bomb is refused before it is decoded (an 8K picture is 33 megapixels). What
// libvips reads a line at a time, shrinking as it goes (a baseline JPEG, a PNG not interlaced,
// WebP), needs little memory at any size within this.
const MAX_INPUT_PIXELS = 50_000_000;
// The formats read are those thumbnails are served in, known by their signature
// (picture-format.ts) before libvips sees them. SVG is not: librsvg renders it with no bound on
// time (a 1 KB file of nested <use> and filters took 20 s of CPU, and a stop waited for it;
// review); nor TIFF and the rest, which no thumbnail is. A JPEG's decoding grows with its scans:
// libjpeg writes about 10, a crafted one repeats one thousands of times.
const MAX_JPEG_SCANS = 100;
// What libvips must decode whole before it can shrink it (an interlaced PNG or GIF, a progressive
// JPEG, AVIF/HEIF) costs memory by its pixels: measured above the process, about 9 bytes a pixel
// for a 16-bit interlaced PNG and 25 for a 12-bit AVIF with alpha (a 2.3 KB AVIF of 7000 x 7000
// took 1.3 GB, review). Each bound keeps one such picture near 100 MB (a 4K picture is 8.3
// megapixels); libuv decodes four at once.
const WHOLE_DECODE_PIXELS = 12_000_000;
const HEIF_PIXELS = 4_200_000;

// The quantiser keeps shades a person sees as one colour (four oranges of one sunset), so its
// colours are merged, closest pair first in CIELAB (their share-weighted mean), until at most
// MAX_COLORS are left and no two are closer than MERGE_BELOW (ΔE*ab; about where people stop
// calling two colours the same). Colours under MIN_KEPT of the picture are specks, not palette.
const MERGE_BELOW = 12;
const MIN_KEPT = 0.01;

interface Weighted extends Lab {
  share: number;
}

const distance = (x: Lab, y: Lab) => Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);

function mergeClosest(colors: Weighted[]): Weighted[] {
  const merged = [...colors];
  for (;;) {
    let best: [number, number, number] | null = null;
    for (let i = 0; i < merged.length; i++) {
      for (let j = i + 1; j < merged.length; j++) {
        const d = distance(merged[i]!, merged[j]!);
        if (best === null || d < best[2]) best = [i, j, d];
      }
    }
    if (best === null || (merged.length <= MAX_COLORS && best[2] >= MERGE_BELOW)) return merged;
    const [i, j] = best;
    const x = merged[i]!;
    const y = merged[j]!;
    const share = x.share + y.share;
    const mean = (key: 'l' | 'a' | 'b') => (x[key] * x.share + y[key] * y.share) / share;
    merged[i] = { l: mean('l'), a: mean('a'), b: mean('b'), share };
    merged.splice(j, 1);
  }
}

/**
 * libvips's first line, at most 200 characters: its error can hold its whole log (a bad AVIF gave
 * 36 lines, 1.5 KB), and a report has one line per picture.
 */
function libvipsReason(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).trim().split('\n', 1)[0]!;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The most pixels a picture of this format and header may have, and what a refusal calls it. */
function pixelBound(format: string, meta: Metadata): { kind: string; most: number } {
  if (format === 'heif') return { kind: 'AVIF/HEIF', most: HEIF_PIXELS };
  if (format === 'gif') return { kind: 'GIF', most: WHOLE_DECODE_PIXELS };
  // A JPEG with a gain map (UltraHDR) goes to a loader that decodes it whole, progressive or not,
  // and says neither: a 440 KB one of 49 megapixels took 290 MB (review).
  if (meta.gainMap !== undefined) return { kind: 'JPEG with a gain map', most: WHOLE_DECODE_PIXELS };
  if (meta.isProgressive === true) return { kind: `interlaced or progressive ${format.toUpperCase()}`, most: WHOLE_DECODE_PIXELS };
  return { kind: format.toUpperCase(), most: MAX_INPUT_PIXELS };
}

/**
 * Refuses, from its signature and header alone, a picture of a format not read, a JPEG of more
 * scans than MAX_JPEG_SCANS, or one too large to decode whole.
 */
async function checkDecodable(image: Buffer): Promise<void> {
  const signed = pictureFormat(image);
  if (signed === null) {
    const name = unreadFormatName(image);
    if (name === 'svg' || name === 'tiff') throw new UnreadableImage(`${name} pictures are not read (JPEG, PNG, WebP, GIF and AVIF are)`);
    throw new UnreadableImage('not a readable image (not a JPEG, PNG, WebP, GIF or AVIF)');
  }
  if (signed === 'jpeg' && jpegScans(image, MAX_JPEG_SCANS) > MAX_JPEG_SCANS) {
    throw new UnreadableImage(`a JPEG of more than ${MAX_JPEG_SCANS} scans is not read (its decoding has no bound on time)`);
  }
  let meta: Metadata;
  try {
    meta = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (error) {
    throw new UnreadableImage(`not a readable image (${libvipsReason(error)})`, { cause: error });
  }
  const format = meta.format ?? 'unknown';
  // The signature and libvips agree, or the picture is not what it says it is.
  if (format !== signed) throw new UnreadableImage(`not a readable image (its bytes say ${signed}, its header ${format})`);
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  const { kind, most: whole } = pixelBound(format, meta);
  if (pixels > whole) {
    throw new UnreadableImage(`${meta.width} x ${meta.height} is more than a ${kind} picture may have (${(whole / 1e6).toFixed(1)} megapixels)`);
  }
}

/** How many pixels of the quantised picture have each colour, as shares of the whole. */
async function quantisedShares(image: Buffer): Promise<Map<string, number>> {
  const quantised = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .flatten({ background: '#ffffff' })
    .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'inside', kernel: 'nearest' })
    .png({ palette: true, colours: QUANTISED, dither: 0 })
    .toBuffer();
  const { data, info } = await sharp(quantised).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const counts = new Map<string, number>();
  for (let p = 0; p < data.length; p += info.channels) {
    const hex = `#${((data[p]! << 16) | (data[p + 1]! << 8) | data[p + 2]!).toString(16).padStart(6, '0')}`;
    counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  const pixels = data.length / info.channels;
  return new Map([...counts].map(([hex, count]) => [hex, count / pixels]));
}

/** The palette of a picture: at most MAX_COLORS distinct colours with their shares, largest first. */
export async function paletteOfImage(image: Buffer): Promise<ColorShare[]> {
  await checkDecodable(image);
  let shares: Map<string, number>;
  try {
    shares = await quantisedShares(image);
  } catch (error) {
    throw new UnreadableImage(`not a readable image (${libvipsReason(error)})`, { cause: error });
  }
  const colors = mergeClosest([...shares].map(([hex, share]) => ({ ...hexToLab(hex), share })));
  return colors
    .map((color) => ({ hex: labToHex(color), share: Math.round(color.share * 1000) / 1000 }))
    .filter(({ share }) => share >= MIN_KEPT)
    .sort((x, y) => y.share - x.share || (x.hex < y.hex ? -1 : 1));
}
