import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { writeRecords } from '../../../../src/catalogue/cli/record-writer.js';
import type { WallpaperRecord } from '../../../../src/wallpapers/wallpaper.js';

const WRITER = fileURLToPath(new URL('../../../../src/catalogue/cli/record-writer.ts', import.meta.url));
const INTERRUPT = fileURLToPath(new URL('../../../../src/catalogue/cli/interrupt.ts', import.meta.url));

const record = (id: number) => ({ id, title: `Wallpaper ${id}` }) as unknown as WallpaperRecord;

describe('writing records to a file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'wpc-record-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when every record is written, then the file holds one JSON line each and nothing else is left', async () => {
    const out = join(dir, 'out.ndjson');
    expect(await writeRecords([record(1), record(2)], out)).to.equal(2);
    expect(readFileSync(out, 'utf8')).to.equal('{"id":1,"title":"Wallpaper 1"}\n{"id":2,"title":"Wallpaper 2"}\n');
    expect(readdirSync(dir)).to.deep.equal(['out.ndjson']);
  });

  it('when the records fail part way, then no file is left, not even part of one, and the failure is told', async () => {
    async function* failing() {
      for (let id = 1; id <= 30_000; id++) yield record(id);
      throw new Error('Elasticsearch went away');
    }
    const out = join(dir, 'out.ndjson');
    const error = await writeRecords(failing(), out).catch((e: unknown) => e);
    expect((error as Error).message).to.equal('Elasticsearch went away');
    expect(readdirSync(dir)).to.deep.equal([]);
  });

  it('when a second Ctrl-C quits at once while a file is written, then the temporary file goes with the process', () => {
    const out = join(dir, 'out.ndjson');
    // What an export does (trapInterrupts, then a file sink), told to stop twice before its next write.
    const script = [
      `import { existsSync } from 'node:fs';`,
      `import { openRecordSink } from ${JSON.stringify(WRITER)};`,
      `import { trapInterrupts } from ${JSON.stringify(INTERRUPT)};`,
      `trapInterrupts();`,
      `const sink = await openRecordSink(${JSON.stringify(out)});`,
      `await sink.write([{ id: 1 }]);`,
      `process.kill(process.pid, 'SIGINT');`,
      `setTimeout(() => { console.log('after one:', existsSync(${JSON.stringify(`${out}.partial-`)} + process.pid)); process.kill(process.pid, 'SIGINT'); }, 200);`,
      `setInterval(() => undefined, 1000);`,
    ].join('\n');
    const done = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
      killSignal: 'SIGKILL',
    });
    expect(done.stdout, done.stderr).to.include('after one: true');
    expect(done.status, done.stderr).to.equal(130);
    expect(readdirSync(dir)).to.deep.equal([]);
  });
});
