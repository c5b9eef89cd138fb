import { expect } from 'chai';
import { share } from '../../../../src/infra/shared-result.js';
import type { CataloguedWallpaper } from '../../../../src/wallpapers/catalogued.js';
import type { ListParams } from '../../../../src/wallpapers/params.js';
import type { Direction, WindowRead } from '../../../../src/wallpapers/store/build-queries.js';
import type { Page } from '../../../../src/wallpapers/store/repository.js';
import { type Extent, Ladder, type WindowReader, readWindowedPage } from '../../../../src/wallpapers/store/windowed-pages.js';

interface Doc {
  id: number;
  at: number;
}

/**
 * Elasticsearch's answers to each read over `docs` (`at` being the order's leading field): in the
 * order of sort=oldest (up: `at`, then id) or sort=downloads (down: `at` descending, then id).
 */
function catalogue(docs: readonly Doc[], direction: Direction = 'up') {
  const up = direction === 'up';
  const sorted = [...docs].sort((a, b) => (up ? a.at - b.at : b.at - a.at) || a.id - b.id);
  const reads: WindowRead[] = [];
  const pageOf = (found: readonly Doc[], total: number): Page => {
    const last = found.at(-1);
    const items = found.map((doc) => ({ id: doc.id, created_at: String(doc.at) }) as CataloguedWallpaper);
    return { items, total, ...(last === undefined ? {} : { last: { index: 'cat-1', after: [last.at, last.id] } }) };
  };
  // Whether `a` comes after `b` in the leading field's order, and within a window from `from` to `end`.
  const beyond = (a: number, b: number) => (up ? a > b : a < b);
  const within = (at: number, from: number | undefined, end: number | null) =>
    (from === undefined || at === from || beyond(at, from)) && (end === null || at === end || beyond(end, at));
  const reader = (params: ListParams): WindowReader => {
    const after = (list: readonly Doc[]) => {
      const position = params.position;
      if (!position) return list.slice((params.page - 1) * params.per_page);
      const [at, id] = position.after.map(Number) as [number, number];
      return list.filter((doc) => beyond(doc.at, at) || (doc.at === at && doc.id > id));
    };
    return async (read) => {
      reads.push(read);
      switch (read.read) {
        case 'count':
          return share(pageOf([], docs.length));
        case 'window':
        case 'held': {
          const from = params.position ? Number(params.position.after[0]) : undefined;
          const inWindow = sorted.filter((doc) => within(doc.at, from, read.end));
          return share(pageOf(read.read === 'held' ? [] : after(inWindow).slice(0, params.per_page), inWindow.length));
        }
      }
    };
  };
  const ats = docs.map((doc) => doc.at);
  const extent: Extent = { lowest: Math.min(...ats), highest: Math.max(...ats), count: docs.length };
  return { reader, reads, sorted, extent };
}

const bounded = (reads: WindowRead[]) => reads.filter((read) => read.read === 'window' && read.end !== null);
const probes = (reads: WindowRead[]) => reads.filter((read) => read.read === 'held');
const open = (reads: WindowRead[]) => reads.filter((read) => read.read === 'window' && read.end === null);

const params = (perPage: number, more: Partial<ListParams> = {}): ListParams => ({ page: 1, per_page: perPage, sort: 'oldest', ...more });

/** 5,000 wallpapers whose dates crowd towards the newest (a tenth as dense at the start), many sharing a second. */
function unevenDocs(count = 5000): Doc[] {
  return Array.from({ length: count }, (_, i) => ({ id: count - i, at: Math.floor(1_000_000 * Math.sqrt(i / count)) - (i % 7) }));
}

/** Downloads with a long tail, many shared: most wallpapers have few, a handful millions. */
function longTailDocs(count = 5000): Doc[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, at: Math.floor(10 ** (((i * 7919) % count) / (count / 6.5))) }));
}

describe('sort=oldest and sort=downloads pages read within a window of their leading field', () => {
  for (const [direction, docs] of [
    ['up', unevenDocs()],
    ['down', longTailDocs()],
  ] as const) {
    it(`when pages are read by number and by cursor (${direction}), then each equals the whole order, with the total counted apart`, async () => {
      const { reader, sorted, extent } = catalogue(docs, direction);
      const scale = { value: 1 };
      const ladder = new Ladder();
      for (const perPage of [7, 100]) {
        for (const page of [1, 2, 3, 17, 40, 48, 50]) {
          const at = params(perPage, { page });
          const found = await readWindowedPage(at, reader(at), { extent, direction, matches: 5000, known: true, scale, ladder });
          const expected = sorted.slice((page - 1) * perPage, page * perPage).map((doc) => doc.id);
          expect(
            found.items.map((item) => item.id),
            `page ${page} of ${perPage}`,
          ).to.deep.equal(expected);
          expect(found.total).to.equal(5000);
        }
        const walked: number[] = [];
        let last: Page['last'];
        while (walked.length < sorted.length) {
          const at = params(perPage, last ? { position: { ...last, total: 5000, depth: walked.length } } : {});
          const found = await readWindowedPage(at, reader(at), { extent, direction, matches: 5000, known: true, scale, ladder });
          if (found.items.length === 0) break;
          walked.push(...found.items.map((item) => item.id));
          last = found.last;
        }
        expect(walked, `walk of ${perPage}`).to.deep.equal(sorted.map((doc) => doc.id));
      }
    });
  }

  it('when a window falls short, then a wider one follows, and the same page asked again takes one window', async () => {
    const { reader, reads, extent } = catalogue(unevenDocs());
    const scale = { value: 1 };
    const ladder = new Ladder();
    await readWindowedPage(params(20), reader(params(20)), { extent, direction: 'up', matches: 5000, known: true, scale, ladder });
    expect(bounded(reads).length).to.be.greaterThan(1);
    expect(open(reads)).to.have.length(0);
    expect(scale.value).to.be.greaterThan(1);
    reads.length = 0;
    await readWindowedPage(params(20), reader(params(20)), { extent, direction: 'up', matches: 5000, known: true, scale, ladder });
    expect(reads.map((read) => read.read).sort()).to.deep.equal(['count', 'window']);
    expect(open(reads)).to.have.length(0);
  });

  it('when windows keep falling short, then they grow until one reaches past the newest date, which has no end', async () => {
    // One wallpaper apart from the rest at the start, and the others at the newest date: no window
    // short of the newest holds a second.
    const docs = [{ id: 1, at: 0 }, ...Array.from({ length: 999 }, (_, i) => ({ id: i + 2, at: 1_000_000 }))];
    const { reader, reads, extent } = catalogue(docs);
    const found = await readWindowedPage(params(20), reader(params(20)), {
      extent,
      direction: 'up',
      matches: 1000,
      known: true,
      scale: { value: 1 },
      ladder: new Ladder(),
    });
    expect(found.items.map((item) => item.id)).to.deep.equal([1, ...Array.from({ length: 19 }, (_, i) => i + 2)]);
    expect(bounded(reads).length).to.be.within(1, 10);
    expect(open(reads)).to.have.length(1);
  });

  it('when the query matches fewer than a page, then the window that holds them all is the last page', async () => {
    const { reader, reads, extent } = catalogue(unevenDocs(12));
    // Sized by a total seen before the catalogue shrank: the first window holds all twelve.
    const stale = {
      extent: { ...extent, highest: 10 ** 9 },
      direction: 'up' as const,
      matches: 10 ** 6,
      known: true,
      scale: { value: 1 },
      ladder: new Ladder(),
    };
    const found = await readWindowedPage(params(20), reader(params(20)), stale);
    expect(found.items).to.have.length(12);
    expect(open(reads)).to.have.length(0);
  });

  it('when the window would reach past the newest date, then it has no end', async () => {
    const { reader, reads, extent } = catalogue(unevenDocs(30));
    await readWindowedPage(params(20), reader(params(20)), {
      extent,
      direction: 'up',
      matches: 30,
      known: true,
      scale: { value: 1 },
      ladder: new Ladder(),
    });
    expect(reads.map((read) => read.read).sort()).to.deep.equal(['count', 'window']);
    expect(open(reads)).to.have.length(1);
  });

  it('when a walk moves from sparse dates to crowded ones, then its windows narrow and pages keep to one read', async () => {
    const { reader, reads, sorted, extent } = catalogue(unevenDocs(20_000));
    const scale = { value: 1 };
    const ladder = new Ladder();
    let last: Page['last'];
    const perPage = 50;
    const readsPerPage: number[] = [];
    for (let depth = 0; depth < 10_000; depth += perPage) {
      const at = params(perPage, last ? { position: { ...last, total: 20_000, depth } } : {});
      const before = reads.length;
      const found = await readWindowedPage(at, reader(at), { extent, direction: 'up', matches: 20_000, known: true, scale, ladder });
      expect(found.items.map((item) => item.id)).to.deep.equal(sorted.slice(depth, depth + perPage).map((doc) => doc.id));
      readsPerPage.push(reads.length - before - 1);
      last = found.last;
    }
    expect(open(reads)).to.have.length(0);
    const more = readsPerPage.filter((n) => n > 1).length;
    expect(more, JSON.stringify(readsPerPage)).to.be.below(readsPerPage.length / 10);
  });

  it('when the matches are a guess (a query not seen before), then what its windows held is not learned', async () => {
    const { reader, extent } = catalogue(unevenDocs());
    const scale = { value: 1 };
    // A filter matching few, sized as if it matched the whole catalogue: its windows grow a lot.
    await readWindowedPage(params(20), reader(params(20)), { extent, direction: 'up', matches: 5000, known: false, scale, ladder: new Ladder() });
    expect(scale.value).to.equal(1);
  });

  it('when a window has no end, then it teaches nothing: the scale stays what bounded windows said', async () => {
    const docs = unevenDocs();
    const { reader, extent, sorted } = catalogue(docs);
    const scale = { value: 2 };
    const ladder = new Ladder();
    // A walk past the newest date the extent knows (wallpapers imported since it was read).
    const last = sorted.at(-1)!;
    const at = params(20, { position: { index: 'cat-1', after: [last.at, last.id - 1], total: 5000, depth: 4990 } });
    await readWindowedPage(at, reader(at), {
      extent: { ...extent, highest: last.at - 1 },
      direction: 'up',
      matches: 5000,
      known: true,
      scale,
      ladder,
    });
    expect(scale.value).to.equal(2);
  });

  it('when one wallpaper is decades older than the rest, then empty windows grow until they reach the rest, not to the newest', async () => {
    const rest = unevenDocs().map((doc) => ({ ...doc, at: doc.at + 10 ** 9 }));
    const { reader, reads, sorted, extent } = catalogue([{ id: 99_999, at: 0 }, ...rest]);
    const found = await readWindowedPage(params(20), reader(params(20)), {
      extent,
      direction: 'up',
      matches: 5001,
      known: true,
      scale: { value: 1 },
      ladder: new Ladder(),
    });
    expect(found.items.map((item) => item.id)).to.deep.equal(sorted.slice(0, 20).map((doc) => doc.id));
    expect(open(reads)).to.have.length(0);
    expect(bounded(reads)).to.have.length(2);
    expect(probes(reads).length).to.be.within(1, 24);
    // The window read holds the page and not much of the rest.
    const last = bounded(reads).at(-1) as { end: number };
    expect(sorted.filter((doc) => doc.at <= last.end).length).to.be.below(8 * 100);
  });

  it('when the walk knows its total already, then no count is read', async () => {
    const { reader, reads, sorted, extent } = catalogue(unevenDocs());
    const last = sorted[99]!;
    const at = params(20, { position: { index: 'cat-1', after: [last.at, last.id], total: 5000, depth: 100 } });
    const found = await readWindowedPage(at, reader(at), {
      extent,
      direction: 'up',
      matches: 5000,
      known: true,
      scale: { value: 1 },
      ladder: new Ladder(),
      total: 5000,
    });
    expect(found.total).to.equal(5000);
    expect(reads.filter((read) => read.read === 'count')).to.have.length(0);
  });

  it('when pages by number go deep into a long tail, then the next depth starts from the ladder its counts left, in one window', async () => {
    const { reader, reads, sorted, extent } = catalogue(longTailDocs(), 'down');
    const sizing = { extent, direction: 'down' as const, matches: 5000, known: true, scale: { value: 1 }, ladder: new Ladder() };
    await readWindowedPage(params(20, { page: 100 }), reader(params(20, { page: 100 })), sizing);
    reads.length = 0;
    for (const page of [101, 110, 120]) {
      const at = params(20, { page });
      const found = await readWindowedPage(at, reader(at), sizing);
      expect(found.items.map((item) => item.id)).to.deep.equal(sorted.slice((page - 1) * 20, page * 20).map((doc) => doc.id));
    }
    expect(reads.map((read) => read.read).sort()).to.deep.equal(['count', 'count', 'count', 'window', 'window', 'window']);
  });
});

describe('a ladder of counted spans', () => {
  it('when a span counted holds the room and not eight times more, then it is the span', () => {
    const ladder = new Ladder();
    ladder.add(10, 5);
    ladder.add(100, 150);
    ladder.add(1000, 5000);
    expect(ladder.spanFor(100)).to.equal(100);
    expect(ladder.spanFor(6000)).to.equal(undefined);
  });

  it('when the first span that holds the room holds far more, then the span is between it and the one below, in proportion', () => {
    const ladder = new Ladder();
    ladder.add(1000, 1);
    ladder.add(2000, 10_001);
    expect(ladder.spanFor(101)).to.equal(1010);
  });
});
