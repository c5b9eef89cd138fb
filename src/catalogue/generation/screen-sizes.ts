import { weightedTable } from './prng.js';

export type ScreenKind = 'desktop' | 'ultrawide' | '4k' | '5k' | '8k' | 'phone' | 'tablet';

export interface ScreenSize {
  width: number;
  height: number;
  kind: ScreenKind;
}

// Weights roughly follow how often each display size shows up in the wild.
const SIZES: readonly (readonly [ScreenSize, number])[] = [
  [{ width: 1920, height: 1080, kind: 'desktop' }, 22],
  [{ width: 2560, height: 1440, kind: 'desktop' }, 12],
  [{ width: 1366, height: 768, kind: 'desktop' }, 5],
  [{ width: 1920, height: 1200, kind: 'desktop' }, 4],
  [{ width: 2560, height: 1600, kind: 'desktop' }, 3],
  [{ width: 2880, height: 1800, kind: 'desktop' }, 2],
  [{ width: 1440, height: 900, kind: 'desktop' }, 2],
  [{ width: 1680, height: 1050, kind: 'desktop' }, 1],
  [{ width: 2560, height: 1080, kind: 'ultrawide' }, 3],
  [{ width: 3440, height: 1440, kind: 'ultrawide' }, 4],
  [{ width: 3840, height: 1600, kind: 'ultrawide' }, 1],
  [{ width: 5120, height: 1440, kind: 'ultrawide' }, 1.5],
  [{ width: 3840, height: 2160, kind: '4k' }, 10],
  [{ width: 5120, height: 2880, kind: '5k' }, 2],
  [{ width: 7680, height: 4320, kind: '8k' }, 1],
  [{ width: 1080, height: 1920, kind: 'phone' }, 5],
  [{ width: 1080, height: 2340, kind: 'phone' }, 4],
  [{ width: 1080, height: 2400, kind: 'phone' }, 4],
  [{ width: 1170, height: 2532, kind: 'phone' }, 4],
  [{ width: 1179, height: 2556, kind: 'phone' }, 3],
  [{ width: 1284, height: 2778, kind: 'phone' }, 2],
  [{ width: 1290, height: 2796, kind: 'phone' }, 3],
  [{ width: 1440, height: 3200, kind: 'phone' }, 2],
  [{ width: 1440, height: 3088, kind: 'phone' }, 1],
  [{ width: 2048, height: 2732, kind: 'tablet' }, 1],
  [{ width: 1640, height: 2360, kind: 'tablet' }, 1],
];

export const SCREEN_SIZES = weightedTable(SIZES);
