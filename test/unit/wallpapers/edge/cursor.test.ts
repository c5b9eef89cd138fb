import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { HttpError } from '../../../../src/http/http-error.js';
import { type CursorState, createCursorCodec, queryDigest } from '../../../../src/wallpapers/edge/cursor.js';

const SECRET = 's'.repeat(32);
const state: CursorState = { position: { index: 'wallpapers-20261122', after: [1700000000000, 42] }, page: 3, query: 'abc' };

// The seal as docs/security.md describes it, written out here so that a change to the format,
// which would strand every cursor clients hold, fails this file.
const derived = (use: string) => Buffer.from(hkdfSync('sha256', SECRET, Buffer.alloc(0), `wallpaper-catalogue cursor ${use}`, 32));
function sealAsDocumented(walk: object | Buffer): string {
  const state = Buffer.isBuffer(walk) ? walk : Buffer.from(JSON.stringify(walk));
  const iv = createHmac('sha256', derived('siv-hmac-sha-256'))
    .update(Buffer.from([2]))
    .update(state)
    .digest()
    .subarray(0, 16);
  const cipher = createCipheriv('aes-256-ctr', derived('aes-256-ctr'), iv);
  return Buffer.concat([Buffer.from([2]), iv, cipher.update(state), cipher.final()]).toString('base64url');
}
function openAsDocumented(text: string): unknown {
  const bytes = Buffer.from(text, 'base64url');
  const decipher = createDecipheriv('aes-256-ctr', derived('aes-256-ctr'), bytes.subarray(1, 17));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(17)), decipher.final()]).toString());
}
// Signed the way cursors were before the seal: base64url JSON, a dot, 128 bits of HMAC-SHA-256.
const signedAsBefore = (walk: object) => {
  const payload = Buffer.from(JSON.stringify(walk)).toString('base64url');
  return `${payload}.${createHmac('sha256', SECRET).update(payload).digest().subarray(0, 16).toString('base64url')}`;
};

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
    expect(text).to.match(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(text)).to.deep.equal(state);
    expect(createCursorCodec(SECRET).decode(text)).to.deep.equal(state);
  });

  it('when a cursor is issued, then it is sealed as documented, and neither its index nor its sort values can be read from it', () => {
    const scored: CursorState = { position: { index: 'wallpapers-20261122', after: [12.345678, 42] }, page: 2, query: 'abc' };
    const text = codec.encode(scored);
    expect(openAsDocumented(text)).to.deep.equal({ i: 'wallpapers-20261122', a: [12.345678, 42], p: 2, q: 'abc' });
    const visible = Buffer.from(text, 'base64url').toString('latin1');
    for (const secretPart of ['wallpapers', '12.345678', '"q"']) expect(visible).to.not.include(secretPart);
    expect(codec.decode(sealAsDocumented({ i: 'w-1', a: [7, 8], p: 4, q: 'x' }))).to.deep.equal({
      position: { index: 'w-1', after: [7, 8] },
      page: 4,
      query: 'x',
    });
  });

  it('when one state is encoded again, then it gets the same cursor, and any other state another', () => {
    // One position, one cursor: a page's body and its ETag stay the same between requests.
    expect(codec.encode(state)).to.equal(codec.encode(state));
    expect(codec.encode(state)).to.equal(sealAsDocumented({ i: 'wallpapers-20261122', a: [1700000000000, 42], p: 3, q: 'abc' }));
    const others = Array.from({ length: 500 }, (_, n) => codec.encode({ ...state, position: { index: 'w-1', after: [n, n] } }));
    expect(new Set(others).size).to.equal(others.length);
    expect(new Set(others.map((text) => Buffer.from(text, 'base64url').subarray(1, 17).toString('hex'))).size).to.equal(others.length);
  });

  it('when a cursor issued before the seal comes back, then it is still read, and one signed with another secret is not', () => {
    // Issued by the codec of f405e14 with this secret, before cursors were sealed.
    const issuedBefore = 'eyJpIjoid2FsbHBhcGVycy0yMDI2MTEyMiIsImEiOlsxNzAwMDAwMDAwMDAwLDQyXSwicCI6MywicSI6ImFiYyJ9.TsdAs2u4BPiCtckiRssaKA';
    let legacyReads = 0;
    const counting = createCursorCodec(SECRET, { onLegacyRead: () => legacyReads++ });
    expect(counting.decode(issuedBefore)).to.deep.equal(state);
    expect(counting.decode(counting.encode(state))).to.deep.equal(state);
    expect(legacyReads, 'the signed one counted, the sealed one not').to.equal(1);
    for (const forged of [`${issuedBefore}.x`, `${issuedBefore}.`, `x.${issuedBefore}`])
      expect(
        refusal(() => counting.decode(forged)),
        forged,
      ).to.match(/'cursor'/);
    expect(legacyReads, 'refused ones are not counted').to.equal(1);
    expect(refusal(() => createCursorCodec('t'.repeat(32)).decode(issuedBefore))).to.match(/'cursor'/);
  });

  it('when a walk along a shuffle key is encoded, then it comes back as one, and any other mark is refused', () => {
    const shuffled: CursorState = { ...state, position: { index: 'w-1', after: [-123456, 42], total: 900, shuffled: true } };
    expect(codec.decode(codec.encode(shuffled))).to.deep.equal(shuffled);
    expect(codec.decode(codec.encode(state)).position).to.not.have.property('shuffled');
    // Sealed or signed as this API would, but marked with a value it never writes.
    for (const issue of [sealAsDocumented, signedAsBefore]) {
      expect(codec.decode(issue({ i: 'w-1', a: [1, 2], s: 1, p: 2, q: 'abc' })).position.shuffled, issue.name).to.equal(true);
      const refused = (state: Record<string, unknown>) =>
        expect(
          refusal(() => codec.decode(issue({ i: 'w-1', p: 2, q: 'abc', ...state }))),
          `${issue.name} ${JSON.stringify(state)}`,
        ).to.match(/'cursor'/);
      for (const s of [2, [1, 2], true]) refused({ a: [1, 2], s });
      // A walk's start (`r`) and position must be places along a 32-bit key: Elasticsearch would refuse any other as a bound.
      for (const r of [2, [1], [1, 2, 3], [1, 0.5], ['1', 2], [2 ** 53, 1], [2 ** 31, 1], [-(2 ** 31) - 1, 1], [5, -1]])
        refused({ a: [1, 2], s: 1, r });
      for (const a of [[2 ** 40, 5], ['abc', 5], [5], [1, 2, 3]]) refused({ a, s: 1 });
      refused({ a: [1, 2], r: [1, 2] });
    }
  });

  it("when a shuffled walk's start is encoded, then it comes back with it; a walk from before starts comes back without one", () => {
    const started: CursorState = { ...state, position: { index: 'w-1', after: [-123456, 42], total: 900, shuffled: true, start: [-200000, 7] } };
    expect(codec.decode(codec.encode(started))).to.deep.equal(started);
    expect(codec.decode(sealAsDocumented({ i: 'w-1', a: [1, 2], s: 1, p: 2, q: 'abc' })).position).to.not.have.property('start');
    expect(codec.decode(sealAsDocumented({ i: 'w-1', a: [1, 2], s: 1, r: [-5, 9], p: 2, q: 'abc' })).position).to.deep.include({
      shuffled: true,
      start: [-5, 9],
    });
  });

  it("when a random walk's seed is encoded, then it comes back with it; one the seed parameter would refuse is refused", () => {
    const seeded: CursorState = { ...state, seed: 'tide42' };
    expect(codec.decode(codec.encode(seeded))).to.deep.equal(seeded);
    expect(codec.decode(codec.encode(state))).to.not.have.property('seed');
    for (const seed of ['', 'a b', 'x'.repeat(33), 7])
      expect(
        refusal(() => codec.decode(sealAsDocumented({ i: 'w-1', a: [1, 2], p: 2, q: 'abc', e: seed }))),
        String(seed),
      ).to.match(/'cursor': not a cursor this API issued/);
  });

  it('when any character of a cursor is changed, then it is refused as not issued here', () => {
    const text = codec.encode(state);
    for (let i = 0; i < text.length; i++) {
      const changed = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
      expect(refusal(() => codec.decode(changed))).to.match(/'cursor': not a cursor this API issued/);
    }
  });

  it('when a cursor is signed with another secret, forged, or malformed, then it is refused', () => {
    const foreign = createCursorCodec('t'.repeat(32)).encode(state);
    const payload = Buffer.from(JSON.stringify({ i: '.security', a: [1], p: 2, q: 'abc' })).toString('base64url');
    const issued = codec.encode(state);
    // ` ${issued}` is refused here; over HTTP every parameter is trimmed first, so it is the same cursor.
    const refused = [
      foreign,
      `${payload}.AAAAAAAAAAAAAAAAAAAAAA`,
      'x',
      '.',
      'a.b.c',
      `${payload}.`,
      '',
      'AgAA',
      issued.slice(0, 40),
      `${issued}A`,
      ` ${issued}`,
    ];
    // Well sealed, but not JSON, or JSON that is no walk.
    refused.push(
      sealAsDocumented(Buffer.from('{"i":')),
      sealAsDocumented({ i: 'w-1', a: [], p: 2, q: 'x' }),
      sealAsDocumented({ i: 'w-1', a: [1], p: 1, q: 'x' }),
    );
    for (const bad of refused) {
      expect(refusal(() => codec.decode(bad))).to.match(/'cursor'/);
    }
  });

  it('when a cursor of another catalogue sealed with the same secret comes, then it is refused; one of this catalogue is read', () => {
    const prod = createCursorCodec(SECRET, { catalogue: 'wallpapers' });
    const staging = createCursorCodec(SECRET, { catalogue: 'staging' });
    const stagingWalk: CursorState = { ...state, position: { index: 'staging-20261122000000000', after: [1, 2] } };
    expect(refusal(() => prod.decode(staging.encode(stagingWalk)))).to.match(/'cursor': not a cursor this API issued/);
    expect(prod.decode(prod.encode(state))).to.deep.equal(state);
    const feed: CursorState = { position: { index: 'changes', after: [7, 8] }, page: 2, query: 'x' };
    expect(
      refusal(() => prod.decode(staging.encode(feed))),
      'a feed position of another catalogue',
    ).to.match(/'cursor'/);
  });

  it('when a cursor of a build before the catalogue was sealed in comes, then it is read only if it names an index of this catalogue, or the feed', () => {
    const prod = createCursorCodec(SECRET, { catalogue: 'wallpapers' });
    for (const index of ['wallpapers-20261122000000000', 'wallpapers-20261122000000000-2', 'changes']) {
      const before = sealAsDocumented({ i: index, a: [1, 2], p: 2, q: 'x' });
      expect(prod.decode(before).position.index).to.equal(index);
    }
    const others = ['staging-20261122000000000', 'wallpapers-changes', 'wallpapers-staging-20261122000000000', 'wallpapers', '.security'];
    // Another catalogue whose alias is this one's, a dash and digits (`wallpapers-2`), and a name no tool makes.
    others.push('wallpapers-2-20261122000000000', 'wallpapers-1764547200000');
    for (const index of others) {
      expect(
        refusal(() => prod.decode(sealAsDocumented({ i: index, a: [1, 2], p: 2, q: 'x' }))),
        index,
      ).to.match(/'cursor'/);
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
      fc.base64String({ maxLength: 200 }).map((b) => `Ag${b.replace(/[+/=]/g, '_')}`),
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
