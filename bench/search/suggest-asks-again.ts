// Suggestions timed against the build before: every request now checks whether its titles made
// distinct fell short while a suggester answered all it was asked, and asks again for more when they
// did (es-repository.ts). On a catalogue as loaded the first ask suffices, so this times that check.
// The suggester's answers are cacheable by Elasticsearch's request cache (size 0): turn it off on
// the index first (index.requests.cache.enable: false), or the second build to ask is answered from it.
// Prefixes come from the catalogue's titles. See side-by-side.ts for how to run it.
import { compareBuilds } from './side-by-side.js';

const prefixes = (length: number) =>
  [
    'mountain',
    'sunset',
    'harbour',
    'nebula',
    'forest',
    'lighthouse',
    'electric',
    'ocean',
    'golden',
    'canyon',
    'desert',
    'aurora',
    'misty',
    'crystal',
    'village',
    'garden',
  ].map((word) => word.slice(0, length));

// Most of a title typed: few titles complete it, so the slots the options took are counted.
const mostOfTitles = [
  'foggy redw',
  'pine forest at d',
  'bird on s',
  'endless sea tur',
  'creek in the r',
  'smoky saxophone on',
  'lush redwoods at fir',
  'dark boss f',
  'elven temple beyond',
  'vivid sunflowers in',
  'silent black hole fr',
  'hummingbird in tall',
  'pixel me',
  'old intersec',
  'open-world controller',
  'sleepy classr',
];

await compareBuilds(
  {
    'two letters': prefixes(2),
    'three letters': prefixes(3),
    'five letters (typos asked too)': prefixes(5),
    'most of a title (few complete it)': mostOfTitles,
  },
  Number(process.argv[2] ?? 2),
  (q) => `/v1/search/suggest?q=${encodeURIComponent(q)}&limit=10`,
);
