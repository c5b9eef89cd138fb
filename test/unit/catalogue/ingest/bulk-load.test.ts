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

/** The ids of a request's documents: its lines come serialised, action then document. */
function ids(params: BulkParams): string[] {
  return params.operations.filter((_, i) => i % 2 === 0).map((op) => (JSON.parse(op as string) as { index: { _id: string } }).index._id);
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

  it('when a batch passes the bytes a request may carry, then it goes as several requests within them, each document whole, one larger alone', async () => {
    const bytes = (params: BulkParams) => params.operations.reduce((sum: number, line) => sum + Buffer.byteLength(line as string) + 1, 0);
    const requests: { ids: string[]; bytes: number }[] = [];
    const all = [...docs(30)];
    all[12] = { ...all[12]!, description: 'é'.repeat(5000) };
    const result = await bulkLoad(
      stubClient(async (params) => {
        requests.push({ ids: ids(params), bytes: bytes(params) });
        return ok(params);
      }),
      'idx',
      all,
      { batchSize: 30, maxRequestBytes: 8192 },
    );
    expect(result.indexed).to.equal(30);
    expect(requests.flatMap((r) => r.ids)).to.deep.equal(all.map((doc) => String(doc.id)));
    expect(requests.length).to.be.above(3);
    const large = requests.find((r) => r.ids.includes('13'))!;
    expect(large.ids, 'the one past the bound goes alone').to.deep.equal(['13']);
    expect(large.bytes).to.be.above(10_000);
    for (const r of requests.filter((one) => one !== large)) expect(r.bytes).to.be.at.most(8192);
  });

  it('when one request of a batch fails and is tried again, then the batch goes on from that request, the earlier ones not sent again', async () => {
    const sent: string[][] = [];
    let failedOnce = false;
    const result = await bulkLoad(
      stubClient(async (params) => {
        sent.push(ids(params));
        if (sent.length === 2 && !failedOnce) {
          failedOnce = true;
          throw new errors.ConnectionError('socket hang up');
        }
        return ok(params);
      }),
      'idx',
      docs(20),
      { batchSize: 20, maxRequestBytes: 4000, retries: 2 },
    );
    expect(result).to.include({ indexed: 20 });
    expect(sent.length, 'three requests or more, the second twice').to.be.above(3);
    expect(sent[2], 'the failed request again').to.deep.equal(sent[1]);
    expect(
      sent.flat().filter((id) => id === sent[0]![0]),
      'the first request once',
    ).to.have.length(1);
    expect([...new Set(sent.flat())]).to.have.length(20);
    expect(sent.flat()).to.have.length(20 + sent[1]!.length);
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

  it('when the source fails, then requests in flight settle before the error surfaces, and it carries what they wrote', async () => {
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
    expect(error).to.be.instanceOf(BulkLoadError);
    expect((error as BulkLoadError).cause)
      .to.be.instanceOf(Error)
      .with.property('message', 'disk gone');
    expect((error as BulkLoadError).done).to.deep.include({ indexed: 20, deleted: 0, failed: [] });
  });
});
