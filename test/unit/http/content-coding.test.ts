import { expect } from 'chai';
import { negotiateEncoding } from '../../../src/http/content-coding.js';

describe('choosing a content coding', () => {
  const cases: [string | undefined, string | null][] = [
    [undefined, null],
    ['', null],
    ['identity', null],
    ['deflate', null],
    ['*', 'gzip'],
    ['*;q=1', 'gzip'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.5, *', 'gzip'],
    ['br;q=0', null],
    ['br; q = 0', null],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0, *', 'br'],
    ['*;q=0', null],
    ['br;q=0, gzip;q=0', null],
    ['zstd, gzip;q=0.8', 'gzip'],
    ['gzip;q=0.3, *;q=0.5', 'br'],
    ['gzip; q=0.9 , br ; q=0.8', 'gzip'],
    ['gzip;q=x', null],
    ['gzip;q=2', null],
    ['gzip;q=0x1', null],
    ['gzip;q=0.0001', null],
    ['constructor', null],
    ['__proto__, gzip', 'gzip'],
  ];
  for (const [header, expected] of cases) {
    it(`when Accept-Encoding is ${JSON.stringify(header)}, then ${expected ?? 'none'} is chosen`, () => {
      expect(negotiateEncoding(header)).to.equal(expected);
    });
  }
});
