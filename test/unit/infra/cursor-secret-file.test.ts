import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { withCursorSecretFile } from '../../../src/infra/cursor-secret-file.js';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'cursor-secret-'));
}

function problems(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('CURSOR_SECRET_FILE', () => {
  it('when it is not set, then the environment is used as given', () => {
    const env = { CURSOR_SECRET: 'k'.repeat(40) };
    expect(withCursorSecretFile(env)).to.equal(env);
  });

  it('when the file is not there, then a random secret is made there, readable by its owner only, and every later start reads the same one', () => {
    const path = join(scratch(), 'volume', 'cursor-secret');
    const first = withCursorSecretFile({ CURSOR_SECRET_FILE: path })['CURSOR_SECRET'];
    expect(first).to.be.a('string').with.length.at.least(64);
    expect(statSync(path).mode & 0o777).to.equal(0o600);
    expect(withCursorSecretFile({ CURSOR_SECRET_FILE: path })['CURSOR_SECRET']).to.equal(first);
    expect(loadConfig(withCursorSecretFile({ CURSOR_SECRET_FILE: path })).cursorSecret).to.equal(first);
    expect(readdirSync(join(path, '..'))).to.deep.equal(['cursor-secret']);
    const elsewhere = withCursorSecretFile({ CURSOR_SECRET_FILE: join(scratch(), 'cursor-secret') })['CURSOR_SECRET'];
    expect(elsewhere).to.not.equal(first);
  });

  it('when several instances start at once on one empty volume, then they all seal with the one secret that one of them made', async function () {
    this.timeout(60_000);
    const path = join(scratch(), 'cursor-secret');
    const module = new URL('../../../src/infra/cursor-secret-file.ts', import.meta.url).href;
    const script = `const { withCursorSecretFile } = await import(${JSON.stringify(module)}); process.stdout.write(withCursorSecretFile({ CURSOR_SECRET_FILE: ${JSON.stringify(path)} }).CURSOR_SECRET);`;
    const run = promisify(execFile);
    const secrets = await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then((r) => r.stdout)),
    );
    expect(new Set(secrets).size).to.equal(1);
    expect(secrets[0]).to.equal(readFileSync(path, 'utf8').trim());
    expect(readdirSync(join(path, '..'))).to.deep.equal(['cursor-secret']);
  });

  it('when the file was written with a line break at its end (a secrets mount, echo), then the break is not part of the secret', () => {
    const path = join(scratch(), 'secret');
    writeFileSync(path, `${'s'.repeat(40)}\n`);
    expect(withCursorSecretFile({ CURSOR_SECRET_FILE: path })['CURSOR_SECRET']).to.equal('s'.repeat(40));
    expect(readFileSync(path, 'utf8')).to.equal(`${'s'.repeat(40)}\n`);
  });

  it('when the file holds too short or too long a secret, then start-up fails naming the file without showing what it holds', () => {
    const path = join(scratch(), 'secret');
    writeFileSync(path, 'short-secret-value\n');
    const said = problems(() => withCursorSecretFile({ CURSOR_SECRET_FILE: path }));
    expect(said).to.include('CURSOR_SECRET_FILE').and.include(path).and.include('32 to 1024');
    expect(said).to.not.include('short-secret-value');
    writeFileSync(path, 'x'.repeat(1025));
    expect(problems(() => withCursorSecretFile({ CURSOR_SECRET_FILE: path })))
      .to.include('CURSOR_SECRET_FILE')
      .and.include('32 to 1024');
  });

  it('when both it and CURSOR_SECRET are set, then start-up fails naming both rather than guessing which seals cursors', () => {
    const said = problems(() => withCursorSecretFile({ CURSOR_SECRET: 'k'.repeat(40), CURSOR_SECRET_FILE: join(scratch(), 'secret') }));
    expect(said).to.include('CURSOR_SECRET_FILE').and.include('CURSOR_SECRET,').and.not.include('k'.repeat(40));
  });

  it('when the file can be neither read nor made, then start-up fails naming it and why', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'not-a-folder'), '');
    const said = problems(() => withCursorSecretFile({ CURSOR_SECRET_FILE: join(dir, 'not-a-folder', 'secret') }));
    expect(said)
      .to.include('CURSOR_SECRET_FILE')
      .and.include('not-a-folder')
      .and.match(/ENOTDIR|EEXIST/);
  });
});
