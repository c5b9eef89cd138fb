import { componentSchema } from '../openapi/document.js';

/** `<width>x<height>` in pixels, each side 1..99999 without leading zeros (from the OpenAPI document). */
export const RESOLUTION_PATTERN = componentSchema('Resolution')['pattern'] as string;
const RESOLUTION_RE = new RegExp(RESOLUTION_PATTERN);

export interface Dimensions {
  width: number;
  height: number;
}

export function parseResolution(value: string): Dimensions | null {
  if (!RESOLUTION_RE.test(value)) return null;
  const [w, h] = value.split('x');
  return { width: Number(w), height: Number(h) };
}

/** A word of a query that is a size ("1920x1080", "1920X1080"): what it is, or null. */
export const sizeOfWord = (word: string): Dimensions | null => parseResolution(word.toLowerCase());

export function formatResolution({ width, height }: Dimensions): string {
  return `${width}x${height}`;
}
