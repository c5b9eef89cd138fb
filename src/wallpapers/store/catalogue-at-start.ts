import { type Client, errors } from '@elastic/elasticsearch';
import { cannotReach, displayUrl } from '../../config.js';
import type { Logger } from '../../infra/logger.js';
import { warnOfSmallWindows } from './result-window.js';

/**
 * Start-up's one look at the catalogue, said in the words an operator acts on: Elasticsearch not
 * answering names ELASTICSEARCH_URL, an alias that names no index names INDEX_ALIAS and how to
 * load one, and an index serving too few results says how to raise it. Without it, the first
 * words an operator read were the search model's ("the catalogue words could not be read") or
 * Elasticsearch's own (`index_not_found_exception`). Starting goes on whatever it finds: /readyz
 * answers 503 until the catalogue is there, and the process need not be restarted when it is.
 */
export async function checkCatalogueAtStart(
  es: Client,
  { alias, elasticsearchUrl, resultWindow }: { alias: string; elasticsearchUrl: string; resultWindow: number },
  logger: Logger,
): Promise<void> {
  try {
    const indices = await es.indices.getSettings({ index: alias, name: 'index.max_result_window', include_defaults: true, flat_settings: true });
    warnOfSmallWindows(indices, resultWindow, logger);
  } catch (err) {
    const problem = problemOf(err, alias, elasticsearchUrl);
    if (problem !== null) logger.warn(problem);
    else logger.debug('the catalogue index settings could not be read at start-up', { err: String(err) });
  }
}

function problemOf(err: unknown, alias: string, url: string): string | null {
  if (err instanceof errors.ConnectionError || err instanceof errors.TimeoutError || err instanceof errors.NoLivingConnectionsError) {
    return `${cannotReach('Elasticsearch', url, err.message, 'ELASTICSEARCH_URL')}; requests answer 503 until it answers`;
  }
  // A wrong port or host where something else listens (a web server, a proxy's error page).
  if (err instanceof errors.ProductNotSupportedError || err instanceof errors.DeserializationError) {
    return `what answers at ${displayUrl(url)} (ELASTICSEARCH_URL) is not Elasticsearch: ${err.message}; requests answer 503 until it is`;
  }
  if (!(err instanceof errors.ResponseError)) return null;
  // Elasticsearch names itself on every answer, errors included.
  if (err.meta.headers?.['x-elastic-product'] !== 'Elasticsearch') {
    return `what answers at ${displayUrl(url)} (ELASTICSEARCH_URL) is not Elasticsearch: it answered ${err.statusCode ?? 'without a status'}; requests answer 503 until it is`;
  }
  const type = (err.body as { error?: { type?: string } } | undefined)?.error?.type;
  if (type === 'index_not_found_exception') {
    return (
      `INDEX_ALIAS ${alias} names no index on Elasticsearch at ${displayUrl(url)}: load a catalogue (npm run seed, or npm run import -- FILE) ` +
      'or set INDEX_ALIAS to the alias it is under; requests answer 503 until then'
    );
  }
  const status = err.statusCode ?? 0;
  if (status === 401) {
    return `Elasticsearch at ${displayUrl(url)} (ELASTICSEARCH_URL) did not accept its credentials (401): the URL needs a user and password it knows; requests answer 503 until then`;
  }
  // A user that may read the catalogue but not its settings serves well: only this check is lost.
  if (status === 403) {
    return `Elasticsearch at ${displayUrl(url)} refused to show the settings of INDEX_ALIAS ${alias} (403), so its result window was not checked; serving needs only read, this check view_index_metadata`;
  }
  return `Elasticsearch at ${displayUrl(url)} (ELASTICSEARCH_URL) answered ${status}${type === undefined ? '' : ` ${type}`} when INDEX_ALIAS ${alias} was read; requests may answer 503`;
}
