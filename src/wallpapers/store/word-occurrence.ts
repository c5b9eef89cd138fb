import type { Client } from '@elastic/elasticsearch';
import { wordClause } from './build-queries.js';

/**
 * Whether each word matches some wallpaper, as a search would match it typed: one request for all
 * of them, each stopping at its first hit. A word whose answer failed counts as occurring, so a
 * search is never emptied by an error.
 */
export async function wordsOccur(es: Client, alias: string, words: readonly string[], timeoutMs: number): Promise<boolean[]> {
  if (words.length === 0) return [];
  const response = await es.msearch(
    {
      index: alias,
      searches: words.flatMap((word) => [{}, { size: 0, terminate_after: 1, track_total_hits: 1, query: wordClause(word) }]),
    },
    { requestTimeout: timeoutMs, maxRetries: 0 },
  );
  return response.responses.map((answer) => !('hits' in answer) || totalOf(answer.hits.total) > 0);
}

const totalOf = (total: number | { value: number } | undefined): number => (typeof total === 'number' ? total : (total?.value ?? 1));
