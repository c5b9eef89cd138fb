import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules', '.bin');

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const done = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, PATH: `${BIN}${delimiter}${process.env['PATH'] ?? ''}` } });
  return { status: done.status, output: `${done.stdout}${done.stderr}` };
}

/**
 * The client as npm packs it, installed in a project of its own that type-checks its libraries
 * (skipLibCheck off): what a user of the published package gets, not what the repository compiles.
 */
describe('the TypeScript client, packed', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'wpc-client-pack-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function consumerChecks(source: string, tsconfig = 'tsconfig.json'): { status: number | null; output: string } {
    const consumer = join(dir, 'consumer');
    writeFileSync(join(consumer, 'app.ts'), source);
    return run(join(BIN, 'tsc'), ['-p', tsconfig], consumer);
  }

  before(() => {
    // The repository's layout around the client, which its generate script reads from.
    cpSync(join(ROOT, 'clients/typescript'), join(dir, 'clients/typescript'), { recursive: true, filter: (path) => !path.includes('/dist') });
    cpSync(join(ROOT, 'openapi'), join(dir, 'openapi'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const packed = run('npm', ['pack', '--pack-destination', dir], join(dir, 'clients/typescript'));
    expect(packed.status, packed.output).to.equal(0);
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
    const installed = join(dir, 'consumer/node_modules/@wallpaper-catalogue/client');
    mkdirSync(installed, { recursive: true });
    const unpacked = run('tar', ['xzf', join(dir, tarball), '--strip-components=1', '-C', installed], dir);
    expect(unpacked.status, unpacked.output).to.equal(0);
    symlinkSync(join(ROOT, 'node_modules/openapi-fetch'), join(dir, 'consumer/node_modules/openapi-fetch'));
    writeFileSync(
      join(dir, 'consumer/tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['app.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'consumer/tsconfig.exact.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { exactOptionalPropertyTypes: true, skipLibCheck: true } }),
    );
  });

  it('when a program uses it as its README shows, then it type-checks, libraries included', () => {
    const checked = consumerChecks(`import { createWallpaperClient, type Wallpaper } from '@wallpaper-catalogue/client';
const client = createWallpaperClient({ baseUrl: 'https://api.example.com', apiKey: 'wpc_x' });
export async function first(): Promise<Wallpaper['id'] | undefined> {
  const page = await client.wallpapers.list({ category: 'space', per_page: 5 });
  const id: number | undefined = page.data[0]?.id;
  return id;
}
`);
    expect(checked.status, checked.output).to.equal(0);
  });

  it('when a program breaks the contract, then the packed types refuse it (they are the contract`s, not any)', () => {
    const checked = consumerChecks(`import { createWallpaperClient } from '@wallpaper-catalogue/client';
const client = createWallpaperClient({ baseUrl: 'https://api.example.com', apiKey: 'wpc_x' });
export async function wrong(): Promise<string> {
  const page = await client.wallpapers.list({ category: 'no-such-category' });
  return page.data[0]!.id;
}
`);
    expect(checked.status).to.not.equal(0);
    expect(checked.output).to.include('"no-such-category"');
    expect(checked.output).to.match(/Type 'number' is not assignable to type 'string'/);
  });

  it('when a program sets exactOptionalPropertyTypes, then a filter or a cursor that may be undefined is still taken, as the README says', () => {
    // `changes.follow({ cursor: saved })` with a saved cursor that may be undefined had not compiled
    // there (helper-110).
    const checked = consumerChecks(
      `import { createWallpaperClient } from '@wallpaper-catalogue/client';
const client = createWallpaperClient({ baseUrl: 'https://api.example.com', apiKey: 'wpc_x' });
export async function resume(saved: string | undefined, category: 'space' | undefined): Promise<number> {
  let seen = 0;
  for await (const { change } of client.changes.follow({ cursor: saved, untilEnd: true, per_page: undefined })) seen += change.id;
  const page = await client.wallpapers.list({ category, tags: undefined, per_page: 5 });
  return seen + page.data.length;
}
`,
      'tsconfig.exact.json',
    );
    expect(checked.status, checked.output).to.equal(0);
  });
});
