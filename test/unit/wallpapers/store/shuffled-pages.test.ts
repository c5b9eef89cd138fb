import { expect } from 'chai';
import { share } from '../../../../src/infra/shared-result.js';
import type { CataloguedWallpaper } from '../../../../src/wallpapers/catalogued.js';
import type { ListParams, Position } from '../../../../src/wallpapers/params.js';
import type { ShuffledRead } from '../../../../src/wallpapers/store/build-queries.js';
import type { Page } from '../../../../src/wallpapers/store/repository.js';
import { BOTTOM_KEY, type KeyAndId, NO_KEY, comesBefore, shuffleKey, shuffleOf } from '../../../../src/wallpapers/store/shuffle.js';
import { RecentTotals, type ShuffledReader, readShuffledPage } from '../../../../src/wallpapers/store/shuffled-pages.js';

const SCORED = -1;

/**
 * Elasticsearch's answers to each read, over a catalogue of `ids` on one index: keys from the ids
 * (or NO_KEY for every wallpaper of a catalogue loaded before them), sorted by key then id.
 */
function catalogue(ids: readonly number[], seed: string, { keyed = true, window = 10_000 } = {}) {
  const { key, offset, skip } = shuffleOf(seed);
  const keyOf = (id: number) => (keyed ? shuffleKey(id, key) : NO_KEY);
  const sorted = [...ids].sort((a, b) => keyOf(a) - keyOf(b) || a - b);
  const reads: ShuffledRead[] = [];
  const pageOf = (found: readonly number[], total: number): Page => {
    const last = found.at(-1);
    const items = found.map((id) => ({ id }) as CataloguedWallpaper);
    return { items, total, ...(last === undefined ? {} : { last: { index: 'cat-1', after: [keyOf(last), last] } }) };
  };
  const place = (id: number): KeyAndId => [keyOf(id), id];
  // The index of the first wallpaper at or past a place (binary search: the evenness test reads tens of thousands of pages).
  const firstFrom = (at: KeyAndId) => {
    let [low, high] = [0, sorted.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comesBefore(place(sorted[middle]!), at)) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  // The wallpapers a keyed read's range holds, in order, and from where a search_after reads on.
  const within = (read: Extract<ShuffledRead, { lowest: number }>, after: readonly (string | number)[] | null = null) => {
    if (!keyed) return [];
    const lowest: KeyAndId =
      'since' in read && read.since && comesBefore([read.lowest, -Infinity], read.since) ? read.since : [read.lowest, -Infinity];
    const from: KeyAndId = after === null ? lowest : [Number(after[0]), Number(after[1]) + 0.5];
    const highest: KeyAndId = [read.highest, Infinity];
    const until = 'until' in read ? read.until : undefined;
    const upTo = until && comesBefore(until, highest) ? until : highest;
    return sorted.slice(Math.max(firstFrom(lowest), firstFrom(from)), firstFrom(upTo));
  };
  const reader: ShuffledReader = async (read) => {
    reads.push(read);
    switch (read.read) {
      case 'after': {
        // A counting read sorts by the key without a range: a catalogue without keys sorts all as NO_KEY.
        if (read.counts) {
          const past = read.after === null ? sorted : sorted.slice(firstFrom([Number(read.after[0]), Number(read.after[1]) + 0.5]));
          return share(pageOf(past.slice(0, read.size), ids.length));
        }
        return share(pageOf(within(read, read.after).slice(0, read.size), 0));
      }
      case 'rank': {
        // Elasticsearch refuses a read past its result window, counted from the first rank it skips.
        if (read.from + read.size > window) throw new Error(`from + size past the result window of ${window}`);
        const inRange = within(read);
        return share(pageOf(inRange.slice(read.from, read.from + read.size), inRange.length));
      }
      case 'count':
        return share(pageOf([], ids.length));
      case 'scored':
        return share(pageOf(ids.length > 0 ? [SCORED] : [], ids.length));
    }
  };
  // The key from the offset up, then from the bottom: the walks of cursors issued before walks had starts.
  const round = [...sorted.filter((id) => keyOf(id) >= offset), ...sorted.filter((id) => keyOf(id) < offset)];
  // The walk the seed names: the same round, begun `skip` matches in (round them again past the last).
  const at = round.length === 0 ? 0 : skip % round.length;
  const cycle = [...round.slice(at), ...round.slice(0, at)];
  return { reader, reads, cycle, round, keyOf };
}

const params = (seed: string, perPage: number, more: Partial<ListParams> = {}): ListParams => ({
  page: 1,
  per_page: perPage,
  sort: 'random',
  seed,
  ...more,
});

/** Follows next cursors as the envelope makes them: a full page, and fewer served than the total. */
async function walkByCursor(reader: ShuffledReader, seed: string, perPage: number): Promise<number[]> {
  const seen: number[] = [];
  let position: Position | undefined;
  for (let page = 1; page < 100_000; page++) {
    const result = await readShuffledPage(params(seed, perPage, position ? { position } : {}), reader, recent);
    seen.push(...result.items.map((item) => item.id));
    if (!result.last || result.items.length < perPage || seen.length >= result.total) return seen;
    position = { ...result.last, total: result.total };
  }
  throw new Error('the walk did not end');
}

async function walkByNumber(reader: ShuffledReader, seed: string, perPage: number, total: number, resultWindow = 10_000): Promise<number[]> {
  const seen: number[] = [];
  for (let page = 1; (page - 1) * perPage < total && (page - 1) * perPage < resultWindow; page++) {
    seen.push(...(await readShuffledPage(params(seed, perPage, { page }), reader, recent, { resultWindow })).items.map((item) => item.id));
  }
  return seen;
}

/** Every query counts as large (a threshold of 0), so the walk goes along the key. */
let recent = { totals: new RecentTotals(0), key: () => 'the query' };
beforeEach(() => {
  recent = { totals: new RecentTotals(0), key: () => 'the query' };
});

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('sort=random along a key (shuffled-pages)', () => {
  const seeds = ['tide42', 'reef7', 'a', 'Z9', 'x'.repeat(32)];
  for (const size of [0, 1, 7, 20, 21, 100]) {
    for (const perPage of [1, 3, 7, 20]) {
      it(`when ${size} wallpapers are walked ${perPage} a page, by cursor or by number, then each comes once, in the seed's cycle`, async () => {
        for (const seed of seeds) {
          for (const seenLarge of [false, true]) {
            if (seenLarge) recent.totals.set('the query', 5_000_000);
            const { reader, cycle } = catalogue(range(size), seed);
            expect(await walkByCursor(reader, seed, perPage), `${seed} by cursor`).to.deep.equal(cycle);
            expect(await walkByNumber(reader, seed, perPage, size), `${seed} by number`).to.deep.equal(cycle);
          }
        }
      });
    }
  }

  it('when the first lap ends inside page 1, then the rest of the page comes from the bottom, on the same index', async () => {
    const ids = range(2000);
    // A seed whose walk starts a few wallpapers below the top of its key, its skip-th above the offset.
    const seed = range(20_000)
      .map(String)
      .find((s) => {
        const { key, offset, skip } = shuffleOf(s);
        const above = ids.filter((id) => shuffleKey(id, key) >= offset).length;
        return above - skip > 0 && above - skip < 10;
      })!;
    const { reader, reads, cycle, keyOf } = catalogue(ids, seed);
    recent.totals.set('the query', 2000);
    const page = await readShuffledPage(params(seed, 10), reader, recent);
    expect(page.items.map((item) => item.id)).to.deep.equal(cycle.slice(0, 10));
    expect(page.total).to.equal(2000);
    expect(reads[1]).to.deep.include({ read: 'rank', from: shuffleOf(seed).skip, lowest: shuffleOf(seed).offset });
    const start = [keyOf(cycle[0]!), cycle[0]!];
    expect(reads.at(-1)).to.deep.include({ read: 'rank', from: 0, lowest: BOTTOM_KEY });
    expect(page.last).to.deep.include({ index: 'cat-1', shuffled: true, start });
  });

  it('when a query has fewer matches than the threshold, then its pages are scored, one read each', async () => {
    const { reader, reads } = catalogue(range(1000), 'tide42');
    recent = { totals: new RecentTotals(), key: () => 'the query' };
    await readShuffledPage(params('tide42', 5), reader, recent);
    await readShuffledPage(params('tide42', 5, { page: 4 }), reader, recent);
    expect(reads.map((read) => read.read)).to.deep.equal(['scored', 'scored']);
  });

  it('when a query first seen small has grown past the threshold, then the scored read is followed by the keyed one, and the other way round', async () => {
    const { reader, reads } = catalogue(range(1000), 'tide42');
    recent = { totals: new RecentTotals(500), key: () => 'the query' };
    recent.totals.set('the query', 10);
    const page = await readShuffledPage(params('tide42', 5), reader, recent);
    expect(page.last?.shuffled).to.equal(true);
    expect(reads.map((read) => read.read)).to.deep.equal(['scored', 'count', 'rank']);
    recent = { totals: new RecentTotals(5000), key: () => 'the query' };
    recent.totals.set('the query', 1_000_000);
    const scored = await readShuffledPage(params('tide42', 5, { page: 2 }), reader, recent);
    expect(scored.items.map((item) => item.id)).to.deep.equal([SCORED]);
    expect(recent.totals.get('the query')).to.equal(1000);
  });

  it('when a query was seen large, then page 1 counts beside a span of keys sized by that total, and so does each cursor page', async () => {
    const { reader, reads } = catalogue(range(1000), 'tide42');
    const { skip } = shuffleOf('tide42');
    recent.totals.set('the query', 1000);
    const page = await readShuffledPage(params('tide42', 5), reader, recent);
    expect(
      reads.map((read) => read.read),
      'the count and the span side by side',
    ).to.deep.equal(['count', 'rank']);
    const opening = reads[1] as Extract<ShuffledRead, { read: 'rank' }>;
    const room = skip + 5 + 4 * Math.sqrt(skip + 5) + 40;
    expect(opening.from, "the seed's skip").to.equal(skip);
    expect((opening.highest - opening.lowest) / 2 ** 32, 'a span expected to hold the skip, the page and room to spare').to.be.within(
      room / 1000,
      (room + 1) / 1000,
    );
    expect(page.last?.shuffled).to.equal(true);
    const next = await readShuffledPage(params('tide42', 5, { position: { ...page.last!, total: page.total, depth: 5 } }), reader, recent);
    expect(
      reads.slice(2).map((read) => read.read),
      'a cursor page counts again: an import may have added to the walk',
    ).to.deep.equal(['count', 'after']);
    const span = reads[3] as Extract<ShuffledRead, { read: 'after' }>;
    expect(span.highest - span.lowest, 'a span expected to hold about 5 + 4·√5 + 40 of 1,000').to.be.within(2 ** 32 * 0.05, 2 ** 32 * 0.06);
    expect(next.items).to.have.length(5);
    reads.length = 0;
    const third = await readShuffledPage(params('tide42', 5, { page: 3 }), reader, recent);
    expect(
      reads.map((read) => [read.read, 'from' in read ? read.from : null]),
      "a numbered page: the count, its ranks and the walk's start, side by side",
    ).to.deep.equal([
      ['count', null],
      ['rank', skip + 10],
      ['rank', skip],
    ]);
    expect(third.last?.start).to.deep.equal(page.last?.start);
  });

  it('when wallpapers are added in the middle of a walk, then the walk goes on past the total its cursor carried, and each wallpaper walked before comes once', async () => {
    const before = catalogue(range(100), 'reef7');
    recent.totals.set('the query', 100);
    const first = await readShuffledPage(params('reef7', 30), before.reader, recent);
    const after = catalogue(range(160), 'reef7');
    const seen = first.items.map((item) => item.id);
    let position: Position | undefined = { ...first.last!, total: first.total, depth: 30 };
    while (position) {
      const page = await readShuffledPage(params('reef7', 30, { position }), after.reader, recent);
      seen.push(...page.items.map((item) => item.id));
      position = page.items.length === 30 && seen.length < page.total ? { ...page.last!, total: page.total, depth: seen.length } : undefined;
    }
    expect(new Set(seen).size).to.equal(seen.length);
    for (const id of range(100)) expect(seen, `wallpaper ${id}`).to.include(id);
  });

  it('when the total seen last time was far too large, then page 1 reads on past its span, and the hint follows the count', async () => {
    const { reader, reads, cycle } = catalogue(range(1000), 'tide42');
    recent.totals.set('the query', 5_000_000);
    const page = await readShuffledPage(params('tide42', 10), reader, recent);
    expect(page.items.map((item) => item.id)).to.deep.equal(cycle.slice(0, 10));
    expect([page.total, recent.totals.get('the query')]).to.deep.equal([1000, 1000]);
    expect(reads.map((read) => read.read)).to.deep.equal(['count', 'rank', 'rank']);
  });

  it('when a span of keys falls short of a page, then the rest is read to the end of the lap, and nothing is lost', async () => {
    const { reader, reads, round } = catalogue(range(1000), 'tide42');
    // A total far above the truth makes every span too narrow. A cursor issued before walks had
    // starts: its walk began at the offset.
    const position = { index: 'cat-1', after: [shuffleOf('tide42').offset, 0], total: 1_000_000, shuffled: true };
    const page = await readShuffledPage(params('tide42', 10, { position }), reader, recent);
    expect(page.items.map((item) => item.id)).to.deep.equal(round.slice(0, 10));
    expect(reads.map((read) => read.read)).to.deep.equal(['count', 'after', 'after']);
  });

  it('when a walk began before walks had starts, then its cursors walk on from the offset, and each wallpaper comes once', async () => {
    for (const seed of ['tide42', 'reef7', 'abc']) {
      const { reader, round, keyOf } = catalogue(range(300), seed);
      const seen = round.slice(0, 30);
      const last = round[29]!;
      let position: Position | undefined = { index: 'cat-1', after: [keyOf(last), last], total: 300, depth: 30, shuffled: true };
      while (position) {
        const page = await readShuffledPage(params(seed, 30, { position }), reader, recent);
        seen.push(...page.items.map((item) => item.id));
        expect(page.last?.start, 'the walk keeps the offset as its start').to.deep.equal([shuffleOf(seed).offset, 0]);
        position = page.items.length === 30 && seen.length < page.total ? { ...page.last!, total: page.total, depth: seen.length } : undefined;
      }
      expect(seen, seed).to.deep.equal(round);
    }
  });

  it('when the skip-th wallpaper from the offset up lies below the top, then walks by cursor and by number start there and take each wallpaper once', async () => {
    const ids = range(2500);
    // Seeds whose skip-th wallpaper from the offset up lies below the top, and one past it (abc).
    for (const seed of ['tide42', 'reef7', 'Z9', 'abc', 'b']) {
      for (const perPage of [3, 100]) {
        const { reader, cycle } = catalogue(ids, seed);
        recent.totals.set('the query', 2500);
        expect(await walkByCursor(reader, seed, perPage), `${seed} by cursor`).to.deep.equal(cycle);
        expect(await walkByNumber(reader, seed, perPage, ids.length), `${seed} by number`).to.deep.equal(cycle);
      }
    }
  });

  it('when pages by number reach the result window, then their ranks are read from the start and none is refused', async () => {
    // A window of 400: every page the edge lets through (one that starts within it) is served, the
    // deepest without reading the skip's ranks on top of their own. The index serves a page past
    // the window (index-mappings: max_result_window is the window and 100), and no read goes further.
    for (const seed of ['tide42', 'reef7', 'Z9', 'abc', 'b']) {
      for (const perPage of [1, 7, 20, 30]) {
        const { reader, cycle, reads } = catalogue(range(2500), seed, { window: 400 + 100 });
        recent.totals.set('the query', 2500);
        const served = Math.ceil(400 / perPage) * perPage;
        expect(await walkByNumber(reader, seed, perPage, 2500, 400), `${seed}, ${perPage} a page`).to.deep.equal(cycle.slice(0, served));
        expect(
          reads.some((read) => 'since' in read && read.since !== undefined),
          `${seed}: a deep page read from the start`,
        ).to.equal(true);
      }
    }
  });

  it('when a catalogue has no keys and counts as large, then a page gives up after a few reads and is scored', async () => {
    for (const page of [1, 3]) {
      const { reader, reads } = catalogue(range(300), 'reef7', { keyed: false });
      recent.totals.set('the query', 300);
      const result = await readShuffledPage(params('reef7', 5, { page }), reader, recent);
      expect(result.items.map((item) => item.id)).to.deep.equal([SCORED]);
      expect(reads.length, `page ${page}: ${reads.map((read) => read.read).join(', ')}`).to.be.at.most(page === 1 ? 6 : 8);
    }
  });

  it('when page 1 of one wallpaper is asked with many seeds, then every wallpaper comes first about equally often', async () => {
    const ids = range(2000);
    // One catalogue per key: a read depends on the key, not on the seed's offset or skip.
    const byKey = new Map<number, ReturnType<typeof catalogue>>();
    for (let n = 0; byKey.size < 4; n++) {
      const seed = `key${n}`;
      if (!byKey.has(shuffleOf(seed).key)) byKey.set(shuffleOf(seed).key, catalogue(ids, seed));
    }
    const firsts = new Map<number, number>();
    const draws = 20_000;
    for (let n = 0; n < draws; n++) {
      const seed = `draw${n}`;
      recent.totals.set('the query', 2000);
      const page = await readShuffledPage(params(seed, 1), byKey.get(shuffleOf(seed).key)!.reader, recent);
      const first = page.items[0]!.id;
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    const counts = ids.map((id) => firsts.get(id) ?? 0);
    const mean = draws / ids.length;
    const cv = Math.sqrt(counts.reduce((sum, count) => sum + (count - mean) ** 2, 0) / ids.length) / mean;
    // An even draw gives about 0.32 here (10 draws each); starting at the offset gave 1.0 and more,
    // a wallpaper coming first in proportion to the gap below its key.
    expect(cv).to.be.below(0.45);
  });

  it('when the catalogue was loaded before the keys, then page 1 and numbered pages are scored instead', async () => {
    for (const seenLarge of [false, true]) {
      if (seenLarge) recent.totals.set('the query', 5_000_000);
      const { reader, reads } = catalogue(range(30), 'reef7', { keyed: false });
      expect((await readShuffledPage(params('reef7', 5), reader, recent)).items.map((item) => item.id)).to.deep.equal([SCORED]);
      expect((await readShuffledPage(params('reef7', 5, { page: 3 }), reader, recent)).items.map((item) => item.id)).to.deep.equal([SCORED]);
      expect(reads.at(-1)!.read).to.equal('scored');
    }
  });

  it('when a cursor of a walk begun by score comes, then the walk goes on by score', async () => {
    const { reader, reads } = catalogue(range(30), 'reef7');
    await readShuffledPage(params('reef7', 5, { position: { index: 'cat-1', after: [0.42, 7], total: 30 } }), reader, recent);
    expect(reads.map((read) => read.read)).to.deep.equal(['scored']);
  });
});

describe('shuffle keys', () => {
  it('when keys are derived, then they are the same for the same id, differ between keys, and are never NO_KEY', () => {
    for (const id of [1, 2, 3, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1]) {
      const keys = [0, 1, 2, 3].map((key) => shuffleKey(id, key));
      expect(keys).to.deep.equal([0, 1, 2, 3].map((key) => shuffleKey(id, key)));
      expect(new Set(keys).size).to.equal(4);
      for (const value of keys) expect(Number.isInteger(value) && value >= -(2 ** 31) && value < NO_KEY).to.equal(true);
    }
    expect(shuffleKey(1, 0)).to.not.equal(shuffleKey(1 + 2 ** 32, 0));
  });

  it('when 100,000 ids are keyed, then each key spreads them evenly over its range and apart from the id order', () => {
    for (const key of [0, 1, 2, 3]) {
      const buckets = new Array<number>(16).fill(0);
      let ascending = 0;
      for (let id = 1; id <= 100_000; id++) {
        buckets[(shuffleKey(id, key) >>> 0) >>> 28]!++;
        if (id > 1 && shuffleKey(id, key) > shuffleKey(id - 1, key)) ascending++;
      }
      for (const count of buckets) expect(count).to.be.within(6250 * 0.95, 6250 * 1.05);
      expect(ascending / 100_000).to.be.within(0.49, 0.51);
    }
  });

  it('when seeds differ, then they pick every key and offsets spread over the range', () => {
    const shuffles = range(400).map((n) => shuffleOf(`seed${n}`));
    expect(new Set(shuffles.map((s) => s.key))).to.deep.equal(new Set([0, 1, 2, 3]));
    expect(new Set(shuffles.map((s) => s.offset)).size).to.equal(400);
    expect(shuffleOf('tide42')).to.deep.equal(shuffleOf('tide42'));
  });
});
