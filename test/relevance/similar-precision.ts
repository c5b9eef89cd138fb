import { readFileSync } from 'node:fs';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';

interface SimilarJudgments {
  stop_words: string[];
  seeds: { id: number; title: string }[];
}

export function readSimilarJudgments(): SimilarJudgments {
  return JSON.parse(readFileSync(new URL('./similar.json', import.meta.url), 'utf8')) as SimilarJudgments;
}

/**
 * The rule of similar.json: a good neighbour of a seed is another wallpaper of its category that
 * shares a tag other than the category, or a content word of the title.
 */
export function goodNeighbour(judgments: SimilarJudgments, seed: WallpaperDocument, other: WallpaperDocument): boolean {
  if (other.id === seed.id || other.category !== seed.category) return false;
  const tags = new Set((seed.tags ?? []).filter((tag) => tag !== seed.category));
  if ((other.tags ?? []).some((tag) => tags.has(tag))) return true;
  const stop = new Set(judgments.stop_words);
  const words = (title: string) =>
    title
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word !== '' && !stop.has(word));
  const seedWords = new Set(words(seed.title));
  return words(other.title).some((word) => seedWords.has(word));
}
