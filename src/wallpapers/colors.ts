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
 * same. The index tests both on cells of CIELAB (see cellsNear).
 */
export interface Closeness {
  lightness: number;
  chroma: number;
}

export const MIN_SHARE = 0.05;

/**
 * How large a colour is, in the steps a relevance sort tells apart: a colour (or a name, by what
 * all its colours cover) is also indexed as `key@percent` (tierTerm) for the largest tier above
 * MIN_SHARE it reaches, so ranking by size is a handful of term queries rather than numbers kept
 * per colour.
 */
export const SHARE_TIERS: readonly number[] = [MIN_SHARE, 0.15, 0.3, 0.5];

export function tierTerm(key: string, tier: number): string {
  return `${key}@${Math.round(tier * 100)}`;
}

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

/**
 * Where a colour lies, as the index keeps it: CIELAB cells of CELL units a side in L*, a* and b*
 * (the cell's id is its three indices, "13,-4,7"), so "near this hex" is one terms query on cell
 * ids and costs the index one keyword per colour (per-colour points and ranges cost Elasticsearch
 * 30 % more work per record to index: bench/results/descriptions).
 */
export const CELL = 5;

/** What a load needs to know of a palette colour, worked out once per hex. */
export interface ColorFacts {
  lab: Readonly<Lab>;
  names: readonly string[];
  cell: string;
}

// A load reads every palette colour several times (tone, names, cells), and palettes repeat
// colours: what a hex gives is remembered, up to FACTS_MEMO hexes at a time (16.7M exist).
const FACTS_MEMO = 65_536;
const facts = new Map<string, ColorFacts>();

export function colorFacts(hex: string): ColorFacts {
  let known = facts.get(hex);
  if (known === undefined) {
    const converted = toLab65(hex);
    if (converted === undefined) throw new RangeError(`not a colour: ${hex}`);
    const lab = Object.freeze({ l: converted.l, a: converted.a, b: converted.b });
    if (facts.size >= FACTS_MEMO) facts.clear();
    known = Object.freeze({ lab, names: Object.freeze(namesOf(lab)), cell: cellOf(lab) });
    facts.set(hex, known);
  }
  return known;
}

export function hexToLab(hex: string): Readonly<Lab> {
  return colorFacts(hex).lab;
}

export function labToHex({ l, a, b }: Lab): string {
  return formatHex({ mode: 'lab65', l, a, b });
}

function cellIndex(value: number): number {
  return Math.floor(value / CELL);
}

function cellCentre(index: number): number {
  return (index + 0.5) * CELL;
}

export function cellOf({ l, a, b }: Lab): string {
  return `${cellIndex(l)},${cellIndex(a)},${cellIndex(b)}`;
}

/** A cell near a colour asked, and how far its centre is from it (CIELAB distance, ΔE*ab). */
export interface NearCell {
  cell: string;
  distance: number;
}

/**
 * The cells whose centre is close to `target` (HEX_CLOSENESS): a palette colour is near a hex
 * when its cell is one of these. Measured from the cell's centre, a colour up to CELL / 2 in L*
 * and CELL / √2 in a*b* past the limits can count as near, or one that far inside them not; the
 * hex asked itself always counts. About 300 cells.
 */
export function cellsNear(target: Lab, { lightness, chroma }: Closeness = HEX_CLOSENESS): NearCell[] {
  const near: NearCell[] = [];
  for (let li = cellIndex(target.l - lightness) - 1; li <= cellIndex(target.l + lightness) + 1; li++) {
    const dl = cellCentre(li) - target.l;
    if (Math.abs(dl) > lightness) continue;
    for (let ai = cellIndex(target.a - chroma) - 1; ai <= cellIndex(target.a + chroma) + 1; ai++) {
      for (let bi = cellIndex(target.b - chroma) - 1; bi <= cellIndex(target.b + chroma) + 1; bi++) {
        const plane = Math.hypot(cellCentre(ai) - target.a, cellCentre(bi) - target.b);
        if (plane <= chroma) near.push({ cell: `${li},${ai},${bi}`, distance: Math.hypot(dl, plane) });
      }
    }
  }
  return near;
}

/** The rule cellsNear lists cells by, for one colour: its cell's centre within the limits of the target. */
export function isNear(color: Lab, target: Lab, { lightness, chroma }: Closeness = HEX_CLOSENESS): boolean {
  const centre = { l: cellCentre(cellIndex(color.l)), a: cellCentre(cellIndex(color.a)), b: cellCentre(cellIndex(color.b)) };
  return Math.abs(centre.l - target.l) <= lightness && Math.hypot(centre.a - target.a, centre.b - target.b) <= chroma;
}

/** The named colours a palette shows: those of its colours that cover MIN_SHARE or more. */
export function colorNamesOf(palette: readonly ColorShare[]): string[] {
  const shown = new Set(palette.filter(({ share }) => share >= MIN_SHARE).flatMap(({ hex }) => colorFacts(hex).names));
  return COLOR_NAMES.filter((name) => shown.has(name));
}

// Light when the palette's lightness, weighted by share, is above the middle of L*'s scale. A
// dark picture with a white moon stays dark; a beach under a pale sky is light.
const LIGHT_FROM = 50;

/** Light or dark, from the palette; null without one. */
export function toneOf(palette: readonly ColorShare[]): Tone | null {
  const covered = palette.reduce((sum, { share }) => sum + share, 0);
  if (palette.length === 0 || covered <= 0) return null;
  return toneFromLightness(palette.reduce((sum, { hex, share }) => sum + hexToLab(hex).l * share, 0) / covered);
}

/** The tone of a palette whose lightness, weighted by share, is `lightness`. */
export function toneFromLightness(lightness: number): Tone {
  return lightness >= LIGHT_FROM ? 'light' : 'dark';
}

// Words that say a picture is dark: that name the tone, whatever the picture shows (an AMOLED
// wallpaper is black for the screens that light no black pixel), and that name what has it (a
// night scene), and "black", a colour of its own, which a picture's palette may not hold where the
// picture is black (none of the demo catalogue's kittens holds it, five are dark) and which ranks
// the dark pictures as a night does. No word says light as surely: "light" and "bright" name the light in a picture as
// often ("northern lights", "light rays", "bright stars" over a dark sky), and "white" and
// "pastel" are colours of their own.
const NAMING_DARK: ReadonlySet<string> = new Set(['dark', 'darker', 'darkest', 'darkness', 'amoled']);
const IMPLYING_DARK: ReadonlySet<string> = new Set(['night', 'nights', 'nighttime', 'midnight', 'black']);

/** A word's tone, and whether the word names it (`dark`) or names what has it (`night`). */
export interface ToneOfWord {
  tone: Tone;
  named: boolean;
}

/** The tone a word of a query says its picture has ("dark", "night"), or null. */
export function toneOfWord(word: string): ToneOfWord | null {
  const lower = word.toLowerCase();
  if (NAMING_DARK.has(lower)) return { tone: 'dark', named: true };
  return IMPLYING_DARK.has(lower) ? { tone: 'dark', named: false } : null;
}

/** A `color` value as the client wrote it: a name (or alias), or a hex with or without '#'. */
export type ColorAsked = { name: string } | { hex: string; lab: Lab };

/** The named colour a word of a query is ("Yellow", "grey"), or null. */
export function colorNameOfWord(word: string): string | null {
  const lower = word.toLowerCase();
  const name = Object.hasOwn(COLOR_ALIASES, lower) ? COLOR_ALIASES[lower]! : lower;
  return Object.hasOwn(NAMED_COLORS, name) ? name : null;
}

export function readColor(value: string): ColorAsked {
  // Own properties only: "constructor" is every object's.
  const name = colorNameOfWord(value);
  if (name !== null) return { name };
  const lower = value.toLowerCase();
  const hex = lower.startsWith('#') ? lower : `#${lower}`;
  if (!HEX_COLOR.test(hex)) throw new RangeError(`not a colour: ${value}`);
  return { hex, lab: hexToLab(hex) };
}
