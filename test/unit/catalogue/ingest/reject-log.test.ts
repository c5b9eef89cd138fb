import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openRejectLog } from '../../../../src/catalogue/ingest/reject-log.js';

describe('openRejectLog', () => {
  let dir: string;
  let path: string;
  const reject = { line: 3, id: 9, code: 'invalid_json' as const, reason: 'not JSON', text: 'x' };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reject-log-'));
    path = join(dir, 'w.ndjson.rejects.ndjson');
    writeFileSync(path, '{"line":1}\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when the run rejects a line, then the file holds this run alone', async () => {
    const log = openRejectLog(path);
    log.begin();
    await log.write(reject);
    await log.close();
    expect(readFileSync(path, 'utf8')).to.equal(`${JSON.stringify(reject)}\n`);
    expect(log.count).to.equal(1);
  });

  it('when the run read its input and rejected nothing, then an earlier run file is removed', async () => {
    const log = openRejectLog(path);
    log.begin();
    await log.close();
    expect(existsSync(path)).to.equal(false);
  });

  it('when the run begins reading, then an earlier run file is gone at once, so a run killed before its first reject leaves none', () => {
    openRejectLog(path).begin();
    expect(existsSync(path)).to.equal(false);
  });

  it('when the run stopped before reading, then an earlier run file is left as it was', async () => {
    await openRejectLog(path).close();
    expect(readFileSync(path, 'utf8')).to.equal('{"line":1}\n');
  });
});
