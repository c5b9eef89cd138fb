/**
 * What a picture's first bytes say it is, read here rather than by libvips: asked for its
 * metadata, libvips parses a whole SVG before it says "svg" (19 MB of it took 2.2 s, and the
 * memory stayed: 4.65 GB after six; review). Only the formats read get to libvips at all.
 */
export type PictureFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'heif';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// ISO-BMFF brands of still AVIF and HEIF pictures and their sequences.
const HEIF_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

function isHeif(bytes: Buffer): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxEnd = Math.min(bytes.readUInt32BE(0), bytes.length);
  // The major brand, then the compatible ones after the minor version.
  for (let at = 8; at + 4 <= boxEnd; at += at === 8 ? 8 : 4) if (HEIF_BRANDS.has(ascii(bytes, at, at + 4))) return true;
  return false;
}

/** The format of a picture by its signature, or null when it is none of those read. */
export function pictureFormat(bytes: Buffer): PictureFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(PNG)) return 'png';
  if (['GIF87a', 'GIF89a'].includes(ascii(bytes, 0, 6))) return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (isHeif(bytes)) return 'heif';
  return null;
}

/** A name for what a picture not read looks like, for the report. */
export function unreadFormatName(bytes: Buffer): string {
  const start = ascii(bytes, 0, 256)
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
    .trimStart();
  if (start.startsWith('<')) return /<svg[\s>]/i.test(ascii(bytes, 0, 4096)) ? 'svg' : 'markup';
  const magic = ascii(bytes, 0, 4);
  if (magic === 'II*\0' || magic === 'MM\0*') return 'tiff';
  return 'unknown';
}

/**
 * How many scans a JPEG holds, counted up to `limit + 1`: each start-of-scan marker (FF DA; in
 * the compressed data a byte FF is always followed by 00 or a restart marker, so the count is not
 * fooled by it, and one in an embedded thumbnail only adds to it). A progressive JPEG repeating
 * one scan 20,000 times in 624 KB took 18-21 s of CPU to decode, and a stop waited for it
 * (review); libjpeg writes about 10.
 */
export function jpegScans(bytes: Buffer, limit: number): number {
  let scans = 0;
  for (let at = bytes.indexOf(0xff); at !== -1 && scans <= limit; at = bytes.indexOf(0xff, at + 1)) if (bytes[at + 1] === 0xda) scans++;
  return scans;
}
