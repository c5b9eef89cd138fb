// npx tsx bench/search/real-word-typos.ts [--alias wallpapers] [query ...]
// For each real word of each query that no wallpaper matches as typed, the neighbour a search
// would weigh it against (domain/real-word-typos.ts) and its margin: whether the word would be read
// as a typo (margin >= MISSPELT_MARGIN). Then what the weighing costs: the first time (neighbours
// found, Elasticsearch asked whether they occur, words embedded) and once remembered.
// Needs the local stack and the model (scripts/fetch-model.sh); reads the catalogue under --alias.
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { loadConfig } from '../../src/config.js';
import { loadSentenceModel } from '../../src/infra/sentence-model.js';
import { memoisedVectors } from '../../src/infra/nearest-words.js';
import { loadWordClasses } from '../../src/infra/word-classes.js';
import { MISSPELT_MARGIN, createWeighing } from '../../src/wallpapers/domain/real-word-typos.js';
import { createWordOccurrences } from '../../src/wallpapers/domain/word-occurrences.js';
import { wordsOccur } from '../../src/wallpapers/store/word-occurrence.js';
import { typoWords } from '../../src/wallpapers/store/build-queries.js';
import { loadCatalogueWords } from '../../src/wallpapers/store/catalogue-words.js';
import { readSearchText } from '../../src/wallpapers/search-query.js';

// Typed for another word (the first group), then meant as typed, one edit from a catalogue word.
const QUERIES = [
  ...['dessert dunes', 'dear forest', 'dear in the grass', 'mountain peek', 'rose pedals'],
  ...['roof city', 'dark roof', 'autumn latte', 'lost bridge', 'lost city', 'lovely bridge', 'shop sunset', 'alone night', 'love in the rain'],
  // Meant as typed, found by helper-79 reading as typos at the first margin, 0.15.
  ...['lovely rain', 'lovely street', 'rare car', 'holy space', 'really street', 'autumn story'],
];

const { values, positionals } = parseArgs({ options: { alias: { type: 'string', default: 'wallpapers' } }, allowPositionals: true });
const config = loadConfig();
if (config.meaning.modelDir === null) throw new Error('MEANING_MODEL_DIR is off: nothing to measure');
const es = new Client({ node: config.elasticsearchUrl });
const [model, language] = await Promise.all([loadSentenceModel(config.meaning.modelDir), loadWordClasses()]);
const occurrences = createWordOccurrences({ wordsOccur: (words, timeoutMs) => wordsOccur(es, values.alias, words, timeoutMs), absentMs: 60_000 });
const catalogue = await loadCatalogueWords(es, values.alias);
const weigh = createWeighing({ words: model.words, catalogueWords: () => catalogue, vectorOf: memoisedVectors(model), occurrences });

const rows: string[] = [];
const firstMs: number[] = [];
const againUs: number[] = [];
for (const q of positionals.length > 0 ? positionals : QUERIES) {
  const text = readSearchText(q);
  const candidates = typoWords(text).filter((word) => language.knows(word));
  const answers = await occurrences.of(candidates);
  for (const word of candidates.filter((_, i) => answers[i] === false)) {
    let started = performance.now();
    const weighed = await weigh(text, word);
    firstMs.push(performance.now() - started);
    started = performance.now();
    for (let i = 0; i < 100; i++) await weigh(text, word);
    againUs.push(((performance.now() - started) * 1000) / 100);
    const margin = weighed === null ? '–' : weighed.margin.toFixed(2);
    const read = weighed !== null && weighed.margin >= MISSPELT_MARGIN ? `typo of ${weighed.meant}` : 'as typed';
    rows.push(`| ${q} | ${word} | ${weighed?.meant ?? '–'} | ${margin} | ${read} |`);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
process.stdout.write(
  [
    `Catalogue \`${values.alias}\`, margin ${MISSPELT_MARGIN}:`,
    '',
    '| query | real word the catalogue lacks | best neighbour that occurs | margin | read |',
    '|---|---|---|--:|---|',
    ...rows,
    '',
    `Weighing a word: median ${median(firstMs).toFixed(1)} ms the first time (max ${Math.max(...firstMs).toFixed(1)}), ` +
      `${median(againUs).toFixed(0)} µs once remembered.`,
    '',
  ].join('\n'),
);
await model.close();
await es.close();
