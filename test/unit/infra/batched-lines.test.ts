import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { batchedLines } from '../../../src/infra/batched-lines.js';

const execFileAsync = promisify(execFile);
const LOGGER = resolve(import.meta.dirname, '../../../src/infra/logger.ts');

function recorder() {
  const writes: string[] = [];
  return { writes, target: { write: (chunk: string) => writes.push(chunk) } };
}

/** Runs a module in a node process of its own, with the real logger on its standard output. */
async function runLogging(body: string): Promise<{ stdout: string; code: number }> {
  const code = `const { createLogger } = await import(${JSON.stringify(LOGGER)}); const log = createLogger('info'); ${body}`;
  try {
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code]);
    return { stdout, code: 0 };
  } catch (err) {
    const failed = err as { stdout: string; code: number };
    return { stdout: failed.stdout, code: failed.code };
  }
}

describe('batched log lines', () => {
  it('when lines arrive below the size bound, then they wait for the delay and go out in one write, in order', async () => {
    const { writes, target } = recorder();
    const lines = batchedLines(target, { maxChars: 1000, maxDelayMs: 20 });
    lines.write('a\n');
    lines.write('b\n');
    lines.write('c\n');
    expect(writes).to.deep.equal([]);
    await sleep(60);
    expect(writes).to.deep.equal(['a\nb\nc\n']);
  });

  it('when the lines held reach the size bound, then they are written at once', () => {
    const { writes, target } = recorder();
    const lines = batchedLines(target, { maxChars: 10, maxDelayMs: 10_000 });
    lines.write('12345\n');
    expect(writes).to.deep.equal([]);
    lines.write('6789\n');
    expect(writes).to.deep.equal(['12345\n6789\n']);
  });

  it('when flushed, then what is held is written and the pending delay writes nothing more', async () => {
    const { writes, target } = recorder();
    const lines = batchedLines(target, { maxChars: 1000, maxDelayMs: 20 });
    lines.write('a\n');
    lines.flush();
    expect(writes).to.deep.equal(['a\n']);
    await sleep(60);
    lines.flush();
    expect(writes, 'no empty writes').to.deep.equal(['a\n']);
  });

  it('when a line comes after a write, then it waits for a delay of its own', async () => {
    const { writes, target } = recorder();
    const lines = batchedLines(target, { maxChars: 1000, maxDelayMs: 20 });
    lines.write('a\n');
    await sleep(60);
    lines.write('b\n');
    expect(writes).to.deep.equal(['a\n']);
    await sleep(60);
    expect(writes).to.deep.equal(['a\n', 'b\n']);
  });
});

describe('the logger on standard output', function () {
  this.timeout(30_000);

  it('when the process exits at once after logging, then every line is on standard output', async () => {
    const { stdout, code } = await runLogging(`for (let i = 0; i < 500; i++) log.info('line', { i }); process.exit(3);`);
    expect(code).to.equal(3);
    const numbers = stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers).to.deep.equal(Array.from({ length: 500 }, (_, i) => i));
  });

  it('when the process dies of an uncaught exception, then the lines logged before are on standard output', async () => {
    const { stdout, code } = await runLogging(`log.info('before'); setImmediate(() => { throw new Error('boom'); });`);
    expect(code).to.equal(1);
    expect(stdout).to.contain('"msg":"before"');
  });

  it('when a warning follows info lines and the process then writes to stderr, then the three come out in that order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logger-'));
    const script = join(dir, 'order.mjs');
    writeFileSync(
      script,
      `const { createLogger } = await import(${JSON.stringify(LOGGER)}); const log = createLogger('info');
       log.info('first'); log.warn('second'); process.stderr.write('third\\n'); setTimeout(() => process.exit(0), 200);`,
    );
    try {
      const { stdout } = await execFileAsync('sh', ['-c', `"${process.execPath}" --import tsx ${script} 2>&1`]);
      const order = ['"msg":"first"', '"msg":"second"', 'third'].map((mark) => stdout.indexOf(mark));
      expect(order).to.satisfy((at: number[]) => at[0]! >= 0 && at[0]! < at[1]! && at[1]! < at[2]!);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the process logs and stays up, then its line is written within the delay', async () => {
    const { stdout } = await runLogging(
      `log.info('early'); const fs = await import('node:fs'); setTimeout(() => { fs.writeSync(1, 'marker\\n'); process.exit(0); }, 300);`,
    );
    expect(stdout.indexOf('"msg":"early"')).to.be.within(0, stdout.indexOf('marker') - 1);
  });
});
