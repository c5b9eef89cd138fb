import type { Client, estypes } from '@elastic/elasticsearch';
import { type CataloguedWallpaper, toDocument } from '../../wallpapers/catalogued.js';
import type { WallpaperDocument } from '../../wallpapers/wallpaper.js';

export interface IndexSnapshot {
  /** Documents in the snapshot, fixed when it was opened. */
  total: number;
  /** Every document once, in index order, `pageSize` per request. Stops early when `signal` aborts. */
  documents(pageSize: number, signal?: AbortSignal): AsyncGenerator<WallpaperDocument, void, undefined>;
  close(): Promise<void>;
}

const KEEP_ALIVE = '5m';

/**
 * A point-in-time view of an index read with search_after on `_shard_doc`: the cheapest
 * total order, and unaffected by writes made while it is read. `inIdOrder` reads it by id instead,
 * for a file people read and diff, and that an import reads back fastest (stamp-scan.ts).
 */
export async function openSnapshot(es: Client, index: string, { inIdOrder = false }: { inIdOrder?: boolean } = {}): Promise<IndexSnapshot> {
  let pitId = (await es.openPointInTime({ index, keep_alive: KEEP_ALIVE })).id;
  try {
    const counted = await es.search({ pit: { id: pitId, keep_alive: KEEP_ALIVE }, size: 0, track_total_hits: true });
    const total = typeof counted.hits.total === 'number' ? counted.hits.total : (counted.hits.total?.value ?? 0);
    return {
      total,
      async *documents(pageSize, signal) {
        let after: estypes.SortResults | undefined;
        while (!signal?.aborted) {
          const page = await es.search<WallpaperDocument>({
            pit: { id: pitId, keep_alive: KEEP_ALIVE },
            size: pageSize,
            sort: [inIdOrder ? { id: 'asc' } : { _shard_doc: 'asc' }],
            track_total_hits: false,
            ...(after === undefined ? {} : { search_after: after }),
          });
          pitId = page.pit_id ?? pitId;
          const hits = page.hits.hits;
          for (const hit of hits) yield toDocument(hit._source as CataloguedWallpaper);
          if (hits.length < pageSize) return;
          after = hits.at(-1)?.sort;
        }
      },
      async close() {
        await es.closePointInTime({ id: pitId }).catch(() => undefined);
      },
    };
  } catch (error) {
    await es.closePointInTime({ id: pitId }).catch(() => undefined);
    throw error;
  }
}
