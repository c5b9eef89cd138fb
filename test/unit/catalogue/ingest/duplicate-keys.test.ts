import { expect } from 'chai';
import { firstDuplicateKey } from '../../../../src/catalogue/ingest/duplicate-keys.js';

describe('a name held twice by one JSON object', () => {
  it('when an object holds a name twice, at any depth, then the first such name is found, escapes resolved', () => {
    expect(firstDuplicateKey('{"id": 15, "title": "A", "id": 16}')).to.equal('id');
    expect(firstDuplicateKey('{"id": 1, "colors": [{"hex": "aaaaaa", "share": 1, "hex": "bbbbbb"}]}')).to.equal('hex');
    expect(firstDuplicateKey('{"id": 1, "\\u0069d": 2}')).to.equal('id');
    expect(firstDuplicateKey('{"a" : 1, "a"\t:2}')).to.equal('a');
  });

  it('when names repeat only across objects, or inside strings and arrays, then none is found', () => {
    expect(firstDuplicateKey('{"id": 1, "colors": [{"hex": "a", "share": 1}, {"hex": "b", "share": 0}]}')).to.equal(null);
    expect(firstDuplicateKey('{"title": "\\"id\\": 1, \\"id\\": 2", "id": 3}')).to.equal(null);
    expect(firstDuplicateKey('{"tags": ["id", "id"], "id": 1}')).to.equal(null);
    expect(firstDuplicateKey('[{"a": 1}, {"a": 2}]')).to.equal(null);
    expect(firstDuplicateKey('{"a": {"b": 1}, "b": 2}')).to.equal(null);
  });
});
