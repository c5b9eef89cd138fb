import { converter, formatHex } from 'culori';

/** One colour of a wallpaper's palette and the share of its pixels it covers. */
export interface ColorShare {
  hex: string;
  share: number;
}

export type Tone = 'light' | 'dark';

/** A colour in CIELAB (D65): L* lightness 0–100, a* green–red, b* blue–yellow. */
export interface Lab {
  l: number;
  a: number;
  b: number;
}

export const MAX_COLORS = 6;
export const HEX_COLOR = /^#[0-9a-f]{6}$/;

/**
 * When a palette colour counts as close to a hex asked for: it covers at least MIN_SHARE of the
 * picture, its lightness is within `lightness` of the colour asked and its hue and chroma (the a*b*
 * plane) within `chroma`. Lightness and chroma have tolerances of their own, as in CIE94 and CMC, because
 * people call a dark and a light blue both "blue" long before they call a blue and a purple the
 * same. Elasticsearch tests both exactly (a range on L*, a distance on a*b*: see build-queries).
 */
export interface Closeness {
  lightness: number;
  chroma: number;
}

export const MIN_SHARE = 0.05;

/** Around a hex asked for: about the difference between two shades people still call the same colour. */
export const HEX_CLOSENESS: Closeness = { lightness: 15, chroma: 20 };

/**
 * A named colour is a region of CIELAB in lightness L*, chroma C* (distance from grey) and hue
 * angle h (degrees, 0 = red, 90 = yellow, 180 = green-cyan, 270 = blue), as people name colours
 * by hue first: navy, royal blue and sky blue are all blue. Regions may overlap (coral is red and
 * orange). `hex` is a typical member, for documentation and tests.
 */
export interface NamedColor {
  hex: string;
  /** Hue range [from, to), wrapping through 0 when from > to. */
  hue?: readonly [number, number];
  minChroma?: number;
  maxChroma?: number;
  minLightness?: number;
  maxLightness?: number;
}

// Checked against the CSS colour names in test/unit/wallpapers/colors.test.ts.
export const NAMED_COLORS: Readonly<Record<string, NamedColor>> = {
  black: { hex: '#0a0a0a', maxLightness: 20, maxChroma: 20 },
  white: { hex: '#f7f7f7', minLightness: 90, maxChroma: 12 },
  gray: { hex: '#808080', minLightness: 20, maxLightness: 90, maxChroma: 14 },
  red: { hex: '#c62828', hue: [355, 45], minChroma: 25 },
  orange: { hex: '#f08a24', hue: [45, 80], minChroma: 25, minLightness: 50 },
  yellow: { hex: '#f2d338', hue: [80, 110], minChroma: 25, minLightness: 60 },
  green: { hex: '#3c9a3c', hue: [110, 170], minChroma: 20 },
  teal: { hex: '#138a8a', hue: [170, 225], minChroma: 15 },
  blue: { hex: '#2a5bd7', hue: [225, 310], minChroma: 15 },
  purple: { hex: '#7b3fb5', hue: [310, 345], minChroma: 20 },
  pink: { hex: '#f08cbf', hue: [335, 20], minChroma: 15, minLightness: 55 },
  brown: { hex: '#8b5a2b', hue: [20, 90], minChroma: 12, maxChroma: 60, maxLightness: 50 },
};

// Olive is a dark yellow by hue, and people call it green.
const OLIVE: NamedColor = { hex: '#808000', hue: [90, 110], minChroma: 20, maxLightness: 60 };

function inHue(h: number, [from, to]: readonly [number, number]): boolean {
  return from <= to ? h >= from && h < to : h >= from || h < to;
}

function inRegion({ l, a, b }: Lab, region: NamedColor): boolean {
  const chroma = Math.hypot(a, b);
  const hue = ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
  return (
    (region.hue === undefined || inHue(hue, region.hue)) &&
    chroma >= (region.minChroma ?? 0) &&
    chroma < (region.maxChroma ?? Infinity) &&
    l >= (region.minLightness ?? 0) &&
    l < (region.maxLightness ?? Infinity)
  );
}

/** The names a colour goes by. */
export function namesOf(lab: Lab): string[] {
  const names = COLOR_NAMES.filter((name) => inRegion(lab, NAMED_COLORS[name]!));
  if (!names.includes('green') && inRegion(lab, OLIVE)) names.push('green');
  return names;
}

export const COLOR_NAMES = Object.keys(NAMED_COLORS);
/** Spellings the parameter also takes. */
export const COLOR_ALIASES: Readonly<Record<string, string>> = { grey: 'gray' };

const toLab65 = converter('lab65');

// A load converts every palette colour three times (tone, names, slots), and palettes repeat
// colours: conversions are remembered, up to LAB_MEMO entries at a time (16.7M hexes exist).
const LAB_MEMO = 65_536;
const labs = new Map<string, Readonly<Lab>>();

export function hexToLab(hex: string): Readonly<Lab> {
  let lab = labs.get(hex);
  if (lab === undefined) {
    const converted = toLab65(hex);
    if (converted === undefined) throw new RangeError(`not a colour: ${hex}`);
    if (labs.size >= LAB_MEMO) labs.clear();
    lab = Object.freeze({ l: converted.l, a: converted.a, b: converted.b });
    labs.set(hex, lab);
  }
  return lab;
}

export function labToHex({ l, a, b }: Lab): string {
  return formatHex({ mode: 'lab65', l, a, b });
}

export function isClose(color: Lab, target: Lab, { lightness, chroma }: Closeness = HEX_CLOSENESS): boolean {
  return Math.abs(color.l - target.l) <= lightness && Math.hypot(color.a - target.a, color.b - target.b) <= chroma;
}

/** The named colours a palette shows: those of its colours that cover MIN_SHARE or more. */
export function colorNamesOf(palette: readonly ColorShare[]): string[] {
  const shown = new Set(palette.filter(({ share }) => share >= MIN_SHARE).flatMap(({ hex }) => namesOf(hexToLab(hex))));
  return COLOR_NAMES.filter((name) => shown.has(name));
}

// Light when the palette's lightness, weighted by share, is above the middle of L*'s scale. A
// dark picture with a white moon stays dark; a beach under a pale sky is light.
const LIGHT_FROM = 50;

/** Light or dark, from the palette; null without one. */
export function toneOf(palette: readonly ColorShare[]): Tone | null {
  const covered = palette.reduce((sum, { share }) => sum + share, 0);
  if (palette.length === 0 || covered <= 0) return null;
  const lightness = palette.reduce((sum, { hex, share }) => sum + hexToLab(hex).l * share, 0) / covered;
  return lightness >= LIGHT_FROM ? 'light' : 'dark';
}

/** A `color` value as the client wrote it: a name (or alias), or a hex with or without '#'. */
export type ColorAsked = { name: string } | { hex: string; lab: Lab };

export function readColor(value: string): ColorAsked {
  const lower = value.toLowerCase();
  const name = COLOR_ALIASES[lower] ?? lower;
  if (NAMED_COLORS[name]) return { name };
  const hex = lower.startsWith('#') ? lower : `#${lower}`;
  if (!HEX_COLOR.test(hex)) throw new RangeError(`not a colour: ${value}`);
  return { hex, lab: hexToLab(hex) };
}

// The a*b* plane is stored as a geo_point, the one two-dimensional point type every distribution of
// Elasticsearch indexes and measures distances on (no scripts needed): a* and b* become latitude and
// longitude in thousandths of a degree, where the sphere is flat to one part in a million, and a
// distance of one unit in the plane is AB_UNIT_METRES on it (Elasticsearch's mean Earth radius).
const AB_DEGREES_PER_UNIT = 0.001;
const EARTH_RADIUS_METRES = 6_371_008.7714;
export const AB_UNIT_METRES = (Math.PI / 180) * EARTH_RADIUS_METRES * AB_DEGREES_PER_UNIT;

export function abPoint({ a, b }: Lab): { lat: number; lon: number } {
  return { lat: a * AB_DEGREES_PER_UNIT, lon: b * AB_DEGREES_PER_UNIT };
}
