import { expect } from 'chai';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const ids = (body: { data: { id: number }[] }) => body.data.map((w) => w.id);

describe('GET /v1/search', () => {
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });

  it('when the keyword is in one title and another description, then the title match ranks first', async () => {
    const res = await get('/v1/search?q=aurora');
    expect(res.status).to.equal(200);
    expect(ids(res.body)).to.deep.equal([7, 8]);
    expect(res.body.meta).to.deep.equal({ current_page: 1, per_page: 20, total_items: 2, total_pages: 1, next_cursor: null });
  });

  it('when two results score the same, then the more downloaded comes first', async () => {
    const res = await get('/v1/search?q=lighthouse');
    expect(ids(res.body)).to.deep.equal([14, 13]);
  });

  it('when the query has a typo, then the intended wallpaper is still found', async () => {
    const res = await get('/v1/search?q=nebulla');
    expect(ids(res.body)).to.deep.equal([21]);
  });

  it('when a size is typed as a word, then wallpapers of that resolution are found; with other words, those with both first', async () => {
    const sized = ctx.docs.filter((d) => d.resolution === '1920x1080').map((d) => d.id);
    const res = await get('/v1/search?q=1920X1080&per_page=100');
    expect(ids(res.body)).to.have.members(sized);
    const both = await get('/v1/search?q=1920x1080+nebula&per_page=100');
    expect(ids(both.body)[0], 'the nebula at that size').to.equal(21);
    const without = await get('/v1/search?q=picture+-1920x1080&per_page=100');
    expect(without.body.data.length).to.be.greaterThan(0);
    expect(without.body.data.every((w: { resolution: string }) => w.resolution !== '1920x1080')).to.equal(true);
  });

  it('when a size is typed beside other words, then it finds what they find, that size first, and no other wallpaper of that size', async () => {
    // 13 is 3840x2160, 14 (far more downloaded) 1080x2340; 20 of the 60 are 3840x2160.
    const res = await get('/v1/search?q=3840x2160+lighthouse&per_page=100');
    expect(ids(res.body)).to.deep.equal([13, 14]);
    expect(res.body.meta.total_items).to.equal(2);
    const nebula = await get('/v1/search?q=nebula+1920x1080&per_page=100');
    expect(ids(nebula.body)).to.deep.equal([21]);
  });

  it('when the words beside a size find nothing, then the wallpapers of that size are found, page by page and by cursor', async () => {
    const sized = ctx.docs.filter((d) => d.resolution === '3840x2160').map((d) => d.id);
    const res = await get('/v1/search?q=IMG_3840x2160.jpg&per_page=100');
    expect(ids(res.body)).to.have.members(sized);
    const walked: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/v1/search?q=xyzzy+3840x2160&per_page=6${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      walked.push(...ids(page.body));
      cursor = page.body.meta.next_cursor;
    } while (cursor !== null && walked.length <= sized.length);
    expect(walked).to.have.members(sized);
    const lighthouses = await get('/v1/search?q=3840x2160+lighthouse&per_page=1');
    const next = await get(`/v1/search?q=3840x2160+lighthouse&per_page=1&cursor=${encodeURIComponent(lighthouses.body.meta.next_cursor)}`);
    expect([...ids(lighthouses.body), ...ids(next.body)], 'a walk of what the words find ends with them').to.deep.equal([13, 14]);
    expect(next.body.meta.next_cursor).to.equal(null);
    const filtered = await get('/v1/search?q=3840x2160+lighthouse&category=space&per_page=100');
    expect(filtered.body.meta.total_items, 'a filter leaving the words nothing leaves nothing').to.equal(0);
  });

  it('when only sizes are typed, then the wallpapers of any of them are found', async () => {
    const sized = ctx.docs.filter((d) => d.resolution === '1920x1080' || d.resolution === '3840x2160').map((d) => d.id);
    const res = await get('/v1/search?q=1920x1080+3840x2160&per_page=100');
    expect(ids(res.body)).to.have.members(sized);
  });

  it("when a size is typed with spaces or a times sign, or stands in a file's name, then it is read as the size", async () => {
    const sized = ctx.docs.filter((d) => d.resolution === '1920x1080').map((d) => d.id);
    for (const q of ['1920 x 1080', '1920×1080', '1920*1080']) {
      const res = await get(`/v1/search?q=${encodeURIComponent(q)}&per_page=100`);
      expect(ids(res.body), q).to.have.members(sized);
    }
    const named = await get('/v1/search?q=Crab_Nebula_wallpaper_1920x1080.jpg&per_page=100');
    const apart = await get('/v1/search?q=Crab+Nebula+1920x1080&per_page=100');
    expect(ids(named.body)[0], 'the nebula at that size first').to.equal(21);
    expect(ids(named.body), "a file's name finds what its words typed apart find").to.deep.equal(ids(apart.body));
  });

  it('when a query asks for a sharp picture in two words, then it finds what the other words find', async () => {
    const plain = await get('/v1/search?q=lighthouse');
    for (const q of ['lighthouse high resolution', 'high quality lighthouse', 'lighthouse-wallpaper-full-hd', 'lighthouse wallpaper free download']) {
      const res = await get(`/v1/search?q=${encodeURIComponent(q)}`);
      expect(ids(res.body), q).to.deep.equal(ids(plain.body));
    }
  });

  it('when one word is misspelt and another typed right, then the wallpapers matching both come before those matching the right one alone', async () => {
    const calm = ctx.docs.filter((d) => /calm/i.test(`${d.title} ${d.description}`)).map((d) => d.id);
    expect(calm.length, 'calm is in more titles than the lighthouses').to.be.greaterThan(5);
    const res = await get('/v1/search?q=calm+lighthouze');
    expect(ids(res.body).slice(0, 2)).to.have.members([13, 14]);
    expect(ids(res.body)).to.have.members(calm);
  });

  it("when a page's address holds a word no wallpaper uses, then the address finds what its words typed apart find", async () => {
    const apart = await get('/v1/search?q=cute+crab+nebula+wallpaper');
    expect(ids(apart.body)).to.deep.equal([21]);
    const address = await get('/v1/search?q=cute-crab-nebula-wallpaper-hd');
    expect(ids(address.body)).to.deep.equal([21]);
  });

  it("when a page's address is excluded, then what its words name is excluded", async () => {
    const res = await get('/v1/search?q=aurora+-northern-cabin-wallpaper-hd');
    expect(ids(res.body)).to.deep.equal([7]);
  });

  it('when the query has surrounding spaces and mixed case, then it matches like the trimmed query', async () => {
    const res = await get('/v1/search?q=%20%20AURORA%20');
    expect(ids(res.body)).to.deep.equal([7, 8]);
  });

  it('when a category filter is added, then results outside it are excluded', async () => {
    const aurora7 = ctx.docs.find((d) => d.id === 7)!;
    const res = await get(`/v1/search?q=aurora&category=${aurora7.category}`);
    expect(ids(res.body)).to.deep.equal([7]);
    expect(res.body.meta.total_items).to.equal(1);
  });

  it('when a resolution filter is added, then results outside it are excluded', async () => {
    const res = await get(`/v1/search?q=aurora&resolution=${ctx.docs.find((d) => d.id === 8)!.resolution}`);
    expect(ids(res.body)).to.deep.equal([8]);
  });

  it('when the query matches many, then pages and exact totals follow the envelope', async () => {
    const res = await get('/v1/search?q=simple&per_page=10&page=2');
    const expectedTotal = ctx.docs.filter((d) => d.description.includes('simple')).length;
    expect(res.body.meta).to.deep.include({
      current_page: 2,
      per_page: 10,
      total_items: expectedTotal,
      total_pages: Math.ceil(expectedTotal / 10),
    });
    expect(res.body.meta.next_cursor).to.be.a('string');
    expect(res.body.data).to.have.length(10);
  });

  it('when the page is past the last page, then 200 with empty data and true meta', async () => {
    const res = await get('/v1/search?q=aurora&page=3');
    expect(res.body).to.deep.equal({ data: [], meta: { current_page: 3, per_page: 20, total_items: 2, total_pages: 1, next_cursor: null } });
  });

  it('when the query contains search-syntax characters, then it is treated as plain text', async () => {
    const res = await get(`/v1/search?q=${encodeURIComponent('aurora" OR (*:*) AND [ { \\ / ~ ^')}`);
    expect(res.status).to.equal(200);
    expect(ids(res.body)).to.include(7);
  });

  it('when q is exactly 200 characters, then it is accepted', async () => {
    const res = await get(`/v1/search?q=${'a'.repeat(200)}`);
    expect(res.status).to.equal(200);
  });

  it('when q is missing, then 400 names q as required', async () => {
    const res = await get('/v1/search');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ error: 'invalid_request', message: "Missing required query parameter 'q'", status: 400 });
  });

  for (const [label, q] of [
    ['empty', ''],
    ['only spaces', '%20%20%20'],
    ['201 characters', 'b'.repeat(201)],
  ] as const) {
    it(`when q is ${label}, then 400 names q and its length rule`, async () => {
      const res = await get(`/v1/search?q=${q}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_request');
      expect(res.body.message).to.match(/'q': must be at (least 1|most 200) character/);
    });
  }

  it('when q holds a control character other than a tab or line break, then 400 names q and the rule instead of a search for joined words', async () => {
    for (const control of ['\u0000', '\u0007', '\u001f', '\u007f', '\u0080', '\u009f']) {
      const res = await get(`/v1/search?q=${encodeURIComponent(`aurora${control}cabin`)}`);
      expect(res.status, JSON.stringify(control)).to.equal(400);
      expect(res.body, JSON.stringify(control)).to.deep.equal({
        error: 'invalid_request',
        message:
          "Invalid query parameter 'q': must have the form 1-200 characters, not only whitespace, no control characters but tabs and line breaks",
        status: 400,
      });
    }
  });

  it('when q holds tabs, line breaks or a NEXT LINE between words, then they are spaces', async () => {
    const spaced = ids((await get('/v1/search?q=aurora%20cabin')).body);
    expect(spaced).to.not.deep.equal([]);
    for (const space of ['\t', '\n', '\r\n', '\u0085']) {
      const res = await get(`/v1/search?q=${encodeURIComponent(`${space}aurora${space}cabin${space}`)}`);
      expect(res.status, JSON.stringify(space)).to.equal(200);
      expect(ids(res.body), JSON.stringify(space)).to.deep.equal(spaced);
    }
  });

  it('when a word is excluded with a minus, then results containing it are left out', async () => {
    expect(ids((await get('/v1/search?q=aurora%20-cabin')).body)).to.deep.equal([7]);
  });

  it('when NOT comes before a word, then results containing it are left out, as with a minus', async () => {
    expect(ids((await get('/v1/search?q=aurora%20NOT%20cabin')).body)).to.deep.equal([7]);
  });

  it('when words are joined by a + or split by a character that shows nothing, then they read as typed plainly', async () => {
    const plain = ids((await get(`/v1/search?q=${encodeURIComponent('frozen lake')}`)).body);
    expect(plain).to.not.be.empty;
    expect(ids((await get(`/v1/search?q=${encodeURIComponent('frozen+lake')}`)).body)).to.deep.equal(plain);
    expect(ids((await get(`/v1/search?q=${encodeURIComponent('fro\u200bzen la\u00adke')}`)).body)).to.deep.equal(plain);
  });

  it('when a phrase is quoted, then only that word sequence matches', async () => {
    expect(ids((await get(`/v1/search?q=${encodeURIComponent('"frozen lake"')}`)).body)).to.deep.equal([7]);
    expect((await get(`/v1/search?q=${encodeURIComponent('"lake frozen"')}`)).body.meta.total_items).to.equal(0);
  });

  it('when alternatives are joined with OR, then either one matches', async () => {
    expect(ids((await get('/v1/search?q=nebula%20OR%20lighthouse')).body)).to.have.members([21, 14, 13]);
  });

  it('when a wallpaper matches every word, then it ranks above one that matches some', async () => {
    expect(ids((await get('/v1/search?q=aurora%20cabin')).body)).to.deep.equal([8, 7]);
  });

  it('when the query uses an inflection or an irregular plural, then the wallpaper is found', async () => {
    expect(ids((await get('/v1/search?q=lighthouses')).body)).to.deep.equal([14, 13]);
    expect(ids((await get('/v1/search?q=nebulae')).body)).to.deep.equal([21]);
  });

  for (const q of ['the', '-aurora', '"', 'OR', '- | "of the"']) {
    it(`when q is ${JSON.stringify(q)}, with nothing left to search for, then 400 names the rule`, async () => {
      const res = await get(`/v1/search?q=${encodeURIComponent(q)}`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.include("'q': must contain a word to search for");
    });
  }

  it('when a page starts past the result window, then 400 states the limit', async () => {
    const res = await get('/v1/search?q=aurora&page=201&per_page=50');
    expect(res.status).to.equal(400);
    expect(res.body.message).to.include('10000');
  });
});
