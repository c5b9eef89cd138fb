import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { writeRecords } from '../../../../src/catalogue/cli/record-writer.js';
import type { WallpaperRecord } from '../../../../src/wallpapers/wallpaper.js';

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
});
