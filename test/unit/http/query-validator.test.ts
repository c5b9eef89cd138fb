import { expect } from 'chai';
import { HttpError } from '../../../src/http/http-error.js';
import { compileParams } from '../../../src/http/query-validator.js';
import { parametersSchema } from '../../../src/openapi/parameters.js';

const listParamsSchema = parametersSchema('/v1/wallpapers', 'get', 'query');
const searchParamsSchema = parametersSchema('/v1/search', 'get', 'query');

const parseList = compileParams<Record<string, unknown>>(listParamsSchema);
const parseSearch = compileParams<Record<string, unknown>>(searchParamsSchema);

function rejection(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('expected a rejection');
}

describe('query parameter validation', () => {
  it('when nothing is given, then the schema defaults apply', () => {
    expect(parseList({})).to.deep.equal({ page: 1, per_page: 20 });
  });

  it('when integers are given as decimal text, then they become numbers', () => {
    expect(parseList({ page: '3', per_page: '+50' })).to.deep.equal({ page: 3, per_page: 50 });
  });

  it('when per_page is above 100, then it is served at 100', () => {
    expect(parseList({ per_page: '101' })).to.deep.equal({ page: 1, per_page: 100 });
    expect(parseList({ per_page: '100000000000000000000000' })).to.deep.equal({ page: 1, per_page: 100 });
  });

  for (const text of ['1.0', '0x10', '1e3', '', ' ', '١']) {
    it(`when page is '${text}', then it is not an integer`, () => {
      const err = rejection(() => parseList({ page: text }));
      expect(err.status).to.equal(400);
      expect(err.message).to.equal("Invalid query parameter 'page': must be an integer");
    });
  }

  it('when q has surrounding whitespace, then it is trimmed before the length rule', () => {
    expect(parseSearch({ q: '  sky  ' })).to.include({ q: 'sky' });
    expect(rejection(() => parseSearch({ q: ' \t ' })).message).to.include("'q': must be at least 1");
  });

  it('when q is longer than 200 characters, then the rule is named', () => {
    expect(rejection(() => parseSearch({ q: 'x'.repeat(201) })).message).to.equal("Invalid query parameter 'q': must be at most 200 characters");
  });

  it('when a parameter is repeated, then it is rejected rather than one value silently chosen', () => {
    expect(rejection(() => parseList({ category: ['space', 'nature'] })).message).to.equal(
      "Invalid query parameter 'category': must be given at most once",
    );
  });

  it('when an unknown parameter is sent, then it is named with the allowed ones', () => {
    expect(rejection(() => parseSearch({ q: 'a', sort: 'new' })).message).to.equal(
      "Unknown query parameter 'sort' (allowed: q, page, per_page, category, resolution)",
    );
  });

  it('when a resolution is malformed, then the expected form is stated', () => {
    for (const bad of ['1920', '1920x', 'x1080', '01920x1080', '1920x1080x2', '1920×1080', '123456x1']) {
      expect(rejection(() => parseList({ resolution: bad })).message).to.include('<width>x<height>');
    }
    expect(parseList({ resolution: '3440x1440' })).to.include({ resolution: '3440x1440' });
  });

  it('when path parameters are validated, then messages say path', () => {
    const parseId = compileParams<{ id: number }>(
      { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
      'path',
    );
    expect(parseId({ id: '12' })).to.deep.equal({ id: 12 });
    expect(rejection(() => parseId({ id: 'x' })).message).to.equal("Invalid path parameter 'id': must be an integer");
  });
});
