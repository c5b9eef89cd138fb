import { Readable } from 'node:stream';
import { expect } from 'chai';
import { NdjsonRecords, type Reject } from '../../../../src/catalogue/ingest/ndjson-records.js';
import { recordLine } from '../../../support/record-lines.js';

const record = recordLine;

async function read(text: string) {
  const rejects: Reject[] = [];
  const records = new NdjsonRecords(Readable.from([text]), (reject) => void rejects.push(reject));
  const ids: number[] = [];
  for await (const doc of records.documents()) ids.push(doc.id);
  return { ids, rejects, records };
}

describe('NdjsonRecords', () => {
  it('when every line is a valid record, then each is yielded in order and nothing is rejected', async () => {
    const { ids, rejects, records } = await read(`${record(1)}\n${record(2)}\n${record(3)}\n`);
    expect(ids).to.deep.equal([1, 2, 3]);
    expect(rejects).to.deep.equal([]);
    expect(records).to.include({ lines: 3, accepted: 3, rejected: 0 });
  });

  it('when a line is not UTF-8, is longer than a record can be, or names a field twice, then it is rejected saying so, and later lines keep their numbers', async () => {
    const latin1 = Buffer.from(`${record(2).replace('"title":"', '"title":"Caf\xe9 ')}\n`, 'latin1');
    const twice = record(3).replace('{', '{"id":33,');
    const withCr = record(5).replace('{', '{\r');
    const rejects: Reject[] = [];
    const input = Readable.from([
      Buffer.from(`${record(1)}\n`),
      latin1,
      Buffer.from(`${'x'.repeat(2 * 1024 * 1024)}\n${twice}\n${withCr}\n${record(6)}\n`),
    ]);
    const records = new NdjsonRecords(input, (reject) => void rejects.push(reject));
    const ids: number[] = [];
    for await (const doc of records.documents()) ids.push(doc.id);
    expect(ids).to.deep.equal([1, 5, 6]);
    expect(rejects.map((r) => [r.line, r.code])).to.deep.equal([
      [2, 'not_utf8'],
      [3, 'line_too_long'],
      [4, 'invalid_json'],
    ]);
    expect(rejects[1]!.reason).to.match(/^line of 2097152 bytes, longer than 1048576/);
    expect(rejects[2]!.reason).to.equal('invalid JSON: the name "id" appears twice in one object');
    expect(records).to.include({ lines: 6, accepted: 3, rejected: 3 });
  });

  it('when an id repeats, then the later line is rejected naming the line of the first', async () => {
    const { ids, rejects } = await read(`${record(1)}\n${record(2)}\n${record(1)}\n`);
    expect(ids).to.deep.equal([1, 2]);
    expect(rejects).to.deep.equal([{ line: 3, id: 1, code: 'duplicate_id', reason: 'duplicate id 1, first seen on line 1', text: record(1) }]);
  });

  it('when an invalid line carries an id, then a later valid record with that id is accepted', async () => {
    const broken = record(5).replace('"nature"', '"nope"');
    const { ids, rejects } = await read(`${broken}\n${record(5)}\n`);
    expect(ids).to.deep.equal([5]);
    expect(rejects.map((r) => [r.line, r.id, r.code])).to.deep.equal([[1, 5, 'invalid_record']]);
  });

  it('when lines are blank or whitespace, then each is reported as blank_line with its number', async () => {
    const { ids, rejects } = await read(`${record(1)}\n\n   \n${record(2)}\n`);
    expect(ids).to.deep.equal([1, 2]);
    expect(rejects.map((r) => [r.line, r.code, r.text])).to.deep.equal([
      [2, 'blank_line', ''],
      [3, 'blank_line', '   '],
    ]);
  });

  it('when the file has CRLF line ends, a byte order mark and no final newline, then all records are read', async () => {
    const { ids, rejects, records } = await read(`\uFEFF${record(1)}\r\n${record(2)}\r\n${record(3)}`);
    expect(ids).to.deep.equal([1, 2, 3]);
    expect(rejects).to.deep.equal([]);
    expect(records.lineOf(3)).to.equal(3);
  });

  it('when the input fails while being read, then the documents end with its error', async () => {
    const input = new Readable({ read() {} });
    const records = new NdjsonRecords(input, () => undefined);
    const ids: number[] = [];
    input.push(`${record(1)}\n`);
    setImmediate(() => input.destroy(new Error('EIO: read failed')));
    const error = await (async () => {
      for await (const doc of records.documents()) ids.push(doc.id);
    })().catch((e: unknown) => e);
    expect((error as Error).message).to.equal('EIO: read failed');
    expect(ids).to.deep.equal([1]);
  });
});
