import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { changesIndexOf } from '../../src/wallpapers/store/change-log.js';
import { toWallpaper, type Wallpaper } from '../../src/wallpapers/wallpaper.js';
import { ROOT, nodeArgsFor } from './compiled-scripts.js';
import { dropIndicesOf, uniqueName } from './harness.js';

export { ROOT };

export type CatalogueScript = 'import' | 'reindex' | 'seed' | 'export';

export interface CliRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  input?: string;
  cwd?: string;
}

/** The CLI as its own process (no wrapper in between, so signals reach it), compiled once per run (compiled-scripts.ts). */
export function spawnScript(script: CatalogueScript, args: string[], { env = {}, cwd = ROOT }: CliOptions = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...nodeArgsFor(`scripts/${script}.ts`), ...args], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
}

/** Collects a spawned script's output until it exits. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Runs a script to its end without blocking this process (a lock held here keeps renewing). */
export function runScript(script: CatalogueScript, args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child = spawnScript(script, args, options);
  const done = finished(child);
  child.stdin.end(options.input ?? '');
  return done;
}

/** Resolves with the output so far once it matches, or rejects when the process ends first. */
export function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${text}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        clearTimeout(timer);
        child.stderr.off('data', onData);
        resolve(text);
      }
    };
    child.stderr.on('data', onData);
    child.on('close', () => {
      clearTimeout(timer);
      reject(new Error(`process ended before output matched ${pattern}:\n${text}`));
    });
  });
}

export function wallpapers(count: number, { seed = 42, startId = 1 } = {}): Wallpaper[] {
  return [...generateWallpapers({ count, seed, startId, imageBaseUrl: 'https://images.wallpapers.example' })].map(toWallpaper);
}

export function toNdjson(records: readonly unknown[]): string {
  return records.map((record) => `${typeof record === 'string' ? record : JSON.stringify(record)}\n`).join('');
}

export async function aliasTargets(es: Client, alias: string): Promise<string[]> {
  const response = await es.indices.getAlias({ name: alias }, { ignore: [404], meta: true });
  return response.statusCode === 404 ? [] : Object.keys(response.body).sort();
}

/** The catalogue's indices of the alias: its versioned ones, not the change feed's (`<alias>-changes`). */
export async function indicesOf(es: Client, alias: string): Promise<string[]> {
  const indices = await es.indices.get({ index: `${alias}-*`, expand_wildcards: ['open', 'closed'] });
  return Object.keys(indices)
    .filter((name) => name !== changesIndexOf(alias))
    .sort();
}

export async function stateOf(es: Client, index: string): Promise<unknown> {
  const mapping = await es.indices.getMapping({ index });
  return mapping[index]?.mappings._meta?.['state'];
}

/** A suite's scratch: a directory for its input files, the aliases it made, and their removal. */
export interface CatalogueScratch {
  dir: string;
  /** An alias no other run uses, removed by cleanUp. */
  freshAlias: () => string;
  /** Writes lines as NDJSON into the directory; its path. */
  file: (name: string, lines: readonly unknown[]) => string;
  cleanUp: (es: Client) => Promise<void>;
}

export function catalogueScratch(prefix: string): CatalogueScratch {
  const dir = mkdtempSync(join(tmpdir(), `wpc-${prefix}-`));
  const aliases: string[] = [];
  return {
    dir,
    freshAlias: () => {
      const alias = uniqueName(`test-${prefix}`);
      aliases.push(alias);
      return alias;
    },
    file: (name, lines) => {
      const path = join(dir, name);
      writeFileSync(path, toNdjson(lines));
      return path;
    },
    cleanUp: async (es) => {
      for (const alias of aliases) await dropIndicesOf(es, alias);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
