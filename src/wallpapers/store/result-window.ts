import type { estypes } from '@elastic/elasticsearch';
import type { Logger } from '../../infra/logger.js';
import { type JsonObject, resolveRef } from '../../openapi/document.js';

/** The longest page: what `per_page` is served at, at most (the contract's x-clamp-maximum). */
export const LARGEST_PAGE = (resolveRef({ $ref: '#/components/parameters/per_page' })['schema'] as JsonObject)['x-clamp-maximum'] as number;

/** The `max_result_window` an index needs for MAX_RESULT_WINDOW: where a numbered page may start, and the largest page past it. */
export function windowServing(resultWindow: number): number {
  return resultWindow + LARGEST_PAGE;
}

/**
 * Warns of each index behind the alias that serves fewer results than a numbered page may reach:
 * MAX_RESULT_WINDOW, where the page starts, and the largest page past it. index-mappings sets
 * that; an index made before answers such pages with a 400 naming `page`, and a filtered list's
 * page past its end, which is empty, with one too. The setting is dynamic: raising it needs no
 * reindex.
 */
export function warnOfSmallWindows(indices: estypes.IndicesGetSettingsResponse, resultWindow: number, logger: Logger): void {
  const needed = windowServing(resultWindow);
  for (const [index, { settings, defaults }] of Object.entries(indices)) {
    const served = Number(settings?.['index.max_result_window'] ?? defaults?.['index.max_result_window'] ?? 10_000);
    if (served >= needed) continue;
    logger.warn(
      `the catalogue index serves ${served} results, fewer than a numbered page may reach (MAX_RESULT_WINDOW and a page: ${needed}); ` +
        `its deepest pages answer 400 until raised: PUT /${index}/_settings {"index.max_result_window": ${needed}} (no reindex needed)`,
      { index, served, needed },
    );
  }
}
