import type { Client } from '@elastic/elasticsearch';
import type { Logger } from '../../infra/logger.js';
import { type JsonObject, resolveRef } from '../../openapi/document.js';

/** The longest page: what `per_page` is served at, at most (the contract's x-clamp-maximum). */
export const LARGEST_PAGE = (resolveRef({ $ref: '#/components/parameters/per_page' })['schema'] as JsonObject)['x-clamp-maximum'] as number;

/**
 * Warns when an index behind the alias serves fewer results than a numbered page may reach:
 * MAX_RESULT_WINDOW, where the page starts, and the largest page past it. index-mappings sets
 * that; an index made before answers such pages with a 400 naming `page`, and a filtered list's
 * page past its end, which is empty, with one too. The setting is dynamic: raising it needs no
 * reindex. Reads settings only, once, at start-up; a failure to read them is no failure to start.
 */
export async function checkResultWindow(es: Client, alias: string, resultWindow: number, logger: Logger): Promise<void> {
  const needed = resultWindow + LARGEST_PAGE;
  try {
    const indices = await es.indices.getSettings({ index: alias, name: 'index.max_result_window', include_defaults: true, flat_settings: true });
    for (const [index, { settings, defaults }] of Object.entries(indices)) {
      const served = Number(settings?.['index.max_result_window'] ?? defaults?.['index.max_result_window'] ?? 10_000);
      if (served >= needed) continue;
      logger.warn(
        `the catalogue index serves ${served} results, fewer than a numbered page may reach (MAX_RESULT_WINDOW and a page: ${needed}); ` +
          `its deepest pages answer 400 until raised: PUT /${index}/_settings {"index.max_result_window": ${needed}} (no reindex needed)`,
        { index, served, needed },
      );
    }
  } catch (err) {
    logger.debug('the catalogue index settings could not be read to check its result window', { err: String(err) });
  }
}
