import { DEFAULT_IMAGE_SOURCE, type ImageSource } from '../pixels/fetch-image.js';
import { UsageError, callersPath, integer } from './cli-args.js';

/** How palettes are read from pictures, when they are: the options shared by import and seed. */
export interface ImageArgs extends ImageSource {
  concurrency: number;
}

export const IMAGE_OPTIONS = {
  'extract-colors': { type: 'boolean', default: false },
  'images-dir': { type: 'string' },
  'image-concurrency': { type: 'string' },
  'image-timeout-ms': { type: 'string' },
  'image-retries': { type: 'string' },
  'image-max-bytes': { type: 'string' },
} as const;

export const IMAGE_USAGE = `  --extract-colors     read each palette from the wallpaper's thumbnail (records that have none):
                       fetched over http(s), decoded and reduced to at most 6 colours; a picture
                       that cannot be read leaves its record without one, and is reported
  --images-dir DIR     read the thumbnails from DIR, at their URL's path, instead (implies --extract-colors)
  --image-concurrency N  pictures read at once (default 8)
  --image-timeout-ms T   per fetch (default ${DEFAULT_IMAGE_SOURCE.timeoutMs})
  --image-retries R      further tries after a network error, 429 or 5xx (default ${DEFAULT_IMAGE_SOURCE.retries})
  --image-max-bytes B    larger thumbnails are refused (default ${DEFAULT_IMAGE_SOURCE.maxBytes})`;

type Values = { [K in keyof typeof IMAGE_OPTIONS]?: (typeof IMAGE_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** The image options given, or null when no palette is to be read. */
export function parseImageArgs(values: Values): ImageArgs | null {
  const dir = values['images-dir'];
  if (dir === '') throw new UsageError('--images-dir needs a folder');
  if (values['extract-colors'] !== true && dir === undefined) {
    const stray = Object.keys(IMAGE_OPTIONS).find((name) => name !== 'extract-colors' && values[name as keyof Values] !== undefined);
    if (stray) throw new UsageError(`--${stray} applies only with --extract-colors`);
    return null;
  }
  return {
    ...(dir === undefined ? {} : { dir: callersPath(dir) }),
    concurrency: integer('image-concurrency', values['image-concurrency'], 8, 1, 64),
    timeoutMs: integer('image-timeout-ms', values['image-timeout-ms'], DEFAULT_IMAGE_SOURCE.timeoutMs, 100, 600_000),
    retries: integer('image-retries', values['image-retries'], DEFAULT_IMAGE_SOURCE.retries, 0, 10),
    maxBytes: integer('image-max-bytes', values['image-max-bytes'], DEFAULT_IMAGE_SOURCE.maxBytes, 1024, 1024 ** 3),
    backoffMs: DEFAULT_IMAGE_SOURCE.backoffMs,
  };
}
