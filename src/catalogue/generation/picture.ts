import type { Look } from './look.js';
import { Random } from './prng.js';

// The stream of a picture's shapes: apart from the wallpaper's own, so drawing never changes
// the words or numbers generated for it.
const PICTURE_STREAM = 0x70696374;

const round = (value: number) => Math.round(value * 10) / 10;

function hills(look: Look, random: Random, w: number, h: number): string {
  const sun = `<circle cx="${round(w * (0.2 + 0.6 * random.next()))}" cy="${round(h * 0.28)}" r="${round(Math.min(w, h) * 0.25)}" fill="${look.accent}"/>`;
  const points = [`0,${h}`];
  const steps = 8;
  for (let i = 0; i <= steps; i++) points.push(`${round((w * i) / steps)},${round(h * (0.58 + 0.12 * random.next()))}`);
  points.push(`${w},${h}`);
  return `${sun}<polygon points="${points.join(' ')}" fill="${look.ground}"/>`;
}

function skyline(look: Look, random: Random, w: number, h: number): string {
  const moon = `<circle cx="${round(w * (0.6 + 0.3 * random.next()))}" cy="${round(h * 0.22)}" r="${round(Math.min(w, h) * 0.24)}" fill="${look.accent}"/>`;
  const towers: string[] = [];
  let x = 0;
  while (x < w) {
    const width = w * (0.06 + 0.08 * random.next());
    const top = h * (0.4 + 0.3 * random.next());
    towers.push(`<rect x="${round(x)}" y="${round(top)}" width="${round(width + 1)}" height="${round(h - top)}" fill="${look.ground}"/>`);
    x += width;
  }
  return `${moon}<rect y="${round(h * 0.7)}" width="${w}" height="${round(h * 0.3)}" fill="${look.ground}"/>${towers.join('')}`;
}

function waves(look: Look, random: Random, w: number, h: number): string {
  const sun = `<circle cx="${round(w * (0.25 + 0.5 * random.next()))}" cy="${round(h * 0.5)}" r="${round(Math.min(w, h) * 0.25)}" fill="${look.accent}"/>`;
  const top = h * 0.55;
  const amplitude = h * 0.02;
  let path = `M0,${round(top)}`;
  for (let i = 1; i <= 6; i++)
    path += ` Q${round((w * (i - 0.5)) / 6)},${round(top + (i % 2 ? -amplitude : amplitude))} ${round((w * i) / 6)},${round(top)}`;
  return `${sun}<path d="${path} L${w},${h} L0,${h} Z" fill="${look.ground}"/>`;
}

function orbs(look: Look, random: Random, w: number, h: number): string {
  const big = Math.min(w, h);
  const planet = `<circle cx="${round(w * (0.3 + 0.4 * random.next()))}" cy="${round(h * 1.05)}" r="${round(big * 0.62)}" fill="${look.ground}"/>`;
  const moon = `<circle cx="${round(w * (0.15 + 0.7 * random.next()))}" cy="${round(h * 0.25)}" r="${round(big * 0.22)}" fill="${look.accent}"/>`;
  return planet + moon;
}

const SCENES = { hills, skyline, waves, orbs } as const;

/**
 * The demo picture of a wallpaper as SVG: its look's sky as a vertical gradient, then its scene.
 * The same id and look always draw the same picture, at any size.
 */
export function pictureSvg(id: number, look: Look, width: number, height: number): string {
  const random = new Random(PICTURE_STREAM, id);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${look.skyTop}"/>` +
    `<stop offset="1" stop-color="${look.skyBottom}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>${SCENES[look.scene](look, random, width, height)}</svg>`
  );
}
