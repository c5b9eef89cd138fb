import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// What a spawned process runs: the service's code and its scripts.
const SOURCES = ['src', 'scripts'];
// Set by the run's global setup (integration-setup.ts), inherited by the workers.
const DIR_VARIABLE = 'COMPILED_SCRIPTS_DIR';

/**
 * Transpiles `src/` and `scripts/` once per test run into `test-output/compiled/`, the same esbuild
 * transform tsx applies to each file as a process loads it. The suites spawn several hundred
 * processes (an import, a seed, a server); under `--import tsx` each spent about 1.1 s of its life
 * loading, 0.6 s more than the same files as JavaScript (tsx's loader hooks answering for every
 * module), on a machine the suite keeps busy. A module keeps its source's `import.meta.url`, so what
 * it reads beside itself (openapi/, thesaurus/, index-mappings/, node_modules) resolves as from the
 * source. The scripts' entries as people run them, under tsx, stay tested where a test names them (`npm run
 * import` in import.test.ts, `npm run up`'s seed and keys in up-script.test.ts).
 */
export async function compileScripts(outDir = join(ROOT, 'test-output', 'compiled')): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const tsconfigRaw = readFileSync(join(ROOT, 'tsconfig.json'), 'utf8');
  const files = SOURCES.flatMap((folder) => typeScriptIn(join(ROOT, folder)));
  await Promise.all(
    files.map(async (file) => {
      const source = readFileSync(file, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href));
      const { code } = await transform(source, {
        loader: 'ts',
        format: 'esm',
        platform: 'node',
        target: `node${process.versions.node}`,
        keepNames: true,
        sourcemap: 'inline',
        sourcefile: file,
        tsconfigRaw,
      });
      const out = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }),
  );
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
  process.env[DIR_VARIABLE] = outDir;
  return outDir;
}

/** The compiled file of a source file (`scripts/import.ts`), or the source itself under tsx when none was compiled. */
export function nodeArgsFor(sourceFile: string): string[] {
  const dir = process.env[DIR_VARIABLE];
  const absolute = join(ROOT, sourceFile);
  if (dir === undefined) return ['--import', import.meta.resolve('tsx'), absolute];
  return ['--enable-source-maps', join(dir, relative(ROOT, absolute)).replace(/\.ts$/, '.js')];
}

function typeScriptIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}
