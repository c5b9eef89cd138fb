import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '../../../scripts/demo-pictures.ts');

async function demoPictures(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the demo:pictures command', function () {
  this.timeout(60_000);

  it('when given an option it does not know, then it prints its usage and exits 2, with no stack trace', async () => {
    const res = await demoPictures('--bogus');
    expect(res.code).to.equal(2);
    expect(res.stderr).to.include("Unknown option '--bogus'").and.include('usage: npm run demo:pictures');
    expect(res.stderr).to.not.match(/\n\s+at /);
  });

  it('when asked for --help, then it prints its usage and exits 0 without serving', async () => {
    const res = await demoPictures('--help');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.include('usage: npm run demo:pictures');
  });
});
