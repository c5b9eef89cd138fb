import type { Client, estypes } from '@elastic/elasticsearch';
import { type CataloguedWallpaper, toDocument } from '../../wallpapers/catalogued.js';
import { toIndexDocument } from '../../wallpapers/store/index-document.js';
import { type LoadEntry, isDeletion } from '../../wallpapers/wallpaper.js';

// Titles asked about in one multi-search, and wallpapers of a title read per page while looking
// for the most popular one whose title is exactly it (a phrase also finds longer titles).
const TITLES_PER_SEARCH = 50;
const PAGE = 100;
const MAX_PAGES = 100;
// Ids of a batch asked about at once: below the index's result window (10,100).
const IDS_PER_READ = 5_000;
// Carriers of a title (and of longer titles holding it) read at once to be left without: a title of
// n wallpapers has about ln n + 0.6 (10 at most in 200,000 demo wallpapers), plus one per import.
const CARRIERS_READ = 1_000;

/**
 * Keeps each title's completions with its most popular live wallpaper through an incremental
 * import. A load marks its carriers itself (createTitleCarriers: the first of a title, then any
 * with more downloads), but an incremental import sees only its own records: when it deleted a
 * carrier, renamed it or lowered its downloads, the title's other wallpapers carried nothing, so
 * the title left the suggestions or fell below titles less popular (helper-136). So the import
 * notes the titles whose carriers it deletes, re-titles or makes less popular, and once it has
 * written, the most popular wallpaper of each is written again as a carrier, unchanged otherwise:
 * its stamp stays, so the change feed records nothing. The title's other carriers are written
 * again without the completions, as unchanged otherwise: each lowering import had added one, and a
 * title of many carriers fills the suggester's slots (helper-139: 4 carriers to 26 after 25 imports).
 */
export class TouchedTitles {
  private readonly titles = new Map<string, string>();

  /** `pagesPerTitle`: how many pages of a title's phrase matches are read for its most popular wallpaper. */
  constructor(
    private readonly es: Client,
    private readonly index: string,
    private readonly shuffle: boolean,
    private readonly pagesPerTitle = MAX_PAGES,
  ) {}

  /**
   * Notes the titles a batch about to be written may take completions from: those of the wallpapers
   * it deletes, re-titles or makes less popular that carry completions now. Asked only of the
   * carriers among its ids (a title's completions are on few of its wallpapers), so reading what
   * they hold costs a fraction of the batch. A record that gains a title or downloads carries them
   * itself, as the first of its title in the load (createTitleCarriers).
   */
  async note(entries: readonly LoadEntry[]): Promise<void> {
    const upserts = new Map(entries.flatMap((entry) => (isDeletion(entry) ? [] : [[entry.id, entry] as const])));
    for (let start = 0; start < entries.length; start += IDS_PER_READ) {
      const ids = entries.slice(start, start + IDS_PER_READ).map(({ id }) => String(id));
      const carriers = await this.es.search<Pick<CataloguedWallpaper, 'id' | 'title' | 'downloads'>>({
        index: this.index,
        size: ids.length,
        track_total_hits: false,
        _source: ['id', 'title', 'downloads'],
        query: { bool: { filter: [{ ids: { values: ids } }, { exists: { field: 'suggest' } }] } },
      });
      for (const { _source: held } of carriers.hits.hits) {
        if (!held) continue;
        const now = upserts.get(held.id);
        if (!now || now.title.toLowerCase() !== held.title.toLowerCase() || now.downloads < held.downloads) this.add(held.title);
      }
    }
  }

  /**
   * Writes the most popular live wallpaper of every title noted again as its only carrier.
   * `beforeWrite` is the import's lock check. Returns how many were written.
   */
  async elect(beforeWrite: () => Promise<void> = () => Promise.resolve()): Promise<number> {
    if (this.titles.size === 0) return 0;
    await this.es.indices.refresh({ index: this.index });
    const titles = [...this.titles.values()];
    let written = 0;
    for (let start = 0; start < titles.length; start += TITLES_PER_SEARCH) {
      const found = await this.mostPopular(titles.slice(start, start + TITLES_PER_SEARCH));
      if (found.size === 0) continue;
      // Only the titles whose most popular wallpaper was found lose their other carriers: one not
      // found (inside more than MAX_PAGES pages of longer titles) keeps them (helper-140).
      const elected = new Set(found.values());
      const others = (await this.carriersOf([...found.keys()])).filter((id) => !elected.has(id));
      const kept = await this.es.mget<CataloguedWallpaper>({ index: this.index, ids: [...elected, ...others].map(String) });
      const operations = kept.docs.flatMap((doc) =>
        'found' in doc && doc.found && doc._source
          ? [{ index: { _id: doc._id } }, toIndexDocument(toDocument(doc._source), { suggest: elected.has(doc._source.id), shuffle: this.shuffle })]
          : [],
      );
      if (operations.length === 0) continue;
      await beforeWrite();
      const response = await this.es.bulk({ index: this.index, operations, filter_path: ['errors', 'items.*.error'] });
      if (response.errors) throw new Error(`completions not kept: ${JSON.stringify(response.items.find((item) => item.index?.error))}`);
      written += operations.length / 2;
    }
    return written;
  }

  private add(title: string): void {
    const key = title.toLowerCase();
    if (!this.titles.has(key)) this.titles.set(key, title);
  }

  /** The wallpapers that carry each title's completions now (a title has few: createTitleCarriers). */
  private async carriersOf(titles: readonly string[]): Promise<number[]> {
    const { responses } = await this.es.msearch<Pick<CataloguedWallpaper, 'title' | 'id'>>({
      index: this.index,
      searches: titles.flatMap((title) => [
        {},
        {
          query: { bool: { filter: [{ match_phrase: { 'title.exact': title } }, { exists: { field: 'suggest' } }] } },
          size: CARRIERS_READ,
          _source: ['title', 'id'],
          track_total_hits: false,
        },
      ]),
    });
    return responses.flatMap((response, i) => {
      if ('error' in response) throw new Error(`completions not kept: ${JSON.stringify(response.error)}`);
      const title = titles[i]!.toLowerCase();
      return response.hits.hits.flatMap(({ _source: held }) => (held && held.title.toLowerCase() === title ? [held.id] : []));
    });
  }

  /** The id of the most popular live wallpaper of each title (fewest id among equals); none for a title no wallpaper has. */
  private async mostPopular(titles: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    let open = titles.map((title) => ({ title, after: undefined as estypes.SortResults | undefined }));
    for (let page = 0; page < this.pagesPerTitle && open.length > 0; page++) {
      const { responses } = await this.es.msearch<Pick<CataloguedWallpaper, 'title' | 'id'>>({
        index: this.index,
        searches: open.flatMap(({ title, after }) => [
          {},
          {
            query: { match_phrase: { 'title.exact': title } },
            sort: [{ downloads: 'desc' }, { id: 'asc' }],
            size: PAGE,
            _source: ['title', 'id'],
            track_total_hits: false,
            ...(after ? { search_after: after } : {}),
          },
        ]),
      });
      const next: typeof open = [];
      responses.forEach((response, i) => {
        if ('error' in response) throw new Error(`completions not kept: ${JSON.stringify(response.error)}`);
        const { title } = open[i]!;
        const hits = response.hits.hits;
        const exact = hits.find((hit) => hit._source?.title.toLowerCase() === title.toLowerCase());
        if (exact?._source) found.set(title, exact._source.id);
        else if (hits.length === PAGE) next.push({ title, after: hits.at(-1)!.sort });
      });
      open = next;
    }
    return found;
  }
}
