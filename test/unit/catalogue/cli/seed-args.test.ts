import { expect } from 'chai';
import { UsageError } from '../../../../src/catalogue/cli/cli-args.js';
import { parseSeedArgs } from '../../../../src/catalogue/cli/seed-args.js';

describe('parseSeedArgs', () => {
  it('when no arguments are given, then the defaults apply', () => {
    expect(parseSeedArgs([])).to.include({
      count: 1000,
      seed: 42,
      keep: 2,
      batchSize: 2000,
      concurrency: 2,
      forceMerge: true,
      ifAbsent: false,
      help: false,
    });
  });

  it('when --no-force-merge is given, then the new index is left unmerged', () => {
    expect(parseSeedArgs(['--no-force-merge']).forceMerge).to.equal(false);
  });

  it('when --if-absent is given, then a catalogue already behind the alias is to be left as it is', () => {
    expect(parseSeedArgs(['--if-absent']).ifAbsent).to.equal(true);
  });

  it('when count, seed and keep are given, then they are parsed as integers', () => {
    expect(parseSeedArgs(['--count', '500', '--seed=0', '--keep', '3'])).to.include({ count: 500, seed: 0, keep: 3 });
  });

  for (const argv of [
    ['--count', '0'],
    ['--count', '-5'],
    ['--count', '1e3'],
    ['--count', '2.5'],
    ['--count', 'abc'],
    ['--keep', '0'],
    ['--seed', '4294967296'],
    ['--colour', 'red'],
    ['extra'],
  ]) {
    it(`when given ${argv.join(' ')}, then a UsageError explains it`, () => {
      expect(() => parseSeedArgs(argv)).to.throw(UsageError);
    });
  }
});

describe('the image options of seed and import', () => {
  it('when --extract-colors is given, then pictures are read with the default bounds', () => {
    expect(parseSeedArgs(['--extract-colors']).images).to.deep.equal({
      concurrency: 8,
      timeoutMs: 10_000,
      retries: 2,
      maxBytes: 20 * 1024 * 1024,
      backoffMs: 250,
    });
    expect(parseSeedArgs([]).images).to.equal(null);
  });

  it('when --images-dir is given, then it implies --extract-colors and reads from the folder', () => {
    expect(parseSeedArgs(['--images-dir', '/srv/mirror', '--image-concurrency', '4']).images).to.include({ dir: '/srv/mirror', concurrency: 4 });
  });

  for (const argv of [
    ['--image-concurrency', '4'],
    ['--extract-colors', '--image-concurrency', '0'],
    ['--extract-colors', '--image-timeout-ms', '5'],
    ['--images-dir', ''],
  ]) {
    it(`when given ${argv.join(' ')}, then a UsageError explains it`, () => {
      expect(() => parseSeedArgs(argv)).to.throw(UsageError);
    });
  }
});
