import { Readable } from 'node:stream';
import { expect } from 'chai';
import { NdjsonRecords, type Reject } from '../../../../src/catalogue/ingest/ndjson-records.js';
import { checkRecord } from '../../../../src/catalogue/ingest/wallpaper-record.js';
import { isDeletion } from '../../../../src/wallpapers/wallpaper.js';
import { recordLine } from '../../../support/record-lines.js';

const record = recordLine;

describe('deletion lines', () => {
  it('when deletions are accepted and the line is exactly {id, deleted: true}, then it is a deletion', () => {
    expect(checkRecord('{"id": 7, "deleted": true}', { deletions: true })).to.deep.equal({ ok: true, deletion: { id: 7, deleted: true } });
  });

  it('when a deletion line comes where deletions are not accepted (a full import), then it is rejected saying why', () => {
    const verdict = checkRecord('{"id": 7, "deleted": true}');
    expect(verdict).to.include({ ok: false, code: 'invalid_record', id: 7 });
    expect((verdict as { reason: string }).reason).to.match(/^a deletion needs --incremental/);
  });

  it('when a deletion line is malformed, then every problem is named', () => {
    const verdict = checkRecord('{"id": -1, "deleted": "yes", "title": "x"}', { deletions: true }) as { reason: string };
    expect(verdict.reason.split('; ')).to.deep.equal([
      'deleted must be true',
      'id must be a positive safe integer',
      'a deletion has only id and deleted, not "title"',
    ]);
  });

  it('when records and deletions are read together, then they come in the order of the file and an id is taken once', async () => {
    const rejects: Reject[] = [];
    const text = [record(1), '{"id": 2, "deleted": true}', record(3), '{"id": 1, "deleted": true}'].join('\n');
    const records = new NdjsonRecords(Readable.from([text]), (reject) => void rejects.push(reject), { deletions: true });
    const seen: string[] = [];
    for await (const entry of records.documents()) seen.push(`${isDeletion(entry) ? 'delete' : 'upsert'} ${entry.id}`);
    expect(seen).to.deep.equal(['upsert 1', 'delete 2', 'upsert 3']);
    expect(rejects.map((r) => [r.line, r.code])).to.deep.equal([[4, 'duplicate_id']]);
  });
});
