import { expect } from 'chai';
import { share } from '../../../../src/infra/shared-result.js';
import type { CataloguedWallpaper } from '../../../../src/wallpapers/catalogued.js';
import type { ListParams, Position } from '../../../../src/wallpapers/params.js';
import type { ShuffledRead } from '../../../../src/wallpapers/store/build-queries.js';
import type { Page } from '../../../../src/wallpapers/store/repository.js';
import { NO_KEY, shuffleKey, shuffleOf } from '../../../../src/wallpapers/store/shuffle.js';
import { RecentTotals, type ShuffledReader, readShuffledPage } from '../../../../src/wallpapers/store/shuffled-pages.js';

const SCORED = -1;

/**
 * Elasticsearch's answers to each read, over a catalogue of `ids` on one index: keys from the ids
 * (or NO_KEY for every wallpaper of a catalogue loaded before them), sorted by key then id.
 */
function catalogue(ids: readonly number[], seed: string, { keyed = true } = {}) {
  const { key, offset } = shuffleOf(seed);
  const keyOf = (id: number) => (keyed ? shuffleKey(id, key) : NO_KEY);
  const sorted = [...ids].sort((a, b) => keyOf(a) - keyOf(b) || a - b);
  const reads: ShuffledRead[] = [];
  const pageOf = (found: readonly number[], total: number): Page => {
    const last = found.at(-1);
    const items = found.map((id) => ({ id }) as CataloguedWallpaper);
    return { items, total, ...(last === undefined ? {} : { last: { index: 'cat-1', after: [keyOf(last), last] } }) };
  };
  const reader: ShuffledReader = async (read) => {
    reads.push(read);
    switch (read.read) {
      case 'after': {
        const { after, lowest, highest } = read;
        // A counting read sorts by the key without a range: a catalogue without keys sorts all as NO_KEY.
        const inRange = read.counts ? sorted : sorted.filter((id) => keyed && keyOf(id) >= lowest && keyOf(id) <= highest);
        const past =
          after === null ? inRange : inRange.filter((id) => keyOf(id) > Number(after[0]) || (keyOf(id) === after[0] && id > Number(after[1])));
        return share(pageOf(past.slice(0, read.size), read.counts ? ids.length : 0));
      }
      case 'rank': {
        const inRange = sorted.filter((id) => keyed && keyOf(id) >= read.lowest && keyOf(id) <= read.highest);
        return share(pageOf(inRange.slice(read.from, read.from + read.size), inRange.length));
      }
      case 'count':
        return share(pageOf([], ids.length));
      case 'scored':
        return share(pageOf(ids.length > 0 ? [SCORED] : [], ids.length));
    }
  };
  // The walk the seed names: from the offset up, then from the bottom up to it.
  const cycle = [...sorted.filter((id) => keyOf(id) >= offset), ...sorted.filter((id) => keyOf(id) < offset)];
  return { reader, reads, cycle };
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
  for (let page = 1; page < 1000; page++) {
    const result = await readShuffledPage(params(seed, perPage, position ? { position } : {}), reader, recent);
    seen.push(...result.items.map((item) => item.id));
    if (!result.last || result.items.length < perPage || seen.length >= result.total) return seen;
    position = { ...result.last, total: result.total };
  }
  throw new Error('the walk did not end');
}

async function walkByNumber(reader: ShuffledReader, seed: string, perPage: number, total: number): Promise<number[]> {
  const seen: number[] = [];
  for (let page = 1; (page - 1) * perPage < total; page++) {
    seen.push(...(await readShuffledPage(params(seed, perPage, { page }), reader, recent)).items.map((item) => item.id));
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
    const ids = range(50);
    // A seed whose offset leaves only a few wallpapers above it.
    const seed = range(2000)
      .map(String)
      .find((s) => {
        const above = ids.filter((id) => shuffleKey(id, shuffleOf(s).key) >= shuffleOf(s).offset).length;
        return above > 0 && above < 10;
      })!;
    const { reader, reads, cycle } = catalogue(ids, seed);
    recent.totals.set('the query', 50);
    const page = await readShuffledPage(params(seed, 10), reader, recent);
    expect(page.items.map((item) => item.id)).to.deep.equal(cycle.slice(0, 10));
    expect(page.total).to.equal(50);
    expect(reads.map((read) => read.read)).to.deep.equal(['count', 'after', 'after']);
    expect(page.last).to.deep.include({ index: 'cat-1', shuffled: true });
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
    expect(reads.map((read) => read.read)).to.deep.equal(['scored', 'count', 'after']);
    recent = { totals: new RecentTotals(5000), key: () => 'the query' };
    recent.totals.set('the query', 1_000_000);
    const scored = await readShuffledPage(params('tide42', 5, { page: 2 }), reader, recent);
    expect(scored.items.map((item) => item.id)).to.deep.equal([SCORED]);
    expect(recent.totals.get('the query')).to.equal(1000);
  });

  it('when a query was seen large, then page 1 counts beside a span of keys sized by that total, and so does each cursor page', async () => {
    const { reader, reads } = catalogue(range(1000), 'tide42');
    recent.totals.set('the query', 1000);
    const page = await readShuffledPage(params('tide42', 5), reader, recent);
    expect(
      reads.map((read) => read.read),
      'the count and the span side by side',
    ).to.deep.equal(['count', 'after']);
    const span = reads[1] as Extract<ShuffledRead, { read: 'after' }>;
    expect(span.highest - span.lowest, 'a span expected to hold about 5 + 4·√5 + 40 of 1,000').to.be.within(2 ** 32 * 0.05, 2 ** 32 * 0.06);
    expect(page.last?.shuffled).to.equal(true);
    const next = await readShuffledPage(params('tide42', 5, { position: { ...page.last!, total: page.total, depth: 5 } }), reader, recent);
    expect(
      reads.slice(2).map((read) => read.read),
      'a cursor page counts again: an import may have added to the walk',
    ).to.deep.equal(['count', 'after']);
    expect(next.items).to.have.length(5);
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
    expect(reads.map((read) => read.read)).to.deep.equal(['count', 'after', 'after']);
  });

  it('when a span of keys falls short of a page, then the rest is read to the end of the lap, and nothing is lost', async () => {
    const { reader, reads, cycle } = catalogue(range(1000), 'tide42');
    // A total far above the truth makes every span too narrow.
    const position = { index: 'cat-1', after: [shuffleOf('tide42').offset, 0], total: 1_000_000, shuffled: true };
    const page = await readShuffledPage(params('tide42', 10, { position }), reader, recent);
    expect(page.items.map((item) => item.id)).to.deep.equal(cycle.slice(0, 10));
    expect(reads.map((read) => read.read)).to.deep.equal(['count', 'after', 'after']);
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
