import type { Client } from '@elastic/elasticsearch';
import { wordClause } from './build-queries.js';

/**
 * Whether each word matches some wallpaper, as a search would match it typed: one request for all
 * of them, each stopping at its first hit. A word whose own answer failed is null, as when the
 * whole request fails: not said (domain/word-occurrences.ts), so it neither empties a search nor is
 * remembered as occurring, nor is taken for a word a real word was mistyped for.
 */
export async function wordsOccur(es: Client, alias: string, words: readonly string[], timeoutMs: number): Promise<(boolean | null)[]> {
  if (words.length === 0) return [];
  const response = await es.msearch(
    {
      index: alias,
      searches: words.flatMap((word) => [{}, { size: 0, terminate_after: 1, track_total_hits: 1, query: wordClause(word) }]),
    },
    { requestTimeout: timeoutMs, maxRetries: 0 },
  );
  return response.responses.map((answer) => ('hits' in answer ? totalOf(answer.hits.total) > 0 : null));
}

const totalOf = (total: number | { value: number } | undefined): number => (typeof total === 'number' ? total : (total?.value ?? 1));
