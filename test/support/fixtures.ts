import type { Quota } from '../../src/access/quota.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { parseResolution } from '../../src/wallpapers/resolution.js';

export const FIXTURE_CATEGORIES = ['nature', 'space', 'cityscapes', 'animals', 'ocean'] as const;
export const FIXTURE_RESOLUTIONS = ['1920x1080', '3840x2160', '1080x2340'] as const;

const FILLER_TITLES = ['Calm Meadow', 'Golden Field', 'Quiet Street', 'Sleepy Fox', 'Rolling Waves', 'Red Planet'];

// Documents with hand-picked text for relevance and typo assertions.
const SPECIAL: Record<number, Pick<WallpaperDocument, 'title' | 'description'>> = {
  7: { title: 'Aurora Borealis over Frozen Lake', description: 'Green lights dance above the ice.' },
  8: { title: 'Northern Cabin', description: 'A log cabin under a faint aurora on a winter night.' },
  13: { title: 'Lighthouse Harbor', description: 'Boats resting in a calm bay.' },
  14: { title: 'Lighthouse Harbor', description: 'Boats resting in a calm bay.' },
  21: { title: 'Crab Nebula', description: 'Supernova remnant glowing in deep space.' },
};

/** 60 wallpapers with known categories, resolutions, ties in created_at and search targets. */
export function fixtureWallpapers(): WallpaperDocument[] {
  const docs: WallpaperDocument[] = [];
  for (let id = 1; id <= 60; id++) {
    const resolution = FIXTURE_RESOLUTIONS[id % 3]!;
    const { width, height } = parseResolution(resolution)!;
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(id / 2) * 86_400_000);
    const text = SPECIAL[id] ?? {
      title: `${FILLER_TITLES[id % FILLER_TITLES.length]} ${id}`,
      description: 'A simple picture for the desktop.',
    };
    docs.push({
      id,
      ...text,
      url: `https://images.test.example/full/${id}.jpg`,
      thumbnail: `https://images.test.example/thumb/${id}.jpg`,
      resolution,
      width,
      height,
      category: FIXTURE_CATEGORIES[id % FIXTURE_CATEGORIES.length]!,
      downloads: id === 14 ? 9000 : id === 13 ? 10 : ((id * 37) % 100) * 10,
      created_at: day.toISOString().replace('.000Z', 'Z'),
    });
  }
  return docs;
}

/** The documented list order, computed independently of Elasticsearch. */
export function byNewestThenId(a: WallpaperDocument, b: WallpaperDocument): number {
  return b.created_at.localeCompare(a.created_at) || b.id - a.id;
}

/** A free-tier quota 42 s from its reset, with what a test overrides. */
export const quotaFixture = (over: Partial<Quota> = {}): Quota => ({
  tier: 'free',
  limit: 1000,
  remaining: 0,
  windowSeconds: 3600,
  nowMs: 1_700_000_000_250,
  resetMs: 1_700_000_042_100,
  ...over,
});
