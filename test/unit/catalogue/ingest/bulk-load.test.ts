import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { bulkLoad, BulkLoadError } from '../../../../src/catalogue/ingest/bulk-load.js';
import { generateWallpapers } from '../../../../src/catalogue/generation/generator.js';

type BulkParams = { index: string; operations: unknown[] };

function stubClient(bulk: (params: BulkParams, call: number) => Promise<estypes.BulkResponse>): Client {
  let calls = 0;
  return { bulk: (params: BulkParams) => bulk(params, ++calls) } as unknown as Client;
}

const docs = (count: number) => generateWallpapers({ count, seed: 1, imageBaseUrl: 'https://images.example' });

function ids(params: BulkParams): string[] {
  return params.operations.filter((_, i) => i % 2 === 0).map((op) => (op as { index: { _id: string } }).index._id);
}

function ok(params: BulkParams): estypes.BulkResponse {
  return { took: 1, errors: false, items: ids(params).map((_id) => ({ index: { _id, _index: params.index, status: 201 } })) };
}

describe('bulkLoad against a stubbed client', () => {
  it('when batches are built, then each is index action + document pairs with _id = String(id)', async () => {
    const seen: string[] = [];
    const result = await bulkLoad(
      stubClient(async (params) => {
        expect(params.operations).to.have.lengthOf(2 * ids(params).length);
        seen.push(...ids(params));
        return ok(params);
      }),
      'idx',
      docs(25),
      { batchSize: 10 },
    );
    expect(result.indexed).to.equal(25);
    expect(seen).to.have.members(Array.from({ length: 25 }, (_, i) => String(i + 1)));
  });

  it('when some items are rejected with 429, then only those are retried and end up indexed', async () => {
    const sent: string[][] = [];
    const result = await bulkLoad(
      stubClient(async (params, call) => {
        sent.push(ids(params));
        if (call > 1) return ok(params);
        return {
          took: 1,
          errors: true,
          items: ids(params).map((_id) =>
            _id === '3'
              ? { index: { _id, _index: params.index, status: 429, error: { type: 'es_rejected_execution_exception', reason: 'queue full' } } }
              : { index: { _id, _index: params.index, status: 201 } },
          ),
        };
      }),
      'idx',
      docs(5),
      { retries: 1 },
    );
    expect(sent).to.deep.equal([['1', '2', '3', '4', '5'], ['3']]);
    expect(result).to.include({ indexed: 5 });
    expect(result.failed).to.deep.equal([]);
  });

  it('when Elasticsearch stays unreachable, then the load stops with a BulkLoadError instead of dropping documents', async () => {
    let calls = 0;
    const error = await bulkLoad(
      stubClient(async () => {
        calls++;
        throw new errors.ConnectionError('connect ECONNREFUSED');
      }),
      'idx',
      docs(10),
      { retries: 1 },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(BulkLoadError);
    expect((error as BulkLoadError).indexed).to.equal(0);
    expect((error as BulkLoadError).message).to.match(/ECONNREFUSED/);
    expect(calls).to.equal(2);
  });

  it('when the response has fewer items than documents sent, then the load fails loudly', async () => {
    const error = await bulkLoad(
      stubClient(async (params) => ({ ...ok(params), items: ok(params).items.slice(1) })),
      'idx',
      docs(3),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(BulkLoadError);
  });

  it('when the source fails, then requests in flight settle before the error surfaces', async () => {
    let settled = 0;
    async function* failing() {
      yield* docs(20);
      throw new Error('disk gone');
    }
    const error = await bulkLoad(
      stubClient(async (params) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        settled++;
        return ok(params);
      }),
      'idx',
      failing(),
      { batchSize: 10, concurrency: 2 },
    ).catch((e: unknown) => e);
    expect((error as Error).message).to.equal('disk gone');
    expect(settled).to.equal(2);
  });
});
