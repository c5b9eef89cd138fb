import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import { readIndexDefinition } from '../../src/catalogue/admin/index-admin.js';
import { StampScan, pageInIdOrder, walkInIdOrder } from '../../src/catalogue/admin/stamp-scan.js';
import type { ChangeStamp } from '../../src/wallpapers/wallpaper.js';
import { connectEs, uniqueName } from '../support/harness.js';

// Ids 1..25,000 but every 7th (gaps), none from 25,001 to 35,000 (a gap wider than a page), then to 40,000;
// every 11th loaded before the change feed (no stamp).
const HIGHEST = 40_000;
const held = (id: number) => id % 7 !== 0 && (id < 25_001 || id > 40_000 - 5_000) && id <= HIGHEST;
const stampOf = (id: number): ChangeStamp =>
  id % 11 === 0 ? { seq: 0, at: '', hash: '' } : { seq: id * 10, at: new Date(1_700_000_000_000 + id * 1000).toISOString(), hash: `h${id}` };

describe('stamp lookups of a load (StampScan), on a real index', function () {
  this.timeout(120_000);
  const es = connectEs(undefined, 60_000);
  const index = uniqueName('test-stamp-scan');
  let searches = 0;
  es.diagnostic.on('request', (_err, event) => {
    if (event?.meta.request.params.path.includes('/_search')) searches++;
  });

  /** An index as the catalogue tools make one, without replicas; `properties` in place of the mapping's. */
  async function createIndex(name: string, properties?: Record<string, estypes.MappingProperty>): Promise<void> {
    const { settings, mappings } = readIndexDefinition();
    await es.indices.create({
      index: name,
      settings: { ...settings, number_of_replicas: 0 },
      mappings: { ...mappings, properties: properties ?? mappings.properties },
    });
  }

  before(async () => {
    await createIndex(index);
    const ids = Array.from({ length: HIGHEST + 10 }, (_, i) => i + 1).filter(held);
    for (let i = 0; i < ids.length; i += 5000) {
      const operations = ids.slice(i, i + 5000).flatMap((id) => {
        const stamp = stampOf(id);
        const doc = stamp.seq === 0 ? { id } : { id, change_seq: stamp.seq, changed_at: stamp.at, content_hash: stamp.hash };
        return [{ index: { _id: String(id) } }, doc];
      });
      const response = await es.bulk({ index, operations, refresh: false });
      expect(response.errors, 'the fixture was indexed').to.equal(false);
    }
    await es.indices.refresh({ index });
  });

  after(async () => {
    await es.indices.delete({ index }, { ignore: [404] });
    await es.close();
  });

  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  function expectStamps(ids: readonly number[], found: Map<number, ChangeStamp>): void {
    const expected = new Map(ids.filter(held).map((id) => [id, stampOf(id)]));
    expect(found.size, 'how many of the batch the index holds').to.equal(expected.size);
    for (const [id, stamp] of expected) expect(found.get(id), `the stamp of ${id}`).to.deep.equal(stamp);
  }

  it('when a load comes in id order, then every batch gets its stamps and each page of the index is read once', async () => {
    const scan = new StampScan(es, index);
    const before = searches;
    for (let from = 1; from <= 25_000; from += 2000) {
      const ids = range(from, Math.min(from + 1999, 25_000));
      expectStamps(ids, await scan.lookup(ids));
    }
    // 21,429 ids held up to 25,000: three pages, and the page asked for ahead of the next batch.
    expect(searches - before).to.be.at.most(4);
  });

  it('when a load has read pages, then it knows every id they held and the ranges they covered whole', async () => {
    const scan = new StampScan(es, index, true);
    for (const ids of [range(101, 2000), range(2001, 4000), range(36_001, 38_000)]) await scan.lookup(ids);
    const { ids, spans } = scan.readSoFar();
    // Nothing below the first batch; from there pages of 10,000 ids held; the gap's walk to the end.
    expect(spans[0]![0]).to.equal(100);
    expect(spans.at(-1)![1]).to.equal(Number.POSITIVE_INFINITY);
    const inSpans = (id: number) => spans.some(([after, upTo]) => id > after && id <= upTo);
    const heldInSpans = range(1, HIGHEST).filter((id) => held(id) && inSpans(id));
    expect([...ids]).to.deep.equal(heldInSpans);
    expect(inSpans(100)).to.equal(false);
    const forgetful = new StampScan(es, index);
    await forgetful.lookup(range(101, 2000));
    expect(forgetful.readSoFar(), 'an incremental load keeps nothing').to.deep.equal({ ids: new Float64Array(0), spans: [] });
  });

  it('when batches are sent concurrently, then each gets its own stamps', async () => {
    const scan = new StampScan(es, index);
    const batches = [range(1, 2000), range(2001, 4000), range(4001, 6000), range(6001, 8000)];
    const found = await Promise.all(batches.map((ids) => scan.lookup(ids)));
    batches.forEach((ids, i) => expectStamps(ids, found[i]!));
  });

  it('when the load jumps over a gap wider than a page, goes back, or runs past the highest id, then its stamps are still right', async () => {
    const scan = new StampScan(es, index);
    for (const ids of [range(1, 2000), range(36_001, 38_000), range(2001, 4000), range(39_001, 41_000), range(41_001, 43_000)]) {
      expectStamps(ids, await scan.lookup(ids));
    }
  });

  it('when a batch is out of order, repeats an id or is scattered over many pages, then it is asked for by id and still right', async () => {
    const scan = new StampScan(es, index);
    const scattered = range(1, 3000).map((i) => (i * 13) % HIGHEST || 1);
    for (const ids of [[5, 3, 9, 1], [4, 4, 8], [...new Set(scattered)].sort((a, b) => a - b)]) {
      expectStamps([...new Set(ids)], await scan.lookup(ids));
    }
  });

  it('when a batch is larger than the result window and asked for by id, then every stamp is found', async () => {
    const scan = new StampScan(es, index);
    const ids = range(1, 25_000).reverse();
    expectStamps(ids, await scan.lookup(ids));
  });

  it('when the index was made before the change feed (no stamp in its mapping), then every id it holds is found, without a stamp', async () => {
    const bare = uniqueName('test-stamp-scan-bare');
    const { change_seq: _seq, changed_at: _at, content_hash: _hash, ...properties } = readIndexDefinition().mappings.properties!;
    await createIndex(bare, properties);
    try {
      const ids = range(1, 12_000).filter(held);
      for (let i = 0; i < ids.length; i += 5000) {
        await es.bulk({ index: bare, operations: ids.slice(i, i + 5000).flatMap((id) => [{ index: { _id: String(id) } }, { id }]) });
      }
      await es.indices.refresh({ index: bare });
      const none: ChangeStamp = { seq: 0, at: '', hash: '' };
      const inOrder = await new StampScan(es, bare).lookup(range(1, 12_000));
      const byId = await new StampScan(es, bare).lookup([11_000, 5, 3]);
      expect(
        [...inOrder.keys()].sort((a, b) => a - b),
        'walked in id order',
      ).to.deep.equal(ids);
      expect([...inOrder.values()].every((stamp) => JSON.stringify(stamp) === JSON.stringify(none))).to.equal(true);
      expect(byId, 'asked for by id').to.deep.equal(
        new Map(
          [
            [11_000, none],
            [5, none],
            [3, none],
          ].filter(([id]) => held(id as number)) as [number, ChangeStamp][],
        ),
      );
    } finally {
      await es.indices.delete({ index: bare }, { ignore: [404] });
    }
  });

  it('when stamps are partial or at the ends of time, then each is read as the document holds it, and a page from an id leaves that id out', async () => {
    const odd = uniqueName('test-stamp-scan-odd');
    await createIndex(odd);
    // Written by hand: the importer writes all three or none, numbered from 1, at times JavaScript makes.
    const docs: [Record<string, unknown>, ChangeStamp][] = [
      [
        { change_seq: 0, changed_at: '2020-01-01T00:00:00Z', content_hash: 'a' },
        { seq: 0, at: '2020-01-01T00:00:00.000Z', hash: 'a' },
      ],
      [
        { changed_at: '2020-01-01T00:00:00Z', content_hash: 'b' },
        { seq: 0, at: '2020-01-01T00:00:00.000Z', hash: 'b' },
      ],
      [
        { change_seq: 7, content_hash: 'c' },
        { seq: 7, at: '', hash: 'c' },
      ],
      [
        { change_seq: 8, changed_at: 8.64e15, content_hash: 'd' },
        { seq: 8, at: '+275760-09-13T00:00:00.000Z', hash: 'd' },
      ],
      [
        { change_seq: 9, changed_at: '1970-01-01T00:00:00Z', content_hash: 'e' },
        { seq: 9, at: '1970-01-01T00:00:00.000Z', hash: 'e' },
      ],
      [
        { change_seq: Number.MAX_SAFE_INTEGER, changed_at: -1 },
        { seq: Number.MAX_SAFE_INTEGER, at: '1969-12-31T23:59:59.999Z', hash: '' },
      ],
      [
        { change_seq: 10, changed_at: 9e15, content_hash: 'g' },
        { seq: 10, at: '', hash: 'g' },
      ],
    ];
    try {
      await es.bulk({
        index: odd,
        refresh: true,
        operations: docs.flatMap(([doc], i) => [{ index: { _id: String(i + 1) } }, { id: i + 1, ...doc }]),
      });
      const expected = docs.map(([, stamp], i) => ({ id: i + 1, stamp }));
      const walked = [];
      for await (const page of walkInIdOrder(es, odd, true)) walked.push(...page);
      expect(walked).to.deep.equal(expected);
      for (let after = 1; after < docs.length; after++) {
        expect((await pageInIdOrder(es, odd, after, true)).entries[0]!.id, `the page after ${after}`).to.equal(after + 1);
      }
      const byId = await new StampScan(es, odd).lookup([7, 3, 1]);
      expect(byId).to.deep.equal(new Map([7, 3, 1].map((id) => [id, expected[id - 1]!.stamp])));
    } finally {
      await es.indices.delete({ index: odd }, { ignore: [404] });
    }
  });
});
