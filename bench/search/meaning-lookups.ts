// npx tsx bench/search/meaning-lookups.ts
// What a query's meaning costs in process, without Elasticsearch: search-mix's 2,000 queries read
// against the demo catalogue's words (its tags and category names), the first time and once
// remembered, and how many gain a meaning. Whether a word occurs is not asked (taken to occur).
import { createWordOccurrences } from '../../src/wallpapers/domain/word-occurrences.js';
import { loadConfig } from '../../src/config.js';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { createLogger } from '../../src/infra/logger.js';
import { createSearchMeaning } from '../../src/wallpapers/domain/search-meaning.js';
import { readSearchText } from '../../src/wallpapers/search-query.js';
import { buildWorkload } from '../api/workloads.js';

const config = loadConfig();
if (config.meaning.modelDir === null) throw new Error('MEANING_MODEL_DIR is off: nothing to measure');
const words = new Set<string>();
for (const wallpaper of generateWallpapers({ count: 10_000, seed: 42, imageBaseUrl: config.imageBaseUrl })) {
  words.add(wallpaper.category);
  for (const tag of wallpaper.tags ?? []) words.add(tag);
}
const meaning = createSearchMeaning({
  ...config.meaning,
  modelDir: config.meaning.modelDir,
  loadWords: () => Promise.resolve([...words]),
  refreshMs: 3_600_000,
  logger: createLogger('silent'),
  occurrences: createWordOccurrences({ wordsOccur: (asked) => Promise.resolve(asked.map(() => true)), absentMs: 1000 }),
});
await meaning.ready;
const queries = buildWorkload('search-mix', 1_000_000, 1).flatMap((request) => (request.kind === 'search' ? [request.params.q] : []));
let gained = 0;
const timed = async () => {
  const started = performance.now();
  for (const q of queries) if ((await meaning.expand(readSearchText(q))).query !== null) gained++;
  return ((performance.now() - started) * 1000) / queries.length;
};
const first = await timed();
const again = await timed();
process.stdout.write(
  `${queries.length} queries, ${gained / 2} gain a meaning; µs a query: ${first.toFixed(1)} the first time, ${again.toFixed(1)} once remembered\n`,
);
await meaning.close();
