import { randomInt } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Client, estypes } from '@elastic/elasticsearch';
import { buildListRequest } from '../../wallpapers/store/build-queries.js';
import { toDocument } from '../../wallpapers/catalogued.js';
import { toRecord, type WallpaperDocument } from '../../wallpapers/wallpaper.js';

export interface CopyCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface VerifyOptions {
  /** Random documents compared field by field. */
  sampleSize?: number;
}

const QUERY_SIZE = 100;

function totalOf(response: estypes.SearchResponse): number {
  const total = response.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

async function sameHits(
  es: Client,
  name: string,
  source: string,
  target: string,
  request: (index: string) => estypes.SearchRequest,
): Promise<CopyCheck> {
  const [a, b] = await Promise.all([es.search(request(source)), es.search(request(target))]);
  const ids = (response: estypes.SearchResponse) => response.hits.hits.map((hit) => hit._id);
  const ok = totalOf(a) === totalOf(b) && isDeepStrictEqual(ids(a), ids(b));
  const detail = ok
    ? `${totalOf(a)} hits, first ${ids(a).length} ids in the same order`
    : `source ${totalOf(a)} hits [${ids(a).slice(0, 5).join(', ')}…], copy ${totalOf(b)} hits [${ids(b).slice(0, 5).join(', ')}…]`;
  return { name, ok, detail };
}

async function randomSample(es: Client, index: string, size: number): Promise<WallpaperDocument[]> {
  const response = await es.search<WallpaperDocument>({
    index,
    size,
    query: { function_score: { query: { match_all: {} }, functions: [{ random_score: { seed: randomInt(2 ** 31), field: '_seq_no' } }] } },
  });
  return response.hits.hits.map((hit) => hit._source as WallpaperDocument);
}

async function sameDocuments(es: Client, source: string, target: string, sample: WallpaperDocument[]): Promise<CopyCheck> {
  if (sample.length === 0) return { name: 'sampled documents', ok: true, detail: 'nothing to sample' };
  const ids = sample.map((doc) => String(doc.id));
  const [a, b] = await Promise.all([es.mget<WallpaperDocument>({ index: source, ids }), es.mget<WallpaperDocument>({ index: target, ids })]);
  const sourceOf = (doc: estypes.MgetResponseItem<WallpaperDocument>) => ('found' in doc && doc.found ? doc._source : undefined);
  const differing = ids.filter((_, i) => {
    const original = sourceOf(a.docs[i] as estypes.MgetResponseItem<WallpaperDocument>);
    const copy = sourceOf(b.docs[i] as estypes.MgetResponseItem<WallpaperDocument>);
    // The resource itself must be identical; fields derived from it may change with the mapping.
    return original === undefined || copy === undefined || !isDeepStrictEqual(toRecord(toDocument(original)), toRecord(toDocument(copy)));
  });
  return {
    name: 'sampled documents',
    ok: differing.length === 0,
    detail:
      differing.length === 0
        ? `${ids.length} random documents identical`
        : `${differing.length} of ${ids.length} differ or are missing: ${differing.slice(0, 10).join(', ')}`,
  };
}

/** How the title is analysed in an index: its field mapping and the analysis settings it uses. */
async function titleAnalysis(es: Client, index: string): Promise<string> {
  const [settings, mapping] = await Promise.all([
    es.indices.getSettings({ index, name: 'index.analysis', flat_settings: true }),
    es.indices.getFieldMapping({ index, fields: ['title', 'title.*'] }),
  ]);
  const concrete = Object.keys(settings)[0] ?? index;
  return JSON.stringify([settings[concrete]?.settings ?? {}, Object.values(mapping)[0]?.mappings ?? {}]);
}

/**
 * Compares a copy with its source: counts, a random sample of documents field by field, and
 * fixed queries (the list's first page, a category filter, a title match) hit for hit. A title
 * match is compared only when both analyse titles alike: moving to a new analysis (the point of
 * such a reindex) changes which titles match a word, by design.
 */
export async function verifyCopy(es: Client, source: string, target: string, { sampleSize = 200 }: VerifyOptions = {}): Promise<CopyCheck[]> {
  const [sourceCount, targetCount] = await Promise.all([es.count({ index: source }), es.count({ index: target })]);
  const sample = await randomSample(es, source, sampleSize);
  const category = sample[0]?.category ?? 'nature';
  const word = sample[0]?.title.split(/\s+/)[0]?.toLowerCase() ?? 'wallpaper';
  return [
    {
      name: 'count',
      ok: sourceCount.count === targetCount.count,
      detail: `source ${sourceCount.count}, copy ${targetCount.count}`,
    },
    await sameDocuments(es, source, target, sample),
    await sameHits(es, 'list page 1, newest first', source, target, (index) => buildListRequest(index, { page: 1, per_page: QUERY_SIZE })),
    await sameHits(es, `category ${category}`, source, target, (index) =>
      buildListRequest(index, { page: 1, per_page: QUERY_SIZE, category: [category] }),
    ),
    (await titleAnalysis(es, source)) === (await titleAnalysis(es, target))
      ? await sameHits(es, `title match "${word}"`, source, target, (index) => ({
          index,
          size: QUERY_SIZE,
          track_total_hits: true,
          _source: false,
          query: { match: { title: word } },
          sort: [{ id: { order: 'asc' } }],
        }))
      : { name: `title match "${word}"`, ok: true, detail: 'not compared: the copy analyses titles differently (a new mapping)' },
  ];
}
