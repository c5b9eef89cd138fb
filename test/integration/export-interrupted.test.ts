import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { finished, spawnScript } from '../support/catalogue-cli.js';
import { until } from '../support/until.js';

describe('npm run export, interrupted', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'wpc-export-interrupted-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when a demo export to a file is told to stop, then it stops with 130, says the file was not written, and leaves nothing behind', async () => {
    // Millions of records: minutes of writing, stopped once the first megabytes are out.
    const child = spawnScript('export', ['--count', '5000000', '--out', 'demo.ndjson'], { cwd: dir });
    child.stdin.end();
    const done = finished(child);
    const writing = await until(async () => readdirSync(dir).some((name) => name.startsWith('demo.ndjson.partial-')), 30_000);
    expect(writing, 'the export began writing').to.equal(true);
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.status, stopped.stderr).to.equal(130);
    expect(stopped.stderr).to.match(/SIGINT received: stopping and cleaning up/);
    expect(stopped.stderr).to.match(/interrupted by SIGINT; \S*demo\.ndjson not written/);
    expect(existsSync(join(dir, 'demo.ndjson'))).to.equal(false);
    expect(readdirSync(dir)).to.deep.equal([]);
  });
});
