import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const MODULE = fileURLToPath(new URL('../../../../src/catalogue/cli/open-input.ts', import.meta.url));

/**
 * Runs `body` in a child with one thread in libuv's pool, so a test can hold the pool busy. A
 * child whose pool thread never returns cannot exit (libuv joins its threads at exit), so it is
 * killed at the timeout.
 */
function run(body: string): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'open-input-'));
  try {
    const script = [
      `import { openInput } from ${JSON.stringify(MODULE)};`,
      `import { execFileSync } from 'node:child_process';`,
      `import { closeSync, constants, open, openSync } from 'node:fs';`,
      `const dir = ${JSON.stringify(dir)};`,
      body,
    ].join('\n');
    const done = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
    });
    return { status: done.status, signal: done.signal, stdout: done.stdout, stderr: done.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('opening an import`s input', function () {
  this.timeout(30_000);

  it('when a run is stopped before its open of a FIFO has reached the thread pool, then the open still ends and the run is told it was stopped', () => {
    // The stop's own open of the FIFO for writing finds no reader while ours still waits its turn
    // in the pool; taken once, it left the reader's open waiting for good, and the process could
    // not exit (an import outlived its SIGTERM by 1 h 41 min).
    const done = run(`
      const held = dir + '/held.fifo', input = dir + '/input.fifo';
      execFileSync('mkfifo', [held, input]);
      const stop = new AbortController();
      const opening = openInput(input, stop.signal, () => {
        // The pool's only thread now waits on another FIFO, ahead of the input's open.
        open(held, 'r', (error, fd) => { if (!error) closeSync(fd); });
        setTimeout(() => stop.abort(new Error('stopped')), 100);
        setTimeout(() => closeSync(openSync(held, constants.O_WRONLY | constants.O_NONBLOCK)), 400);
      });
      opening.then(() => console.log('opened'), (error) => console.log('refused: ' + error.message));
    `);
    expect(done.signal, done.stderr).to.equal(null);
    expect(done.stdout.trim()).to.equal('refused: stopped');
  });

  it('when a writer opens the FIFO, then the input is read as a stream', () => {
    const done = run(`
      const input = dir + '/input.fifo';
      execFileSync('mkfifo', [input]);
      const opening = openInput(input, undefined, () => {
        // Blocks this thread until the input's open, in the pool, is there to meet it.
        setTimeout(() => closeSync(openSync(input, 'w')), 100);
      });
      const { stream, regularFile } = await opening;
      stream.resume();
      stream.on('end', () => console.log('ended, regular file: ' + regularFile));
    `);
    expect(done.signal, done.stderr).to.equal(null);
    expect(done.stdout.trim()).to.equal('ended, regular file: false');
  });
});
