import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What is taken from the ref: the whole server source and its contract. Performance work has
 * reached the app factory, the HTTP layer and the configuration, so swapping a few files no longer
 * builds; and the validator compiles from the OpenAPI document, so old code with a newer contract
 * refuses what it never knew (comma-separated lists, measured as 100 % non-2xx).
 */
export const PERFORMANCE_FILES = ['src', 'openapi'];

function filesAt(root: string, ref: string, path: string): string[] {
  const out = execFileSync('git', ['ls-tree', '-r', '--name-only', ref, '--', path], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/**
 * A tree whose src/ and openapi/ are as they were at `ref` and everything else (mappings,
 * node_modules, build settings) is the working tree's, so a run measures the server code of
 * then and now side by side.
 */
export function buildCompareTree(root: string, ref: string, dir: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Everything else the server reads at start-up (mappings, the OpenAPI document, node_modules) is
  // shared; build output is not, or compiling the old source would overwrite the current build.
  for (const entry of readdirSync(root)) {
    if (![...PERFORMANCE_FILES, 'bench', '.git', 'dist'].includes(entry)) symlinkSync(join(root, entry), join(dir, entry));
  }
  for (const path of PERFORMANCE_FILES) {
    for (const file of filesAt(root, sha, path)) {
      const text = execFileSync('git', ['show', `${sha}:${file}`], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
  }
  if (!existsSync(join(dir, 'src/server.ts'))) throw new Error(`compare tree ${dir} has no src/server.ts`);
  return sha;
}
