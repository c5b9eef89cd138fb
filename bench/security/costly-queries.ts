// The most expensive `q` we can find, against a normal one, and what a flood of it from one key
// does to other keys' searches.
//
//   npx tsx bench/security/costly-queries.ts [--alias wallpapers] [--candidates 400] [--compare <git ref>]
//
// A random search over the shapes a query can take within the contract's caps (200 characters,
// 32 words): long single tokens in many scripts, many words, phrases, OR lists, exclusions and
// mixtures. Each candidate is asked once; the 12 slowest are asked 7 more times, with fresh text of
// the same shape and size, and ranked by median. With --compare, the same candidates are asked of
// that build too, one build after the other.
import { createKeyStore } from '../../src/access/store/key-store.js';
import { createRedis } from '../../src/infra/redis.js';
import { type Running, startApi } from '../api/processes.js';
import { median } from '../api/ab-stats.js';
import { buildCompareTree } from '../api/compare-tree.js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    alias: { type: 'string', default: 'wallpapers' },
    candidates: { type: 'string', default: '400' },
    compare: { type: 'string' },
    seed: { type: 'string', default: '7' },
    flood: { type: 'string', default: '4' },
  },
});
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

let state = Number(values.seed);
const random = () => {
  state = (state * 1103515245 + 12345) % 2 ** 31;
  return state / 2 ** 31;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

const SCRIPTS: Record<string, [number, number]> = {
  latin: [0x61, 0x7a],
  greek: [0x3b1, 0x3c9],
  cyrillic: [0x430, 0x44f],
  hangul: [0xac00, 0xd7a3],
  han: [0x4e00, 0x9fff],
  arabic: [0x627, 0x64a],
  thai: [0xe01, 0xe2e],
  devanagari: [0x915, 0x939],
  digits: [0x30, 0x39],
};
const letter = (script: string) => {
  const [lo, hi] = SCRIPTS[script]!;
  return String.fromCodePoint(int(lo, hi));
};
const word = (script: string, length: number) => Array.from({ length }, () => letter(script)).join('');
const mixedWord = (length: number) => Array.from({ length }, () => letter(pick(Object.keys(SCRIPTS)))).join('');
const CATALOGUE_WORDS = ['mountain', 'sunset', 'ocean', 'forest', 'city', 'neon', 'galaxy', 'harbour', 'misty', 'golden', 'aurora', 'desert'];
// What follows this in a candidate is the rest of its request (parameters beside q), kept whole.
const EXTRA = '\u0000';
const within = (asked: string) => {
  const [q, params] = asked.split(EXTRA);
  return [...q!].slice(0, 200).join('').trim() + (params === undefined ? '' : `${EXTRA}${params}`);
};
// Everyday things the catalogue has no word for: misspelt, each goes through the spelling guesses
// and the sentence model rather than the catalogue's own words (helper-132).
const ELSEWHERE_WORDS = ['umbrella', 'telephone', 'bicycle', 'hammer', 'scissors', 'kettle', 'lantern', 'pillow', 'blanket', 'table', 'chair', 'window', 'bottle', 'pencil', 'basket', 'ladder', 'mirror', 'candle', 'wallet', 'helmet']; // prettier-ignore
const SIZES = ['1920x1080', '2560x1440', '3840x2160', '1280x720', '1080x1920', '3440x1440', '1366x768', '2880x1800'];
const COLOUR_WORDS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'teal', 'brown', 'black', 'white', 'gray'];
const misspelt = (w: string) => {
  const i = int(0, w.length - 1);
  return w.slice(0, i) + letter('latin') + w.slice(i + 1);
};
// The most a search may ask beside its words: every facet, every include, a page of 100, five colours.
const hexColour = () => Array.from({ length: 6 }, () => '0123456789abcdef'[int(0, 15)]).join('');
const EVERYTHING = () =>
  `&per_page=100&facets=category,resolution,orientation,ratio,tags,color,tone&include=tags,colors,dimensions&color=${Array.from({ length: 5 }, hexColour).join(',')}`;
const wordsOfElsewhere = () =>
  [
    ...Array.from({ length: 4 }, () => misspelt(pick(ELSEWHERE_WORDS))),
    ...Array.from({ length: 8 }, () => pick(SIZES)),
    ...Array.from({ length: 12 }, () => pick(COLOUR_WORDS)),
    ...Array.from({ length: 8 }, () => misspelt(pick(ELSEWHERE_WORDS))),
  ].join(' ');

/**
 * Each shape picks its sizes and scripts once (a candidate) and then makes fresh text on every
 * call: Elasticsearch's request cache answers a repeated query for nothing, so every asking must
 * be new for its time to be the query's cost. Every text is inside the contract's caps.
 */
const SHAPES: Record<string, () => () => string> = {
  'long token': () => {
    const [script, length] = [pick(Object.keys(SCRIPTS)), int(20, 199)];
    return () => word(script, length);
  },
  'long mixed-script token': () => {
    const length = int(20, 199);
    return () => mixedWord(length);
  },
  'many words': () => {
    const [count, script, length] = [int(8, 32), pick(Object.keys(SCRIPTS)), int(3, 9)];
    return () => Array.from({ length: count }, () => word(script, length)).join(' ');
  },
  'many long words': () => {
    const [count, script, length] = [int(4, 12), pick(['latin', 'greek', 'cyrillic', 'hangul']), int(10, 30)];
    return () => Array.from({ length: count }, () => word(script, length)).join(' ');
  },
  'many typos of real words': () => {
    const count = int(8, 32);
    return () =>
      Array.from({ length: count }, () => {
        const w = pick(CATALOGUE_WORDS);
        const i = int(0, w.length - 1);
        return w.slice(0, i) + letter('latin') + w.slice(i + 1);
      }).join(' ');
  },
  phrases: () => {
    const count = int(2, 10);
    return () => Array.from({ length: count }, () => `"${Array.from({ length: int(2, 5) }, () => pick(CATALOGUE_WORDS)).join(' ')}"`).join(' ');
  },
  'OR lists': () => {
    const [count, script, length] = [int(4, 32), pick(['latin', 'hangul', 'greek']), int(4, 12)];
    return () => Array.from({ length: count }, () => word(script, length)).join(' OR ');
  },
  'typos of words the catalogue lacks': () => {
    const count = int(4, 32);
    return () => Array.from({ length: count }, () => misspelt(pick(ELSEWHERE_WORDS))).join(' ');
  },
  'typos the catalogue lacks, sizes and colours': () => wordsOfElsewhere,
  'the same with every facet, include and a page of 100': () => () => `${wordsOfElsewhere()}${EXTRA}${EVERYTHING()}`,
  exclusions: () => {
    const count = int(4, 30);
    return () => `${pick(CATALOGUE_WORDS)} ${Array.from({ length: count }, () => `-${word('latin', int(4, 10))}`).join(' ')}`;
  },
};
// Two words of the catalogue and a page: what people ask, each asking new to the request cache.
const normal = () => `${pick(CATALOGUE_WORDS)} ${pick(CATALOGUE_WORDS)}`;
const NORMAL = ['mountain sunset', 'neon city', 'misty forest lake', 'golden harbour', 'aurora -snow', '"ocean waves"'];

async function ask(api: Running, key: string, asked: string): Promise<{ ms: number; status: number }> {
  const [q, params = '&per_page=20'] = asked.split(EXTRA);
  const started = performance.now();
  const res = await fetch(`${api.url}/v1/search?q=${encodeURIComponent(q!)}${params}`, { headers: { Authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

async function medianOf(api: Running, key: string, make: () => string, times: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) ms.push((await ask(api, key, within(make()))).ms);
  return median(ms);
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/** Other keys' sequential searches for `ms`, with or without `flooders` loops of `q` from one key. */
/** Other keys' searches one after another for `ms`, alone or beside `flooders` loops of `make` from one key. */
async function othersDuring(api: Running, keys: string[], make: (() => string) | null, flooders: number, ms: number) {
  let running = true;
  const flood = make
    ? Array.from({ length: flooders }, async () => {
        while (running) await ask(api, keys[0]!, within(make()));
      })
    : [];
  const latencies: number[] = [];
  const until = Date.now() + ms;
  let i = 0;
  while (Date.now() < until) latencies.push((await ask(api, keys[1 + (i++ % (keys.length - 1))]!, normal())).ms);
  running = false;
  await Promise.all(flood);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), n: latencies.length };
}

async function main() {
  const redis = createRedis({ url: REDIS_URL, commandTimeoutMs: 5000 });
  await new Promise((resolve) => redis.once('ready', resolve));
  const store = createKeyStore(redis);
  const keys: string[] = [];
  for (let i = 0; i < 6; i++) keys.push((await store.createKey({ tier: 'premium', account: `costly-queries-${i}` })).apiKey);
  redis.disconnect();
  const env = { RESPONSE_CACHE_MB: '0', RATE_LIMIT_TIERS: 'free:1000,premium:9999999' };
  const builds: [string, Running][] = [
    ['this build', await startApi({ cwd: process.cwd(), alias: values.alias, redisUrl: REDIS_URL, key: keys[0]!, env })],
  ];
  if (values.compare) {
    const tree = join(process.cwd(), 'bench/tmp/costly-queries-compare');
    buildCompareTree(process.cwd(), values.compare, tree);
    builds.push([`build ${values.compare}`, await startApi({ cwd: tree, alias: values.alias, redisUrl: REDIS_URL, key: keys[0]!, env })]);
  }
  try {
    const shapes = Object.keys(SHAPES);
    const candidates = Array.from({ length: Number(values.candidates) }, (_, i) => {
      const shape = shapes[i % shapes.length]!;
      return { shape, make: SHAPES[shape]!() };
    });
    for (const [name, api] of builds) {
      for (const q of NORMAL) await ask(api, keys[0]!, q);
      const normalMs = await medianOf(api, keys[0]!, normal, 40);
      const first: { shape: string; make: () => string; q: string; ms: number; status: number }[] = [];
      for (const c of candidates) {
        const q = within(c.make());
        first.push({ ...c, q, ...(await ask(api, keys[0]!, q)) });
      }
      const slowest = [...first].sort((a, b) => b.ms - a.ms).slice(0, 12);
      const ranked = [];
      for (const c of slowest) ranked.push({ ...c, median: await medianOf(api, keys[0]!, c.make, 7) });
      ranked.sort((a, b) => b.median - a.median);
      const worst = ranked[0]!;
      console.log(`\n## ${name}\n`);
      console.log(`normal queries (two catalogue words, 40 of them): median ${normalMs.toFixed(1)} ms`);
      console.log(`the 8 slowest of ${candidates.length} candidates, each asked 7 more times with fresh text (median):\n`);
      console.log('| shape | status | median ms | × normal | an example (first 60 characters) |\n|---|--:|--:|--:|---|');
      for (const c of ranked.slice(0, 8)) {
        console.log(
          `| ${c.shape} | ${c.status} | ${c.median.toFixed(1)} | ${(c.median / normalMs).toFixed(2)} | \`${[...c.q.split(EXTRA)[0]!].slice(0, 60).join('')}\` |`,
        );
      }
      const byShape = new Map<string, number[]>();
      for (const c of first) byShape.set(c.shape, [...(byShape.get(c.shape) ?? []), c.ms]);
      console.log('\nfirst asking, by shape: p50 / max ms');
      for (const [shape, ms] of byShape) console.log(`- ${shape}: ${percentile(ms, 50).toFixed(1)} / ${Math.max(...ms).toFixed(1)}`);
      const quiet = await othersDuring(api, keys, null, 0, 8000);
      const flooded = await othersDuring(api, keys, worst.make, Number(values.flood), 8000);
      console.log(
        `\nother keys' searches, 8 s each: alone p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms (${quiet.n}); ` +
          `beside ${values.flood} loops of the slowest shape from one key: p50 ${flooded.p50.toFixed(1)} ms, p99 ${flooded.p99.toFixed(1)} ms (${flooded.n}); ` +
          `p99 ${(flooded.p99 / quiet.p99).toFixed(2)}×`,
      );
    }
  } finally {
    for (const [, api] of builds) await api.stop();
  }
}

await main();
