import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const MODULE = fileURLToPath(new URL('../../../../src/catalogue/cli/exit-when-done.ts', import.meta.url));

function run(body: string): { status: number | null; stderr: string; ms: number } {
  const started = Date.now();
  const script = `import { exitWhenDone } from ${JSON.stringify(MODULE)};\nconst say = (line) => process.stderr.write(line + '\\n');\n${body}`;
  const done = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  return { status: done.status, stderr: done.stderr, ms: Date.now() - started };
}

describe('ending an operator`s run', function () {
  this.timeout(30_000);

  it('when nothing stays open, then the run exits at once with its code, saying nothing', () => {
    const done = run('exitWhenDone(3, say, 5000);');
    expect(done.status).to.equal(3);
    expect(done.stderr).to.equal('');
    expect(done.ms).to.be.below(4000);
  });

  it('when a connection stays open after the work, then the run still exits with its code after the grace, saying why', () => {
    const done = run(`import { createServer } from 'node:net';\ncreateServer().listen(0, '127.0.0.1', () => exitWhenDone(4, say, 300));`);
    expect(done.status).to.equal(4);
    expect(done.stderr).to.include('a connection stayed open 0.3 s after it: exiting');
  });
});
