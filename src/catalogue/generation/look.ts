import type { Category } from '../../wallpapers/categories.js';
import type { ColorShare } from '../../wallpapers/colors.js';
import type { TitleParts } from './wording.js';

/**
 * How a demo wallpaper looks, from its words: a sky in two colours (the time of day or the
 * weather its title names), a ground (its subject), an accent (its adjective, or a colour its
 * setting names) and a kind of scene (its category). The picture is drawn from it (picture.ts),
 * and so is the palette a catalogue without images carries (generatedPalette).
 */
export interface Look {
  skyTop: string;
  skyBottom: string;
  ground: string;
  accent: string;
  scene: Scene;
}

export type Scene = 'hills' | 'skyline' | 'waves' | 'orbs';

type Rule = readonly [RegExp, string];

// Earlier rules win. Each rule is tried on the lower-cased title.
const SKIES: readonly (readonly [RegExp, string, string])[] = [
  [/black and white|monochrome/, '#262626', '#d9d9d9'],
  [/in pastel|pastel/, '#f7c8d8', '#cde7f7'],
  [/golden hour|sunlit|golden/, '#d98e32', '#f6d58e'],
  [/dawn|sunrise|first light|morning/, '#f08a6c', '#ffd9a8'],
  [/dusk|sunset|twilight|burning/, '#3b2a5a', '#f27a3d'],
  [/blue hour/, '#1e3a6e', '#6a7fb8'],
  [/night|midnight|milky way|moonlit|starry|starlit|space|orbit|galaxy|nebula|neon|cyberpunk|synthwave|dark|noir/, '#070b1f', '#1f2a5a'],
  [/fog|mist|foggy|misty/, '#a7b1b7', '#d7dcde'],
  [/rain|storm|stormy|rainy/, '#47525d', '#7e8a95'],
  [/winter|snow|frozen|frosted|glacier|ice/, '#c9dff0', '#f3f7fb'],
  [/autumn|fall/, '#d9824a', '#f2c48d'],
  [/underwater|beneath the waves|under the surface|coral|reef/, '#0c4a6e', '#2aa3b8'],
];
const DAY_SKY = ['#4f97dc', '#bcdcf5'] as const;

const GROUNDS: readonly Rule[] = [
  [/cherry blossom|magnolia|peonies|orchid|lotus/, '#f2a7c3'],
  [/tulips|roses|poppies|red panda/, '#d23a32'],
  [/lavender|hydrangeas|violet|purple/, '#8f73cc'],
  [/sunflowers|daisies|citrus|pancakes/, '#f2b92e'],
  [/forest|pine|fern|bamboo|redwoods|oak|tree|grove|meadow|grass|garden|valley|hills|highlands|farm|jungle|football pitch/, '#2f6b35'],
  [/desert|dunes|sand|beach|canyon|savanna|plateau|sourdough/, '#d9b27a'],
  [
    /ocean|sea|lagoon|waves|wave|lake|fjord|river|creek|waterfall|whale|turtle|surf|shoreline|canal|harbour|waterfront|island|boat|jellyfish/,
    '#1b5e8c',
  ],
  [/glacier|tundra|snow|ski|ice/, '#e6edf2'],
  [/mountain|cliffs|volcano|rock|castle|ruins|citadel|stack|climber/, '#57525e'],
  [/coffee|vinyl|guitar|violin|piano|library|wooden|cassette/, '#5a3a22'],
  [/nebula|galaxy|aurora|portal|wizard/, '#5b2a86'],
  [/planet|exoplanet|comet|asteroid|moon|eclipse/, '#b9653a'],
  [/circuit|microchip|motherboard|server|terminal|code|data|neural|fibre/, '#0f3b2e'],
];

const ACCENTS: readonly Rule[] = [
  [/neon|cyberpunk|synthwave|electric|holographic/, '#ff2bd6'],
  [/orange and teal/, '#1f9e9e'],
  [/golden|rose gold|sunflower/, '#e5a832'],
  [/red|burning|fierce|spicy|poppies|roses/, '#d42a2a'],
  [/midnight blue|deep blue|blue|navy/, '#2a5bd7'],
  [/turquoise|tropical|lagoon|aurora/, '#2ec4c4'],
  [/pink|cherry|blossom|pastel|macarons/, '#f4a6c6'],
  [/violet|purple|lavender|mystic|enchanted/, '#7b3fb5'],
  [/green light|lush|mossy|spring|fern/, '#3f9f3a'],
  [/autumn|rustic|retro|warm/, '#c8642a'],
  [/black|noir|dark|on slate|monochrome|matte/, '#141414'],
  [/white|snowy|frosted|marble|silver|chrome|crystal|clean|pale/, '#eef1f4'],
  [/moon|star|lighthouse|sun|glowing/, '#fff2b3'],
];

const CATEGORY_LOOK: Readonly<Record<Category, { ground: string; accent: string; scene: Scene }>> = {
  nature: { ground: '#2f6b35', accent: '#fff2b3', scene: 'hills' },
  landscapes: { ground: '#6b5e4b', accent: '#fff2b3', scene: 'hills' },
  space: { ground: '#1b1433', accent: '#f4f1ff', scene: 'orbs' },
  anime: { ground: '#e98aa8', accent: '#fff2b3', scene: 'skyline' },
  abstract: { ground: '#7b3fb5', accent: '#f2b92e', scene: 'orbs' },
  cars: { ground: '#2b2f3a', accent: '#d42a2a', scene: 'skyline' },
  cityscapes: { ground: '#2b2f3a', accent: '#f2c14e', scene: 'skyline' },
  animals: { ground: '#6b8e3a', accent: '#c8642a', scene: 'hills' },
  minimalist: { ground: '#e8e2d6', accent: '#2b2f3a', scene: 'orbs' },
  fantasy: { ground: '#3d2f5c', accent: '#e5a832', scene: 'hills' },
  games: { ground: '#23304a', accent: '#39d353', scene: 'skyline' },
  ocean: { ground: '#1b5e8c', accent: '#f2e6c9', scene: 'waves' },
  architecture: { ground: '#8a8580', accent: '#e8e2d6', scene: 'skyline' },
  flowers: { ground: '#3f8f3a', accent: '#f4a6c6', scene: 'hills' },
  technology: { ground: '#0f1b2d', accent: '#00e5ff', scene: 'skyline' },
  movies: { ground: '#1c1c24', accent: '#e5a832', scene: 'skyline' },
  music: { ground: '#22162e', accent: '#ff2bd6', scene: 'orbs' },
  sports: { ground: '#2f7a3a', accent: '#f2f2f2', scene: 'hills' },
  food: { ground: '#7a4a2a', accent: '#f2b92e', scene: 'orbs' },
};

const firstMatch = (rules: readonly Rule[], text: string): string | undefined => rules.find(([pattern]) => pattern.test(text))?.[1];

export function lookOf(category: Category, { adjective, subject, setting }: TitleParts): Look {
  const title = [adjective, subject, setting]
    .filter((part) => part !== null)
    .join(' ')
    .toLowerCase();
  const byCategory = CATEGORY_LOOK[category];
  if (!byCategory) throw new Error(`no look for category '${category}'`);
  const sky = SKIES.find(([pattern]) => pattern.test(title));
  const [skyTop, skyBottom] = sky ? [sky[1], sky[2]] : category === 'space' ? ['#070b1f', '#1f2a5a'] : DAY_SKY;
  const ground = firstMatch(GROUNDS, subject.toLowerCase()) ?? firstMatch(GROUNDS, title) ?? byCategory.ground;
  const accent = firstMatch(ACCENTS, `${adjective ?? ''} ${setting ?? ''}`.toLowerCase()) ?? byCategory.accent;
  return { skyTop, skyBottom, ground, accent, scene: byCategory.scene };
}

// How much of a picture each part covers, roughly, as picture.ts draws it: the two halves of the
// sky's gradient, the ground, the accent.
const COVER = { skyTop: 0.3, skyBottom: 0.25, ground: 0.35, accent: 0.1 } as const;

/** The palette of a catalogue without images: the look's colours and the areas they roughly cover. */
export function generatedPalette(look: Look): ColorShare[] {
  const shares = new Map<string, number>();
  for (const part of ['skyTop', 'skyBottom', 'ground', 'accent'] as const) {
    shares.set(look[part], (shares.get(look[part]) ?? 0) + COVER[part]);
  }
  return [...shares]
    .map(([hex, share]) => ({ hex, share: Math.round(share * 1000) / 1000 }))
    .sort((a, b) => b.share - a.share || (a.hex < b.hex ? -1 : 1));
}
