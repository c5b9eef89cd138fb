import { expect } from 'chai';
import { ERROR_MESSAGE_MAX, HttpError } from '../../../src/http/http-error.js';
import { compileParams, countWords } from '../../../src/http/query-validator.js';
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
    expect(parseList({})).to.deep.equal({ page: 1, per_page: 20, sort: 'newest' });
    expect(parseSearch({ q: 'sky' })).to.deep.equal({ q: 'sky', page: 1, per_page: 20, sort: 'relevance' });
  });

  it('when one parameter breaks two rules, then its name is said once, before both', () => {
    expect(rejection(() => parseList({ resolution: '99999999999999999999x1' })).message).to.equal(
      "Invalid query parameter 'resolution': each value must be at most 11 characters; each value must have the form <width>x<height> in pixels, e.g. 1920x1080",
    );
    expect(rejection(() => parseList({ resolution: '99999999999999999999x1', page: '0' })).message).to.match(
      /^Invalid query parameter '\w+': [^I]*; Invalid query parameter '\w+': [^I]*$/,
    );
  });

  it('when the message cannot hold every parameter, then the problems of those left out are counted, not the parameters', () => {
    const bad: Record<string, string> = {
      tags: Array.from({ length: 12 }, (_, i) => `${'t'.repeat(80)}${i}`).join(','),
      exclude_tags: Array.from({ length: 60 }, (_, i) => `${'e'.repeat(80)}${i}`).join(','),
      category: Array.from({ length: 25 }, (_, i) => `c${i}`).join(','),
      resolution: Array.from({ length: 25 }, (_, i) => `${'9'.repeat(20)}x${i}`).join(','),
      color: Array.from({ length: 7 }, () => 'zzqqqqqqqqq').join(','),
      facets: Array.from({ length: 9 }, (_, i) => `f${i}`).join(','),
      include: Array.from({ length: 5 }, (_, i) => `i${i}`).join(','),
      tone: 'grey',
      ratio: Array.from({ length: 25 }, (_, i) => `${'r'.repeat(30)}${i}`).join(','),
      exclude_ids: Array.from({ length: 120 }, (_, i) => `0${i}`).join(','),
      orientation: 'diagonal',
      min_resolution: '9x',
      sort: 'best',
      seed: '!!',
      page: '0',
      per_page: '0',
    };
    const message = rejection(() => parseList(bad)).message;
    const [, left] = /; and (\d+) more problems?$/.exec(message) ?? [];
    expect(left, message).not.to.equal(undefined);
    const problemsOf = (name: string) =>
      rejection(() => parseList({ [name]: bad[name]! }))
        .message.split(': ')
        .slice(1)
        .join(': ')
        .split('; ').length;
    const leftOut = Object.keys(bad).filter((name) => !message.includes(`'${name}'`));
    expect(leftOut).not.to.deep.equal([]);
    expect(Number(left)).to.equal(leftOut.map(problemsOf).reduce((a, b) => a + b, 0));
  });

  it('when integers are given as decimal text, then they become numbers', () => {
    expect(parseList({ page: '3', per_page: ' 50 ' })).to.deep.equal({ page: 3, per_page: 50, sort: 'newest' });
  });

  it('when per_page is above 100, then it is served at 100', () => {
    expect(parseList({ per_page: '101' })).to.include({ page: 1, per_page: 100 });
    expect(parseList({ per_page: '100000000000000000000000' })).to.include({ page: 1, per_page: 100 });
    expect(parseList({ per_page: '2'.repeat(309) }), 'past the largest double').to.include({ page: 1, per_page: 100 });
  });

  it('when page is past the largest integer JSON carries exactly, then the rule is named with the bound, not a rounded number', () => {
    expect(parseList({ page: '9007199254740991' })).to.include({ page: 9007199254740991 });
    expect(rejection(() => parseList({ page: `-${'9'.repeat(400)}` })).message).to.equal("Invalid query parameter 'page': must be an integer >= 1");
    for (const text of ['9007199254740992', '99999999999999999999999', '2'.repeat(309), '1'.padEnd(400, '0')]) {
      expect(rejection(() => parseList({ page: text })).message).to.equal("Invalid query parameter 'page': must be an integer <= 9007199254740991");
    }
  });

  for (const text of ['1.0', '0x10', '1e3', '05', '+5', '00', '-05', '', ' ', '١']) {
    it(`when page is '${text}', then it is not an integer`, () => {
      const err = rejection(() => parseList({ page: text }));
      expect(err.status).to.equal(400);
      expect(err.message).to.equal(
        "Invalid query parameter 'page': must be an integer in plain decimal digits (no leading zeros, '+', '.' or exponent)",
      );
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

  it('when a required parameter is repeated, then it is said to be repeated, not also missing', () => {
    expect(rejection(() => parseSearch({ q: ['a', 'b'] })).message).to.equal("Invalid query parameter 'q': must be given at most once");
  });

  it('when an unknown parameter is repeated, then it is named as unknown, not as repeated, beside a known one repeated', () => {
    expect(rejection(() => parseList({ colour: ['red', 'blue'], category: ['space', 'nature'] })).message).to.equal(
      "Invalid query parameter 'category': must be given at most once; Unknown query parameter 'colour' (allowed: page, per_page, cursor, sort, seed, category, resolution, ratio, orientation, min_resolution, tags, exclude_tags, exclude_ids, color, tone, facets, include, ids)",
    );
  });

  it('when an unknown parameter is sent, then it is named with the allowed ones', () => {
    expect(rejection(() => parseSearch({ q: 'a', order: 'new' })).message).to.equal(
      "Unknown query parameter 'order' (allowed: q, page, per_page, cursor, sort, seed, category, resolution, ratio, orientation, min_resolution, tags, exclude_tags, exclude_ids, color, tone, facets, include)",
    );
  });

  it('when many unknown parameters are sent, then five are named, the rest counted, and the allowed ones listed once', () => {
    const query = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra${i}`, 'x']));
    const message = rejection(() => parseList(query)).message;
    expect(message).to.match(/^Unknown query parameters 'extra0', 'extra1', 'extra2', 'extra3', 'extra4' and 25 more \(allowed: /);
    expect(message.match(/allowed:/g)).to.have.length(1);
  });

  it('when a parameter name is very long, then it is echoed cut to 40 characters', () => {
    const name = 'n'.repeat(5000);
    const message = rejection(() => parseList({ [name]: 'x' })).message;
    expect(message).to.include(`'${'n'.repeat(40)}…'`);
    expect(message.length).to.be.below(300);
  });

  it('when a parameter name holds characters that do not show as themselves, then they are echoed escaped', () => {
    const message = rejection(() => parseList({ 'a\u202ebc\u200b': 'x' })).message;
    expect(message).to.include("Unknown query parameter 'a\\u{202e}bc\\u{200b}'");
    expect(message).to.not.match(/[\u202e\u200b]/);
  });

  it('when every parameter breaks its rules, then the message stays within the contract`s bound and counts what it left out', () => {
    const everyRule = {
      page: 'x',
      per_page: 'y',
      cursor: '!',
      sort: 'z',
      seed: '!',
      category: 'a,b',
      resolution: 'q',
      ratio: 'q',
      orientation: 'q',
      min_resolution: 'q',
      facets: 'q',
      ids: 'q',
    };
    const names = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${'u'.repeat(60)}${i}`, ['x', 'y']]));
    const message = rejection(() => parseList({ ...everyRule, ...names })).message;
    expect(Array.from(message).length).to.be.at.most(ERROR_MESSAGE_MAX);
    // The unknown names, repeated or not, are named five and counted, in one message.
    expect(message).to.match(/^Unknown query parameters ('u{40}…', ){4}'u{40}…' and 35 more \(allowed: /);
    for (const name of Object.keys(everyRule)) expect(message, name).to.include(`'${name}'`);
  });

  it('when a resolution is malformed, then the expected form is stated', () => {
    for (const bad of ['1920', '1920x', 'x1080', '01920x1080', '1920x1080x2', '1920×1080', '123456x1']) {
      expect(rejection(() => parseList({ resolution: bad })).message).to.include('<width>x<height>');
    }
    expect(parseList({ resolution: '3440x1440' })).to.deep.include({ resolution: ['3440x1440'] });
  });

  it('when a list filter has comma-separated values, then each is checked, trimmed, and at most 20 are taken', () => {
    expect(parseList({ category: 'space, nature' })).to.deep.include({ category: ['space', 'nature'] });
    expect(parseList({ ratio: '16x9,9x19.5' })).to.deep.include({ ratio: ['16x9', '9x19.5'] });
    expect(rejection(() => parseList({ category: 'space,planets' })).message).to.match(
      /^Invalid query parameter 'category': each value must be one of abstract, /,
    );
    expect(rejection(() => parseList({ resolution: '1920x1080,big' })).message).to.include(
      "'resolution': each value must have the form <width>x<height>",
    );
    expect(rejection(() => parseList({ category: 'space,' })).message).to.include("'category': each value must be one of");
    expect(rejection(() => parseList({ resolution: Array(21).fill('1920x1080').join(',') })).message).to.equal(
      "Invalid query parameter 'resolution': must have at most 20 comma-separated values",
    );
  });

  it('when ids are given, then each must be a plain positive integer and at most 100 are taken', () => {
    expect(parseList({ ids: '3, 1,2' })).to.deep.include({ ids: [3, 1, 2] });
    expect(rejection(() => parseList({ ids: '1,x' })).message).to.equal(
      "Invalid query parameter 'ids': each value must be an integer in plain decimal digits (no leading zeros, '+', '.' or exponent)",
    );
    expect(rejection(() => parseList({ ids: '1,0' })).message).to.equal("Invalid query parameter 'ids': each value must be an integer >= 1");
    expect(rejection(() => parseList({ ids: '1,1.5' })).message).to.equal(
      "Invalid query parameter 'ids': each value must be an integer in plain decimal digits (no leading zeros, '+', '.' or exponent)",
    );
    expect(rejection(() => parseList({ ids: Array.from({ length: 101 }, (_, i) => i + 1).join(',') })).message).to.equal(
      "Invalid query parameter 'ids': must have at most 100 comma-separated values",
    );
  });

  it('when sort, seed, orientation, min_resolution or facets break their rules, then each rule is named', () => {
    expect(rejection(() => parseList({ sort: 'popular' })).message).to.equal(
      "Invalid query parameter 'sort': must be one of newest, oldest, downloads, relevance, random",
    );
    expect(rejection(() => parseList({ seed: 'a-b' })).message).to.equal(
      "Invalid query parameter 'seed': must have the form 1-32 letters and digits",
    );
    expect(rejection(() => parseList({ seed: 'a'.repeat(33) })).message).to.equal("Invalid query parameter 'seed': must be at most 32 characters");
    expect(rejection(() => parseList({ color: '##1e3a5f' })).message, 'a value of a list').to.include(
      "Invalid query parameter 'color': each value must be at most 7 characters",
    );
    expect(rejection(() => parseList({ orientation: 'wide' })).message).to.equal(
      "Invalid query parameter 'orientation': must be one of landscape, portrait, square",
    );
    expect(rejection(() => parseList({ min_resolution: '2560' })).message).to.include("'min_resolution': must have the form <width>x<height>");
    expect(rejection(() => parseList({ facets: 'category,colour' })).message).to.equal(
      "Invalid query parameter 'facets': each value must be one of category, resolution, orientation, ratio, tags, color, tone",
    );
  });

  it('when a value is empty, then it is said to be empty once, not also to be of the wrong form', () => {
    expect(rejection(() => parseList({ seed: ' ' })).message).to.equal(
      "Invalid query parameter 'seed': must be at least 1 character(s) after trimming",
    );
    expect(rejection(() => parseList({ cursor: '' })).message).to.equal(
      "Invalid query parameter 'cursor': must be at least 1 character(s) after trimming",
    );
  });

  it('when path parameters are validated, then messages say path', () => {
    const parseId = compileParams<{ id: number }>(
      { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
      'path',
    );
    expect(parseId({ id: '12' })).to.deep.equal({ id: 12 });
    expect(rejection(() => parseId({ id: 'x' })).message).to.equal(
      "Invalid path parameter 'id': must be an integer in plain decimal digits (no leading zeros, '+', '.' or exponent)",
    );
  });
});

describe('the words a search is counted in', () => {
  it('when a word carries marks, in any normal form, then it counts once', () => {
    expect(countWords('पहाड़ों के ऊपर')).to.equal(3);
    expect(countWords('Phố cổ'.normalize('NFD'))).to.equal(2);
    expect(countWords('Phố cổ'.normalize('NFC'))).to.equal(2);
  });
});
