import type { Client } from '@elastic/elasticsearch';
import { CATEGORIES } from '../categories.js';

// Tags in a catalogue are bounded by what it describes; beyond this many, the rarest are left out.
const MAX_TAGS = 20_000;

/** The words the catalogue describes its pictures with: its tags (most used first) and its category names. */
export async function loadCatalogueWords(es: Client, alias: string, timeoutMs?: number): Promise<string[]> {
  const response = await es.search<unknown, { tags: { buckets: { key: string }[] } }>(
    { index: alias, size: 0, track_total_hits: false, aggs: { tags: { terms: { field: 'tags', size: MAX_TAGS } } } },
    timeoutMs === undefined ? {} : { requestTimeout: timeoutMs, maxRetries: 0 },
  );
  const tags = response.aggregations?.tags.buckets.map(({ key }) => key) ?? [];
  return [...new Set([...tags, ...CATEGORIES])];
}

// The analyzer the index reads titles, descriptions and category names with (index-mappings/wallpapers.json).
const TEXT_ANALYZER = 'english_text';
// Words per request: well within what Elasticsearch analyzes in one (index.analyze.max_token_count,
// 10,000 terms), as a word makes one term or two.
const WORDS_PER_READ = 4_000;

/**
 * How the index reads each word: the one term its analyzer makes of it ("falling" fall, "deserted"
 * desert), or undefined where it makes none (a common word) or several. The words go a space apart
 * in one text per request, and each term's offset says whose it is. Given up on after timeoutMs in all.
 */
export async function readAsIndexed(es: Client, alias: string, words: readonly string[], timeoutMs?: number): Promise<(string | undefined)[]> {
  const read: (string | undefined)[] = [];
  // One bound for every request, however many the words take.
  const deadline = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
  for (let from = 0; from < words.length; from += WORDS_PER_READ) {
    const chunk = words.slice(from, from + WORDS_PER_READ);
    const starts: number[] = [];
    let offset = 0;
    for (const word of chunk) {
      starts.push(offset);
      offset += word.length + 1;
    }
    const { tokens = [] } = await es.indices.analyze(
      { index: alias, analyzer: TEXT_ANALYZER, text: chunk.join(' ') },
      deadline === undefined ? {} : { requestTimeout: Math.max(1, deadline - performance.now()), maxRetries: 0 },
    );
    const terms = chunk.map((): string[] => []);
    let word = 0;
    for (const { token, start_offset: start } of tokens) {
      while (word + 1 < starts.length && starts[word + 1]! <= start) word++;
      terms[word]!.push(token);
    }
    read.push(...terms.map((found) => (found.length === 1 ? found[0] : undefined)));
  }
  return read;
}
