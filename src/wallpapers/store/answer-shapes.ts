import { MalformedAnswer } from '../../infra/es-errors.js';

// What the repository reads of Elasticsearch's answers, checked for the shape every real answer has
// under the repository's filter_path: a multi-search holds one item per search, each with its status
// (kept by the filter); a multi-get one doc per id, found or failed; a search its `took`. Anything
// else is a node or proxy misbehaving (helper-123: `{"responses":[{"foo":"bar"}]}` had been served
// as an empty page, cacheable, and `[]` as the feed's end). The parts a filter_path drops when empty
// (hits of a page that matched nothing) stay optional.

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A multi-search's items, one per search asked, each with its status. */
export function searchItemsOf<T>(answer: unknown, asked: number): T[] {
  const items = isObject(answer) ? answer['responses'] : undefined;
  if (!Array.isArray(items) || items.length !== asked || !items.every((item) => isObject(item) && typeof item['status'] === 'number')) {
    throw new MalformedAnswer(
      `a multi-search of ${asked} with ${Array.isArray(items) ? `${items.length} items, not all with a status` : 'no items'}`,
    );
  }
  return items as T[];
}

/** A multi-get's docs, one per id asked, each found or not, or failed. */
export function docsOf<T>(answer: unknown, asked: number): T[] {
  const docs = isObject(answer) ? answer['docs'] : undefined;
  if (
    !Array.isArray(docs) ||
    docs.length !== asked ||
    !docs.every((doc) => isObject(doc) && (typeof doc['found'] === 'boolean' || isObject(doc['error'])))
  ) {
    throw new MalformedAnswer(`a multi-get of ${asked} with ${Array.isArray(docs) ? `${docs.length} docs, not all found or failed` : 'no docs'}`);
  }
  return docs as T[];
}

/** A search's hits (none when its filter_path dropped them), each with its index, source and sort values; `took` must be kept by the filter. */
export function hitsOf<T>(answer: unknown): T[] {
  if (!isObject(answer) || typeof answer['took'] !== 'number') throw new MalformedAnswer('a search without its took');
  const hits = isObject(answer['hits']) ? answer['hits']['hits'] : undefined;
  if (hits === undefined) return [];
  if (
    !Array.isArray(hits) ||
    !hits.every((hit) => isObject(hit) && typeof hit['_index'] === 'string' && isObject(hit['_source']) && Array.isArray(hit['sort']))
  ) {
    throw new MalformedAnswer('a search with hits that are not hits');
  }
  return hits as T[];
}

/** A search's total, which it was asked to count. */
export function totalOf(answer: unknown): number {
  const hits = isObject(answer) ? answer['hits'] : undefined;
  const total = isObject(hits) ? hits['total'] : undefined;
  const value = typeof total === 'number' ? total : isObject(total) ? total['value'] : undefined;
  if (typeof value !== 'number') throw new MalformedAnswer('a count without its total');
  return value;
}

/** A get that ignores 404: found or not, or the missing index's error. */
export function expectGot(answer: unknown): void {
  if (!isObject(answer) || (typeof answer['found'] !== 'boolean' && !isObject(answer['error'])))
    throw new MalformedAnswer('a get neither found nor missing');
}
