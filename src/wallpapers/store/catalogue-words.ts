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

// The field whose analysis search reads words with: the title's, as the description's and the
// category's name (english_text, index-mappings/wallpapers.json).
const TEXT_FIELD = 'title';
// Words per request, so that no request grows with the catalogue.
const WORDS_PER_READ = 4_000;

type TermVectors = { term_vectors?: Record<string, { terms?: Record<string, { tokens?: { start_offset?: number }[] }> }> };

/**
 * How the index reads each word: the one term its analyzer makes of it ("falling" fall, "deserted"
 * desert), or undefined where it makes none (a common word) or several. The words go a space apart
 * in the title of a document made up for the asking (term vectors of an artificial document: what
 * a search may ask, where the analyze API needs the right to manage the index), and each term's
 * offset says whose it is. Given up on after timeoutMs in all.
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
    const response = (await es.termvectors(
      {
        index: alias,
        doc: { [TEXT_FIELD]: chunk.join(' ') },
        fields: [TEXT_FIELD],
        offsets: true,
        positions: false,
        payloads: false,
        term_statistics: false,
        field_statistics: false,
      },
      deadline === undefined ? {} : { requestTimeout: Math.max(1, deadline - performance.now()), maxRetries: 0 },
    )) as TermVectors;
    const found = Object.entries(response.term_vectors?.[TEXT_FIELD]?.terms ?? {})
      .flatMap(([term, { tokens = [] }]) => tokens.map(({ start_offset: start = 0 }) => ({ term, start })))
      .sort((a, b) => a.start - b.start);
    const terms = chunk.map((): string[] => []);
    let word = 0;
    for (const { term, start } of found) {
      while (word + 1 < starts.length && starts[word + 1]! <= start) word++;
      terms[word]!.push(term);
    }
    read.push(...terms.map((made) => (made.length === 1 ? made[0] : undefined)));
  }
  return read;
}
