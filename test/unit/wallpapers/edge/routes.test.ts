import { expect } from 'chai';
import { createApp } from '../../../../src/app.js';
import { CursorExpired } from '../../../../src/errors.js';
import { createMetrics } from '../../../../src/infra/metrics.js';
import { share } from '../../../../src/infra/shared-result.js';
import type { Position } from '../../../../src/wallpapers/params.js';
import { asIssuedBeforeTheSeal } from '../../../support/legacy-cursor.js';
import { createCursorCodec } from '../../../../src/wallpapers/edge/cursor.js';
import { toWallpaper } from '../../../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../../../support/fixtures.js';
import { type RunningApp, type TestResponse, listen, request } from '../../../support/harness.js';
import { type InMemoryServices, inMemoryServices } from '../../../support/in-memory-services.js';

const KEY = 'premium-key';
const DOCS = fixtureWallpapers().map(toWallpaper);

/** The next page's path from a Link header, or null when there is none. */
function nextLink(res: TestResponse): string | null {
  const link = res.headers.get('link');
  if (link === null) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).to.not.equal(null);
  return match![1]!;
}

// Cursors, sort parameters and ids at the HTTP edge, over in-memory services (a cursor position
// there is an offset); the integration suite walks real catalogues.
describe('wallpaper routes: cursors, sorts and ids at the edge', () => {
  let services: InMemoryServices;
  let app: RunningApp;

  beforeEach(async () => {
    services = inMemoryServices(DOCS, { [KEY]: { tier: 'premium', limit: 1000 } });
    app = await listen(createApp(services, { maxResultWindow: 30, trustProxyHops: 0, cursorSecret: 'x'.repeat(32) }));
  });

  afterEach(async () => {
    await app.close();
  });

  const get = (path: string) => request(app.url, path, { key: KEY });
  const invalid = (res: TestResponse, rule: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error).to.equal('invalid_request');
    expect(res.body.message).to.match(rule);
  };
  it('when include names fields, then each item gains exactly those, after the nine; two includes of one query are two answers', async () => {
    const nine = Object.keys(DOCS[0]!);
    const keys = async (query: string) => Object.keys((await get(`/v1/wallpapers?per_page=1${query}`)).body.data[0] as object);
    expect(await keys('')).to.deep.equal(nine);
    expect(await keys('&include=dimensions')).to.deep.equal([...nine, 'width', 'height', 'ratio', 'orientation']);
    expect(await keys('&include=colors,tags')).to.deep.equal([...nine, 'tags', 'colors', 'tone']);
    expect(await keys('')).to.deep.equal(nine);
  });

  it('when colours and tags are spelled differently, then the spellings are one query: one prepared entry, one cursor walk', async () => {
    const first = await get('/v1/wallpapers?per_page=2&color=grey&tags=Night');
    const cursor = first.body.meta.next_cursor as string;
    expect((await get(`/v1/wallpapers?per_page=2&color=gray&tags=night&cursor=${cursor}`)).status).to.equal(200);
  });

  it('when a page starts past the result window (30 here), then it is refused naming page; one that starts within it is served, though it ends past it', async () => {
    expect((await get('/v1/wallpapers?page=3&per_page=10')).status).to.equal(200);
    expect((await get('/v1/wallpapers?page=5&per_page=7')).status, 'results 28 to 34').to.equal(200);
    invalid(await get('/v1/wallpapers?page=4&per_page=10'), /'page': a page must start within the first 30 results/);
    invalid(await get('/v1/search?q=sea&page=31&per_page=1'), /'page': a page must start within the first 30 results/);
  });

  it("when a shuffled walk's page says where the walk started, then its next cursor brings that back to the store", async () => {
    const positions: (Position | undefined)[] = [];
    const list = services.repository.list.bind(services.repository);
    services.repository.list = async (params) => {
      positions.push(params.position);
      const page = await list(params);
      // A shuffled position is a key and an id; the in-memory store reads the first as its offset.
      const last = page.last && { ...page.last, after: [page.last.after[0]!, 1], shuffled: true, start: [-77, 5] as const };
      return last ? share({ ...page, last }) : page;
    };
    let path: string | null = '/v1/wallpapers?sort=random&seed=tide42&per_page=4';
    while (path !== null) path = nextLink(await get(path));
    expect(positions[0]).to.equal(undefined);
    expect(positions.length).to.be.greaterThan(2);
    for (const position of positions.slice(1)) expect(position).to.deep.include({ shuffled: true, start: [-77, 5] });
  });

  it('when a walk follows the Link headers, then it returns every wallpaper once, past the page window, and the last page links nowhere', async () => {
    const seen: number[] = [];
    let path: string | null = '/v1/wallpapers?per_page=7&category=nature,space,ocean,animals,cityscapes';
    let pages = 0;
    while (path !== null) {
      const res = await get(path);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      pages++;
      expect(res.body.meta.current_page).to.equal(pages);
      seen.push(...res.body.data.map((w: { id: number }) => w.id));
      path = nextLink(res);
      expect(res.body.meta.next_cursor === null).to.equal(path === null);
      if (path) expect(path).to.match(/^\/v1\/wallpapers\?per_page=7&category=nature%2Cspace%2Cocean%2Canimals%2Ccityscapes&cursor=/);
    }
    expect(pages).to.equal(9);
    expect([...seen].sort((a, b) => a - b)).to.deep.equal(DOCS.map((w) => w.id).sort((a, b) => a - b));
  });

  it('when q holds no word to search for, then 400 says why: no letter or digit, or only what is left out', async () => {
    for (const q of ['😀', '!!!', '%C0%AF'])
      invalid(await get(`/v1/search?q=${q}`), /'q': must contain a word to search for; it holds no letter or digit$/);
    for (const q of ['the', '-aurora', 'OR']) invalid(await get(`/v1/search?q=${q}`), /'q': must contain a word to search for; only excluded words/);
  });

  it('when page numbers go past the window, then 400 points to the cursor', async () => {
    invalid(
      await get('/v1/wallpapers?per_page=7&page=6'),
      /'page': a page must start within the first 30 results.*starting at 35.*meta\.next_cursor/,
    );
  });

  it('when a cursor is sent with page, altered, or with another filter, then 400 names the cursor or page rule', async () => {
    const first = await get('/v1/wallpapers?per_page=5&category=space');
    const cursor = first.body.meta.next_cursor as string;
    invalid(await get(`/v1/wallpapers?per_page=5&category=space&page=2&cursor=${cursor}`), /'page': cannot be combined with 'cursor'/);
    const altered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    invalid(await get(`/v1/wallpapers?per_page=5&category=space&cursor=${altered}`), /'cursor': not a cursor this API issued/);
    invalid(await get(`/v1/wallpapers?per_page=5&category=nature&cursor=${cursor}`), /'cursor': it belongs to a different query/);
    invalid(await get(`/v1/wallpapers?per_page=6&category=space&cursor=${cursor}`), /'cursor': it belongs to a different query/);
    invalid(await get(`/v1/search?q=calm&per_page=5&category=space&cursor=${cursor}`), /'cursor': it belongs to a different query/);
    const next = await get(`/v1/wallpapers?per_page=5&category=space&facets=category&cursor=${cursor}`);
    expect(next.status, 'facets may change along a walk').to.equal(200);
  });

  it('when another app instance has the same secret, then it continues the walk; with another secret, it refuses it', async () => {
    const cursor = (await get('/v1/wallpapers?per_page=5')).body.meta.next_cursor as string;
    const same = await listen(createApp(services, { maxResultWindow: 30, trustProxyHops: 0, cursorSecret: 'x'.repeat(32) }));
    const other = await listen(createApp(services, { maxResultWindow: 30, trustProxyHops: 0, cursorSecret: 'y'.repeat(32) }));
    try {
      expect((await request(same.url, `/v1/wallpapers?per_page=5&cursor=${cursor}`, { key: KEY })).status).to.equal(200);
      invalid(await request(other.url, `/v1/wallpapers?per_page=5&cursor=${cursor}`, { key: KEY }), /'cursor': not a cursor this API issued/);
    } finally {
      await same.close();
      await other.close();
    }
  });

  it('when a cursor of the signed form issued before the seal comes back, then the walk goes on and the legacy read is counted', async () => {
    services.metrics = createMetrics();
    const counted = await listen(createApp(services, { maxResultWindow: 30, trustProxyHops: 0, cursorSecret: 'x'.repeat(32) }));
    const legacyReads = async () => /wallpapers_cursor_legacy_reads_total (\d+)/.exec(await services.metrics!.registry.metrics())![1];
    try {
      const first = await request(counted.url, '/v1/wallpapers?per_page=5', { key: KEY });
      const sealed = first.body.meta.next_cursor as string;
      const [fromSealed, fromLegacy] = [
        await request(counted.url, `/v1/wallpapers?per_page=5&cursor=${sealed}`, { key: KEY }),
        await request(counted.url, `/v1/wallpapers?per_page=5&cursor=${asIssuedBeforeTheSeal(sealed, 'x'.repeat(32))}`, { key: KEY }),
      ];
      expect(fromLegacy.body).to.deep.equal(fromSealed.body);
      expect(await legacyReads(), 'one legacy read, the sealed ones not counted').to.equal('1');
    } finally {
      await counted.close();
    }
  });

  it('when the walk’s catalogue is gone, then 410 cursor_expired tells the client to start again', async () => {
    const cursor = (await get('/v1/wallpapers?per_page=5')).body.meta.next_cursor as string;
    services.repository.failWith = new CursorExpired('start the walk again without a cursor');
    const res = await get(`/v1/wallpapers?per_page=5&cursor=${cursor}`);
    expect(res.status).to.equal(410);
    expect(res.body).to.deep.equal({ error: 'cursor_expired', message: 'start the walk again without a cursor', status: 410 });
  });

  it('when sort=random comes without a seed, then the API picks one, reports it, and the next link carries it', async () => {
    const res = await get('/v1/wallpapers?sort=random&per_page=5');
    expect(res.status).to.equal(200);
    expect(res.body.meta.seed).to.match(/^[A-Za-z0-9]{12}$/);
    expect(nextLink(res)).to.include(`seed=${res.body.meta.seed as string}`);
    const seeded = await get('/v1/wallpapers?sort=random&seed=abc&per_page=5');
    expect(seeded.body.meta.seed).to.equal('abc');
  });

  it('when a random walk’s next_cursor is followed without its seed, then the walk goes on with the seed it began with', async () => {
    const first = await get('/v1/wallpapers?sort=random&per_page=5');
    const seed = first.body.meta.seed as string;
    const cursor = first.body.meta.next_cursor as string;
    const next = await get(`/v1/wallpapers?sort=random&per_page=5&cursor=${cursor}`);
    expect(next.status).to.equal(200);
    expect(next.body.meta.seed).to.equal(seed);
    expect(next.body.meta.current_page).to.equal(2);
    expect(nextLink(next)).to.include(`seed=${seed}`);
    expect(next.body.data).to.deep.equal((await get(`/v1/wallpapers?sort=random&seed=${seed}&per_page=5&page=2`)).body.data);
    expect((await get(`/v1/wallpapers?sort=random&seed=${seed}&per_page=5&cursor=${cursor}`)).body).to.deep.equal(next.body);
    invalid(await get(`/v1/wallpapers?sort=random&seed=other&per_page=5&cursor=${cursor}`), /'cursor': it belongs to a different query/);
  });

  it('when a next_cursor is sent without per_page, then the walk goes on in its own page size, and its next link names it; another size is a 400 naming cursor', async () => {
    const first = await get('/v1/wallpapers?per_page=7');
    const cursor = first.body.meta.next_cursor as string;
    const next = await get(`/v1/wallpapers?cursor=${cursor}`);
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    expect(next.body.meta.per_page).to.equal(7);
    expect(next.body.data).to.have.lengthOf(7);
    expect(nextLink(next), 'a link a build before, which reads no size from a cursor, follows too').to.include('per_page=7');
    expect(next.body.data).to.deep.equal((await get('/v1/wallpapers?per_page=7&page=2')).body.data);
    expect((await get(`/v1/wallpapers?per_page=7&cursor=${cursor}`)).body).to.deep.equal(next.body);
    invalid(await get(`/v1/wallpapers?per_page=20&cursor=${cursor}`), /'cursor': it belongs to a different query/);
    const { perPage: _carried, ...withoutSize } = createCursorCodec('x'.repeat(32)).decode(cursor);
    const issuedBefore = createCursorCodec('x'.repeat(32)).encode(withoutSize);
    invalid(await get(`/v1/wallpapers?cursor=${issuedBefore}`), /'cursor': it belongs to a different query/);
    expect((await get(`/v1/wallpapers?per_page=7&cursor=${issuedBefore}`)).body.data).to.deep.equal(next.body.data);
  });

  it('when a cursor without a seed comes with sort=random and no seed, then 400 names cursor and says where a random walk’s seed is', async () => {
    const codec = createCursorCodec('x'.repeat(32));
    const { seed: _carried, ...withoutSeed } = codec.decode(
      (await get('/v1/wallpapers?sort=random&seed=abc&per_page=5')).body.meta.next_cursor as string,
    );
    const res = await get(`/v1/wallpapers?sort=random&per_page=5&cursor=${codec.encode(withoutSeed)}`);
    invalid(
      res,
      /^Invalid query parameter 'cursor': it carries no seed of a sort=random walk: a cursor of a random walk begun before an upgrade needs its seed/,
    );
    const newest = (await get('/v1/wallpapers?per_page=5')).body.meta.next_cursor as string;
    invalid(await get(`/v1/wallpapers?sort=random&per_page=5&cursor=${newest}`), /^Invalid query parameter 'cursor'/);
    expect((await get(`/v1/wallpapers?sort=random&seed=abc&per_page=5&cursor=${codec.encode(withoutSeed)}`)).status).to.equal(200);
  });

  it('when seed comes without sort=random, or an unknown order is asked, then 400 names the rule', async () => {
    invalid(await get('/v1/wallpapers?seed=abc'), /'seed': only with sort=random/);
    invalid(await get('/v1/wallpapers?sort=popular'), /'sort': must be one of newest, oldest, downloads, relevance, random/);
  });

  it('when a wallpaper is asked with a query parameter, then 400 names it, since the detail takes none', async () => {
    invalid(await get('/v1/wallpapers/1?include=tags'), /^Unknown query parameter 'include' \(allowed: none\)$/);
    invalid(await get('/v1/wallpapers/1?_=1700000000'), /Unknown query parameter '_'/);
    expect((await get('/v1/wallpapers/1')).status).to.equal(200);
  });

  it('when ids are asked, then the wallpapers found come in the order asked, each once, with the missing ids', async () => {
    const res = await get('/v1/wallpapers?ids=7,999,3,7,21');
    expect(res.status).to.equal(200);
    expect(res.body.data.map((w: { id: number }) => w.id)).to.deep.equal([7, 3, 21]);
    expect(res.body.meta).to.deep.equal({ current_page: 1, per_page: 4, total_items: 3, total_pages: 1, next_cursor: null, missing: [999] });
    expect(services.repository.calls).to.equal(1);
    invalid(await get('/v1/wallpapers?ids=1,2&category=space'), /'ids': cannot be combined with other parameters \(got category\)/);
  });

  it('when the same query comes again, then it is answered alike and its next link still continues the walk', async () => {
    for (const path of ['/v1/wallpapers?per_page=5&category=space,nature&sort=oldest', '/v1/search?q=calm&per_page=2']) {
      const [first, again] = [await get(path), await get(path)];
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect(again.headers.get('link')).to.equal(first.headers.get('link'));
      expect(again.headers.get('etag')).to.equal(first.headers.get('etag'));
      const next = await get(nextLink(again)!);
      expect(next.status, JSON.stringify(next.body)).to.equal(200);
      expect(next.body.meta.current_page).to.equal(2);
    }
  });

  it('when sort=random comes twice without a seed, or a refused query comes again, then each is decided afresh', async () => {
    const seeds = new Set<string>();
    for (let i = 0; i < 3; i++) seeds.add((await get('/v1/wallpapers?sort=random&per_page=5')).body.meta.seed as string);
    expect(seeds.size).to.equal(3);
    for (let i = 0; i < 2; i++) invalid(await get('/v1/wallpapers?per_page=7&page=6'), /'page': a page must start within the first 30 results/);
  });

  it('when a kept query comes again, then the key check and the quota still apply to it', async () => {
    const path = '/v1/wallpapers?per_page=5&category=space';
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push(Number((await get(path)).headers.get('x-ratelimit-remaining')));
    expect(remaining).to.deep.equal([remaining[0], remaining[0]! - 1, remaining[0]! - 2]);
    expect((await request(app.url, path)).status).to.equal(401);
    expect((await request(app.url, path, { key: 'not-a-key' })).status).to.equal(403);
  });
});
