import type { Client, estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import type { ChangeRecorder, StampedBatch } from '../../../../src/catalogue/admin/change-recorder.js';
import { bulkLoad } from '../../../../src/catalogue/ingest/bulk-load.js';
import { generateWallpapers } from '../../../../src/catalogue/generation/generator.js';
import type { LoadEntry } from '../../../../src/wallpapers/wallpaper.js';

type Operation = Record<string, { _id?: string; _index?: string }>;

/** A line of a bulk body as an object: bulkLoad sends its lines serialised. */
const parsed = (op: unknown): unknown => (typeof op === 'string' ? JSON.parse(op) : op);

/** An action line of a bulk body (a document or a tombstone has more than one field). */
const isAction = (op: unknown): op is Operation => {
  if (typeof op !== 'object' || op === null) return false;
  const keys = Object.keys(op);
  return keys.length === 1 && (keys[0] === 'index' || keys[0] === 'delete');
};

/** `kind index id`, the index the action names or else the request's. */
const describeAction = (requestIndex: string) => (action: Operation) => {
  const [kind] = Object.keys(action) as [string];
  return `${kind} ${action[kind]!._index ?? requestIndex} ${action[kind]!._id}`;
};

/** A recorder that stamps every deletion with a tombstone and marks id 2 as returning. */
type FakeRecorder = ChangeRecorder & { settledBatches: number; held: boolean[]; withdrawn: number[][] };

function recorder(es: () => Client, { withdrawing = true, fenced = false } = {}): FakeRecorder {
  let seq = 100;
  const fake = {
    changesIndex: 'cat-changes',
    settledBatches: 0,
    held: [] as boolean[],
    withdrawn: [] as number[][],
    async stamp(batch: readonly LoadEntry[]): Promise<StampedBatch> {
      const tombstones = new Map();
      for (const entry of batch)
        if ('deleted' in entry) tombstones.set(entry.id, { kind: 'delete', id: entry.id, change_seq: ++seq, changed_at: 'now' });
      return { write: [...batch], unchanged: 0, tombstones, returning: new Set([2]), seqs: [seq] };
    },
    // The catalogue lock's confirm, as the real one asks it: refused once the lock is lost.
    async beforeWrite() {
      if (fenced) throw new Error('the catalogue lock was lost');
    },
    settled(_batch: StampedBatch, _written: number[], { hold = false } = {}) {
      fake.settledBatches++;
      fake.held.push(hold);
    },
    async withdrawStanding(ids: number[]) {
      if (!withdrawing) throw new Error('the record of changes is closed');
      fake.withdrawn.push(ids);
      return ids.length;
    },
    // As the real one: one request to the changes index, the refused ids with why.
    async tryTombstones(tombstones: { id: number }[]) {
      const response = await es().bulk({ index: 'cat-changes', operations: tombstones.flatMap((t) => [{ index: { _id: String(t.id) } }, t]) });
      return new Map(response.items.flatMap((item, i) => (item.index?.error ? [[tombstones[i]!.id, item.index.error] as const] : [])));
    },
  };
  return fake as unknown as FakeRecorder;
}

describe('bulkLoad with deletions and a change recorder', () => {
  const [first, second] = [...generateWallpapers({ count: 2, seed: 1, imageBaseUrl: 'https://images.example' })];

  it('when a deletion is loaded, then its tombstone is written first, in a request of its own, and a returning id loses its tombstone', async () => {
    const requests: string[][] = [];
    const changes = recorder(() => es);
    const es = {
      bulk: async ({ index, operations }: { index: string; operations: unknown[] }): Promise<estypes.BulkResponse> => {
        const actions = operations.map(parsed).filter(isAction);
        requests.push(actions.map(describeAction(index)));
        return {
          took: 1,
          errors: false,
          items: actions.map((action) => ({ [Object.keys(action)[0]!]: { _id: '', _index: '', status: 200 } })),
        };
      },
    } as unknown as Client;
    const result = await bulkLoad(es, 'cat-1', [first!, { id: 5, deleted: true }, second!], { changes });
    expect(requests).to.deep.equal([['index cat-changes 5'], ['index cat-1 1', 'delete cat-1 5', 'index cat-1 2', 'delete cat-changes 2']]);
    expect(result).to.include({ indexed: 3, deleted: 1 });
    expect(changes.settledBatches).to.equal(1);
  });

  it('when the recorder says the run may no longer write (its lock lost), then no document is sent', async () => {
    const requests: string[][] = [];
    const es = {
      bulk: async ({ index, operations }: { index: string; operations: unknown[] }): Promise<estypes.BulkResponse> => {
        requests.push(operations.map(parsed).filter(isAction).map(describeAction(index)));
        return { took: 1, errors: false, items: [] };
      },
    } as unknown as Client;
    const changes = recorder(() => es, { fenced: true });
    const error = await bulkLoad(es, 'cat-1', [first!, second!], { changes }).catch((e: unknown) => e);
    expect(String(error)).to.include('the catalogue lock was lost');
    expect(requests).to.deep.equal([]);
  });

  it('when a tombstone is refused, then its deletion is not sent and is reported failed', async () => {
    const requests: string[][] = [];
    const es = {
      bulk: async ({ index, operations }: { index: string; operations: unknown[] }): Promise<estypes.BulkResponse> => {
        const actions = operations.map(parsed).filter(isAction);
        requests.push(actions.map(describeAction(index)));
        const refuse = requests.length === 1;
        return {
          took: 1,
          errors: refuse,
          items: actions.map(() => ({
            index: refuse
              ? { _id: '', _index: '', status: 403, error: { type: 'cluster_block_exception', reason: 'blocked' } }
              : { _id: '', _index: '', status: 200 },
          })),
        };
      },
    } as unknown as Client;
    const result = await bulkLoad(es, 'cat-1', [first!, { id: 5, deleted: true }], { changes: recorder(() => es) });
    expect(requests[1]).to.deep.equal(['index cat-1 1']);
    expect(result.failed.map((failure) => [failure.id, failure.reason])).to.deep.equal([
      [5, 'its deletion was not recorded for the change feed, so it was not deleted: cluster_block_exception: blocked'],
    ]);
  });

  /** Tombstones accepted, then every action of the batch refused as a write block would. */
  const refusingDeletes = () =>
    ({
      bulk: async ({ index }: { index: string }): Promise<estypes.BulkResponse> => ({
        took: 1,
        errors: index !== 'cat-changes',
        items: [
          index === 'cat-changes'
            ? { index: { _id: '5', _index: index, status: 201 } }
            : { delete: { _id: '5', _index: index, status: 403, error: { type: 'cluster_block_exception', reason: 'blocked' } } },
        ],
      }),
    }) as unknown as Client;

  it('when Elasticsearch refuses a deletion whose tombstone was written, then the tombstone is withdrawn before the batch lets go of its numbers', async () => {
    const es = refusingDeletes();
    const changes = recorder(() => es);
    const result = await bulkLoad(es, 'cat-1', [{ id: 5, deleted: true }], { changes });
    expect(result.failed.map((failure) => failure.id)).to.deep.equal([5]);
    expect(changes.withdrawn).to.deep.equal([[5]]);
    expect(changes.held).to.deep.equal([false]);
  });

  it('when a refused deletion`s tombstone cannot be withdrawn, then the batch holds its numbers, so the watermark never shows it', async () => {
    const es = refusingDeletes();
    const changes = recorder(() => es, { withdrawing: false });
    await bulkLoad(es, 'cat-1', [{ id: 5, deleted: true }], { changes });
    expect(changes.held).to.deep.equal([true]);
  });

  it('when a deletion`s request fails outright, then its tombstone stays and the batch holds its numbers: Elasticsearch may yet carry it out', async () => {
    const es = {
      bulk: async ({ index }: { index: string }): Promise<estypes.BulkResponse> => {
        if (index !== 'cat-changes') throw new Error('the request was cut short');
        return { took: 1, errors: false, items: [{ index: { _id: '5', _index: index, status: 201 } }] };
      },
    } as unknown as Client;
    const changes = recorder(() => es);
    const stopped = await bulkLoad(es, 'cat-1', [{ id: 5, deleted: true }], { changes, retries: 0 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).to.be.instanceOf(Error);
    expect(changes.withdrawn, 'nothing withdrawn on a guess').to.deep.equal([]);
    expect(changes.held).to.deep.equal([true]);
  });

  it('when a deletion names a wallpaper that is already gone (404), then it is no failure', async () => {
    const es = {
      bulk: async (): Promise<estypes.BulkResponse> => ({
        took: 1,
        errors: true,
        items: [{ delete: { _id: '9', _index: 'cat-1', status: 404, result: 'not_found' } }],
      }),
    } as unknown as Client;
    const result = await bulkLoad(es, 'cat-1', [{ id: 9, deleted: true }]);
    expect(result.failed).to.deep.equal([]);
    expect(result).to.include({ indexed: 1, deleted: 1 });
  });
});
