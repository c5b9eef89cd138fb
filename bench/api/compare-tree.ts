import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files performance work changes; everything else runs as in the working tree. */
export const PERFORMANCE_FILES = ['src/wallpapers/repository.ts', 'src/wallpapers/build-queries.ts', 'src/infra/elasticsearch.ts', 'src/cache'];

function filesAt(root: string, ref: string, path: string): string[] {
  const out = execFileSync('git', ['ls-tree', '-r', '--name-only', ref, '--', path], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/**
 * A copy of the working tree's src/ with the performance files as they were at `ref`, so a
 * run can measure the effect of those changes alone, side by side with the current code.
 */
export function buildCompareTree(root: string, ref: string, dir: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  // Everything else the server reads at start-up (mappings, the OpenAPI document, node_modules) is shared.
  for (const entry of readdirSync(root)) {
    if (!['src', 'bench', '.git'].includes(entry)) symlinkSync(join(root, entry), join(dir, entry));
  }
  for (const path of PERFORMANCE_FILES) {
    for (const file of filesAt(root, sha, path)) {
      const text = execFileSync('git', ['show', `${sha}:${file}`], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      writeFileSync(join(dir, file), text);
    }
  }
  if (!existsSync(join(dir, 'src/server.ts'))) throw new Error(`compare tree ${dir} has no src/server.ts`);
  return sha;
}
