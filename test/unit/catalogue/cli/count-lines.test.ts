import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { countLines } from '../../../../src/catalogue/cli/count-lines.js';

describe('countLines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'count-lines-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const count = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return countLines(path);
  };

  it('when the last line has no newline, then it still counts', async () => {
    expect(await count('a', 'x\ny')).to.equal(2);
    expect(await count('b', 'x\ny\n')).to.equal(2);
  });

  it('when the file is empty or blank lines only, then every line counts', async () => {
    expect(await count('c', '')).to.equal(0);
    expect(await count('d', '\n\n\n')).to.equal(3);
  });
});
