import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_MESSAGE_MAX, HttpError } from '../../../src/http/http-error.js';
import { compileParams } from '../../../src/http/query-validator.js';
import { CATEGORIES } from '../../../src/wallpapers/categories.js';
import { parametersSchema } from '../../../src/openapi/parameters.js';
import type { SearchParams } from '../../../src/wallpapers/params.js';

const searchParamsSchema = parametersSchema('/v1/search', 'get', 'query');

const parse = compileParams<SearchParams>(searchParamsSchema);
const KNOWN = ['q', 'page', 'per_page', 'category', 'resolution', 'ratio', 'orientation', 'min_resolution', 'sort', 'seed', 'cursor', 'facets'];

const value = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.constantFrom(
    ...CATEGORIES,
    '1920x1080',
    '0x0',
    ' 7 ',
    '+3',
    '-0',
    '007',
    '1e3',
    '0x1f',
    'space,nature',
    'newest',
    'random',
    'relevance',
    '16x9,21x9',
    'landscape',
    'category,ratio',
    'abc123',
  ),
);
const rawQuery = fc.dictionary(
  fc.oneof(fc.constantFrom(...KNOWN), fc.string({ maxLength: 8 })),
  fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 })),
  { maxKeys: 6 },
);

describe('query parser properties (fast-check)', () => {
  it('when given any query, then it either returns bounded, typed parameters or throws a 400 naming a parameter', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => {
        try {
          const params = parse(raw);
          expect(Object.keys(params).every((k) => KNOWN.includes(k))).to.equal(true);
          expect(params.q.length).to.be.within(1, 200);
          expect(params.q).to.equal(params.q.trim());
          expect(Number.isSafeInteger(params.page) || params.page > Number.MAX_SAFE_INTEGER).to.equal(true);
          expect(params.page).to.be.at.least(1);
          expect(params.per_page).to.be.within(1, 100);
          expect(Number.isInteger(params.per_page)).to.equal(true);
          for (const category of params.category ?? []) expect(CATEGORIES).to.include(category);
          for (const resolution of params.resolution ?? []) expect(resolution).to.match(/^[1-9]\d{0,4}x[1-9]\d{0,4}$/);
          expect(params.category?.length ?? 1).to.be.within(1, 20);
          expect(params.resolution?.length ?? 1).to.be.within(1, 20);
          expect(['relevance', 'newest', 'oldest', 'downloads', 'random']).to.include(params.sort);
        } catch (err) {
          expect(err).to.be.instanceOf(HttpError);
          const e = err as HttpError;
          expect(e.status).to.equal(400);
          expect(e.code).to.equal('invalid_request');
          expect(e.message).to.match(/parameters? '[^']*'/);
          expect(Array.from(e.message).length).to.be.at.most(ERROR_MESSAGE_MAX);
        }
      }),
      { numRuns: 3000, seed: 20261121 },
    );
  });

  it('when parameters are valid, then parsing is idempotent on their string forms', () => {
    const valid = fc.record({
      q: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim().length > 0),
      page: fc.integer({ min: 1, max: 1_000_000 }),
      per_page: fc.integer({ min: 1, max: 10_000 }),
      category: fc.constantFrom(...CATEGORIES),
    });
    fc.assert(
      fc.property(valid, (v) => {
        const once = parse({ q: v.q, page: String(v.page), per_page: String(v.per_page), category: v.category });
        const twice = parse({
          q: once.q,
          page: String(once.page),
          per_page: String(once.per_page),
          category: once.category!.join(','),
        });
        expect(twice).to.deep.equal(once);
        expect(once.per_page).to.equal(Math.min(v.per_page, 100));
        expect(once.q).to.equal(v.q.trim());
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});
