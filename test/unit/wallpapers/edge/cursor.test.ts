import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { HttpError } from '../../../../src/http/http-error.js';
import { type CursorState, createCursorCodec, queryDigest } from '../../../../src/wallpapers/edge/cursor.js';

const SECRET = 's'.repeat(32);
const state: CursorState = { position: { index: 'wallpapers-20261122', after: [1700000000000, 42] }, page: 3, query: 'abc' };

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(HttpError);
    expect((err as HttpError).status).to.equal(400);
    return (err as HttpError).message;
  }
  throw new Error('expected a refusal');
}

describe('cursors', () => {
  const codec = createCursorCodec(SECRET);

  it('when a cursor is encoded and decoded with the same secret, then the state comes back', () => {
    const text = codec.encode(state);
    expect(text).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(text)).to.deep.equal(state);
    expect(createCursorCodec(SECRET).decode(text)).to.deep.equal(state);
  });

  it('when a walk along a shuffle key is encoded, then it comes back as one, and any other mark is refused', () => {
    const shuffled: CursorState = { ...state, position: { index: 'w-1', after: [-123456, 42], total: 900, shuffled: true } };
    expect(codec.decode(codec.encode(shuffled))).to.deep.equal(shuffled);
    expect(codec.decode(codec.encode(state)).position).to.not.have.property('shuffled');
    // Signed as this API would, but marked with a value it never writes.
    const mac = (payload: string) => createHmac('sha256', SECRET).update(payload).digest().subarray(0, 16).toString('base64url');
    const signed = (walk: object) => {
      const payload = Buffer.from(JSON.stringify(walk)).toString('base64url');
      return `${payload}.${mac(payload)}`;
    };
    expect(codec.decode(signed({ i: 'w-1', a: [1, 2], s: 1, p: 2, q: 'abc' })).position.shuffled, 'signed as the codec signs').to.equal(true);
    expect(refusal(() => codec.decode(signed({ i: 'w-1', a: [1, 2], s: 2, p: 2, q: 'abc' })))).to.match(/'cursor'/);
  });

  it('when any character of a cursor is changed, then it is refused as not issued here', () => {
    const text = codec.encode(state);
    for (let i = 0; i < text.length; i++) {
      if (text[i] === '.') continue;
      const changed = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
      expect(refusal(() => codec.decode(changed))).to.match(/'cursor': not a cursor this API issued/);
    }
  });

  it('when a cursor is signed with another secret, forged, or malformed, then it is refused', () => {
    const foreign = createCursorCodec('t'.repeat(32)).encode(state);
    const payload = Buffer.from(JSON.stringify({ i: '.security', a: [1], p: 2, q: 'abc' })).toString('base64url');
    for (const bad of [foreign, `${payload}.AAAAAAAAAAAAAAAAAAAAAA`, 'x', '.', 'a.b.c', `${payload}.`]) {
      expect(refusal(() => codec.decode(bad))).to.match(/'cursor'/);
    }
  });

  it('when the query digest is taken, then cursor, page, facets and position do not count, every other parameter does', () => {
    const base = { q: 'sea', per_page: 20, sort: 'relevance', category: ['space'] };
    const digest = queryDigest('search', base);
    expect(queryDigest('search', { ...base, page: 7, facets: ['category'], position: { index: 'i', after: [1] } })).to.equal(digest);
    expect(queryDigest('search', { per_page: 20, category: ['space'], sort: 'relevance', q: 'sea' })).to.equal(digest);
    expect(queryDigest('search', { ...base, category: ['nature'] })).to.not.equal(digest);
    expect(queryDigest('search', { ...base, per_page: 21 })).to.not.equal(digest);
    expect(queryDigest('list', base)).to.not.equal(digest);
  });

  it('when any text is decoded (fast-check), then it is a state this codec encoded or a 400 naming cursor, never another error', () => {
    const issued = codec.encode(state);
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.base64String({ maxLength: 200 }).map((b) => `${b.replace(/[+/=]/g, 'A')}.${b.slice(0, 22)}`),
      fc
        .nat({ max: issued.length - 1 })
        .chain((at) => fc.string({ minLength: 1, maxLength: 1 }).map((c) => issued.slice(0, at) + c + issued.slice(at + 1))),
    );
    fc.assert(
      fc.property(text, (candidate) => {
        try {
          expect(codec.decode(candidate)).to.deep.equal(state);
          expect(candidate).to.equal(issued);
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          expect(err.status).to.equal(400);
          expect(err.message).to.include("'cursor'");
        }
      }),
      { numRuns: 2000, seed: 20261123 },
    );
  });
});
