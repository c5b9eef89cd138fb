import { expect } from 'chai';
import { defaultRejectsPath, parseImportArgs } from '../../../../src/catalogue/cli/import-args.js';
import { parseReindexArgs } from '../../../../src/catalogue/cli/reindex-args.js';
import { parseSeedArgs } from '../../../../src/catalogue/cli/seed-args.js';
import { UsageError, callersPath } from '../../../../src/catalogue/cli/cli-args.js';

const NOW = new Date('2026-03-04T05:06:07.890Z');

describe('parseImportArgs', () => {
  it('when only a file is given, then a full import with no rejects allowed and the default rejects file', () => {
    expect(parseImportArgs(['data/w.ndjson'])).to.deep.equal({
      input: 'data/w.ndjson',
      incremental: false,
      dryRun: false,
      allowRejects: 0,
      allowDeletes: undefined,
      rejects: undefined,
      images: null,
      keep: 2,
      batchSize: 2000,
      concurrency: 2,
      help: false,
    });
  });

  it('when the input is a regular file, then rejects go beside it; for standard input or a pipe, to a file named by the time', () => {
    expect(parseImportArgs(['-', '--incremental', '--allow-rejects', '5'])).to.include({ input: '-', incremental: true, allowRejects: 5 });
    expect(parseImportArgs(['data/w.ndjson', '--dry-run'])).to.include({ dryRun: true, incremental: false });
    expect(defaultRejectsPath('data/w.ndjson', { regularFile: true, now: NOW })).to.equal('data/w.ndjson.rejects.ndjson');
    expect(defaultRejectsPath('-', { regularFile: false, now: NOW, pid: 41 })).to.equal('import-rejects-20260304050607890-41.ndjson');
    expect(defaultRejectsPath('/dev/fd/63', { regularFile: false, now: NOW, pid: 41 })).to.equal('import-rejects-20260304050607890-41.ndjson');
  });

  it('when two imports from standard input start in the same second, then their rejects go to different files', () => {
    const at = (ms: number, pid: number) => defaultRejectsPath('-', { regularFile: false, now: new Date(NOW.getTime() + ms), pid });
    expect(at(0, 41)).to.not.equal(at(0, 42));
    expect(at(0, 41)).to.not.equal(at(1, 41));
  });

  it('when --rejects names the input file, then it is refused rather than overwriting the input', () => {
    expect(() => parseImportArgs(['data/w.ndjson', '--rejects', './data/../data/w.ndjson'])).to.throw(UsageError, /must not be the input file/);
  });

  it('when --batch-size is past what one bulk request carries (10,000), then it is refused for import, seed and reindex alike', () => {
    // 100,000 had been accepted and passed Elasticsearch's request size, which closes the connection without a word.
    expect(() => parseImportArgs(['w.ndjson', '--batch-size', '10001'])).to.throw(UsageError, /--batch-size must be an integer from 1 to 10000/);
    expect(() => parseSeedArgs(['--batch-size', '100000'])).to.throw(UsageError, /--batch-size must be an integer from 1 to 10000/);
    expect(() => parseReindexArgs(['--batch-size', '10001'])).to.throw(UsageError, /--batch-size/);
    expect(parseImportArgs(['w.ndjson', '--batch-size', '10000']).batchSize).to.equal(10_000);
  });

  it('when --allow-deletes is given, then it is a count or all in any case (no bound); absent, the import applies its default', () => {
    expect(parseImportArgs(['w.ndjson', '--allow-deletes', '0']).allowDeletes).to.equal(0);
    expect(parseImportArgs(['w.ndjson', '--allow-deletes', '1200']).allowDeletes).to.equal(1200);
    expect(parseImportArgs(['w.ndjson', '--allow-deletes', 'all']).allowDeletes).to.equal(Number.POSITIVE_INFINITY);
    expect(parseImportArgs(['w.ndjson']).allowDeletes).to.equal(undefined);
    expect(parseImportArgs(['w.ndjson', '--allow-deletes', 'ALL']).allowDeletes).to.equal(Number.POSITIVE_INFINITY);
    for (const wrong of ['1.5', 'any', '-1x', '9007199254740992']) {
      expect(() => parseImportArgs(['w.ndjson', `--allow-deletes=${wrong}`]), wrong).to.throw(
        UsageError,
        /^--allow-deletes must be all or an integer from 0 to/,
      );
    }
  });

  it('when --keep comes with --incremental, then it is refused: that import prunes no index', () => {
    expect(() => parseImportArgs(['w.ndjson', '--incremental', '--keep', '3'])).to.throw(UsageError, /--keep is for a full import/);
  });

  it('when a value starts with a dash, then the usage error says to write it joined to its option, in one line', () => {
    expect(() => parseSeedArgs(['--seed', '-1'])).to.throw(
      UsageError,
      /^--seed needs a value; one starting with a dash is read as an option \(write --seed=VALUE/,
    );
    expect(() => parseSeedArgs(['--seed=-1'])).to.throw(UsageError, /--seed must be an integer from 0/);
  });

  it('when --allow-deletes comes with --incremental, then it is refused: that import deletes only the ids its lines name', () => {
    expect(() => parseImportArgs(['w.ndjson', '--incremental', '--allow-deletes', '5'])).to.throw(UsageError, /--allow-deletes is for a full import/);
  });

  it('when no input or two inputs are named, or a number is malformed, then it is a usage error', () => {
    expect(() => parseImportArgs([])).to.throw(UsageError, /name the NDJSON file/);
    expect(() => parseImportArgs(['a', 'b'])).to.throw(UsageError, /one input only/);
    expect(() => parseImportArgs(['a', '--allow-rejects', 'some'])).to.throw(UsageError, /--allow-rejects must be an integer/);
    expect(() => parseImportArgs(['a', '--bogus'])).to.throw(UsageError);
  });
});

describe('parseReindexArgs', () => {
  it('when --rollback comes with options only a reindex takes, then it is refused naming them, not ignored', () => {
    expect(() => parseReindexArgs(['--rollback', '--keep', '3'])).to.throw(UsageError, /--keep is for a reindex; --rollback takes none/);
    expect(() => parseReindexArgs(['--rollback', '--sample', '5', '--concurrency', '2'])).to.throw(
      UsageError,
      /--concurrency, --sample are for a reindex/,
    );
    expect(parseReindexArgs(['--rollback', '--dry-run'])).to.include({ rollback: true, dryRun: true });
  });

  it('when no flags are given, then it keeps 2 and copies for real', () => {
    expect(parseReindexArgs([])).to.deep.equal({
      keep: 2,
      dryRun: false,
      rollback: false,
      batchSize: 2000,
      concurrency: 2,
      sample: 200,
      help: false,
    });
  });

  it('when --keep is below 2, then it is refused because the rollback target must survive', () => {
    expect(() => parseReindexArgs(['--keep', '1'])).to.throw(UsageError, /--keep must be an integer from 2/);
  });

  it('when --rollback and --dry-run are combined, then both are set', () => {
    expect(parseReindexArgs(['--rollback', '--dry-run'])).to.include({ rollback: true, dryRun: true });
  });
});

describe('callersPath', () => {
  const npm = { INIT_CWD: '/home/op/exports', npm_package_json: '/srv/catalogue/package.json' };

  it('when npm started the script in the package root for a command typed elsewhere, then a relative path is read from there', () => {
    expect(callersPath('week.ndjson', npm, '/srv/catalogue')).to.equal('/home/op/exports/week.ndjson');
    expect(callersPath('/data/week.ndjson', npm, '/srv/catalogue')).to.equal('/data/week.ndjson');
  });

  it('when the process runs elsewhere than the package root, or npm is not its parent, then the path is left as typed', () => {
    expect(callersPath('week.ndjson', npm, '/tmp/child'), 'a child inherits INIT_CWD').to.equal('week.ndjson');
    expect(callersPath('week.ndjson', {}, '/srv/catalogue')).to.equal('week.ndjson');
    expect(callersPath('week.ndjson', { ...npm, INIT_CWD: '/srv/catalogue' }, '/srv/catalogue')).to.equal('week.ndjson');
  });
});
