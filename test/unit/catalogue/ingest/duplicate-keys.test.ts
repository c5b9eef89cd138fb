import { expect } from 'chai';
import { duplicateKeyOf, firstDuplicateKey } from '../../../../src/catalogue/ingest/duplicate-keys.js';

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

  it('when the names are counted against the parsed value, then a duplicate is named, and a value nested 20,000 deep is walked without running out of stack', () => {
    const text = '{"id": 15, "title": "A", "id": 16}';
    expect(duplicateKeyOf(text, JSON.parse(text))).to.equal('id');
    const plain = '{"id": 1, "colors": [{"hex": "a", "share": 1}], "note": "\\"x\\": 1"}';
    expect(duplicateKeyOf(plain, JSON.parse(plain))).to.equal(null);
    // A review's line: the check had thrown "Maximum call stack size exceeded" and stopped the import.
    const deep = `{"id": 1, "x": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(duplicateKeyOf(deep, JSON.parse(deep))).to.equal(null);
  });
});
