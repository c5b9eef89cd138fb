import { componentSchema } from '../openapi/document.js';
import type { Dimensions } from './resolution.js';

export type Orientation = 'landscape' | 'portrait' | 'square';

export function orientationOf({ width, height }: Dimensions): Orientation {
  return width > height ? 'landscape' : width < height ? 'portrait' : 'square';
}

/** The nominal ratios a `ratio` filter may name, from the OpenAPI document (`Ratio`). */
export const RATIOS = componentSchema('Ratio')['enum'] as readonly string[];

/** Stored for a resolution near none of the nominal ratios: it shows in facets, no filter selects it. */
export const OTHER_RATIO = 'other';

// A resolution belongs to the nominal ratio nearest to its own, as Wallhaven groups them, if it is
// within 6 % of it: 1366x768 and 3840x2160 are 16x9, 2560x1080 and 3440x1440 are 21x9, phones of
// 1080x2340 are 9x19.5. Distances are taken on the logarithm, so 16x9 and 9x16 are symmetric.
const TOLERANCE = Math.log(1.06);

const NOMINAL = RATIOS.map((name) => {
  const [w, h] = name.split('x').map(Number) as [number, number];
  return { name, log: Math.log(w / h) };
});

export function nominalRatio({ width, height }: Dimensions): string {
  const log = Math.log(width / height);
  let best = OTHER_RATIO;
  let distance = TOLERANCE;
  for (const ratio of NOMINAL) {
    const d = Math.abs(ratio.log - log);
    if (d <= distance) {
      best = ratio.name;
      distance = d;
    }
  }
  return best;
}
