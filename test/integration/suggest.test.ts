import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fixtureWallpapers } from '../support/fixtures.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const texts = (body: { data: { text: string }[] }) => body.data.map((s) => s.text);

describe('GET /v1/search/suggest', () => {
  const ctx = useCatalogue();
  const suggest = (query: string, key: string | null = ctx.key) => request(ctx.app.url, `/v1/search/suggest?${query}`, { key: key ?? undefined });

  it('when the start of a title is typed, then the title is suggested with the meta of the request', async () => {
    const res = await suggest('q=auro');
    expect(res.status).to.equal(200);
    expect(texts(res.body)).to.deep.equal(['Aurora Borealis over Frozen Lake']);
    expect(res.body.meta).to.deep.equal({ q: 'auro', limit: 5 });
  });

  it('when a later word of a title is typed, then the whole title is suggested', async () => {
    expect(texts((await suggest('q=borea')).body)).to.deep.equal(['Aurora Borealis over Frozen Lake']);
    expect(texts((await suggest('q=harb')).body)).to.deep.equal(['Lighthouse Harbor']);
  });

  it('when several wallpapers share a title, then it is suggested once', async () => {
    expect(texts((await suggest('q=lighthouse')).body)).to.deep.equal(['Lighthouse Harbor']);
  });

  it('when the prefix has a typo past its first letter, then the title is still suggested', async () => {
    expect(texts((await suggest('q=nebla')).body)).to.include('Crab Nebula');
  });

  it('when more titles match than the limit, then the limit is kept', async () => {
    const res = await suggest('q=calm&limit=2');
    expect(res.body.data).to.have.length(2);
    expect(res.body.meta).to.deep.equal({ q: 'calm', limit: 2 });
  });

  it('when tabs or line breaks are typed (around or between words), then they are spaces, as in a search', async () => {
    const spaced = await suggest(`q=${encodeURIComponent('aurora bor')}`);
    expect(texts(spaced.body)).to.deep.equal(['Aurora Borealis over Frozen Lake']);
    for (const space of ['\t', '\n', '\u000b', '\f', '\r', '\u0085']) {
      const res = await suggest(`q=${encodeURIComponent(`${space}aurora${space}bor${space}`)}`);
      expect(res.status, JSON.stringify(space)).to.equal(200);
      expect(res.body, JSON.stringify(space)).to.deep.equal({ ...spaced.body, meta: { q: 'aurora bor', limit: 5 } });
    }
  });

  it('when it is asked without a key, then 401; with one, it counts against the quota', async () => {
    expect((await suggest('q=auro', null)).status).to.equal(401);
    const first = await suggest('q=auro');
    const second = await suggest('q=aur');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).to.equal(Number(first.headers.get('x-ratelimit-remaining')) - 1);
  });

  for (const [query, rule] of [
    ['', /Missing required query parameter 'q'/],
    ['q=%20%20', /'q': must be at least 1/],
    ['q=!!!', /'q': must contain at least one letter or digit/],
    [`q=${'a'.repeat(51)}`, /'q': must be at most 50/],
    ['q=sky&limit=11', /'limit': must be an integer <= 10/],
    ['q=sky&limit=0', /'limit': must be an integer >= 1/],
    ['q=sky&size=3', /Unknown query parameter 'size'/],
  ] as const) {
    it(`when the request is ${JSON.stringify(query)}, then 400 names the parameter and its rule`, async () => {
      const res = await suggest(query);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(rule);
    });
  }
});

describe('GET /v1/search/suggest, completions as typed and through a typo', () => {
  const popularMoon = () => {
    const [moon, mountain, ...rest] = fixtureWallpapers();
    return [{ ...moon!, title: 'Moon over the Bay', downloads: 1_000_000 }, { ...mountain!, title: 'Mountain Pass', downloads: 1 }, ...rest];
  };
  const ctx = useCatalogue({}, { docs: popularMoon });

  it('when a prefix completes one title as typed and a far more popular one only through a typo, then the typed completion comes first', async () => {
    const res = await request(ctx.app.url, '/v1/search/suggest?q=moun', { key: ctx.key });
    expect(texts(res.body)).to.deep.equal(['Mountain Pass', 'Moon over the Bay']);
  });
});

describe('GET /v1/search/suggest, titles that end alike', () => {
  // Every word of a title starts an input, so these three share the input "Sunset": the titles
  // must still come apart, most popular first.
  const atSunset = () => {
    const [beach, wolf, racer, ...rest] = fixtureWallpapers();
    return [
      { ...beach!, title: 'Beach at Sunset', downloads: 300 },
      { ...wolf!, title: 'Wolf at Sunset', downloads: 200 },
      { ...racer!, title: 'Racer at Sunset', downloads: 100 },
      ...rest,
    ];
  };
  const ctx = useCatalogue({}, { docs: atSunset });

  it('when a word ends several titles, then each of them is suggested, most popular first', async () => {
    const res = await request(ctx.app.url, '/v1/search/suggest?q=suns', { key: ctx.key });
    expect(texts(res.body)).to.deep.equal(['Beach at Sunset', 'Wolf at Sunset', 'Racer at Sunset']);
    const two = await request(ctx.app.url, '/v1/search/suggest?q=sunset&limit=2', { key: ctx.key });
    expect(texts(two.body)).to.deep.equal(['Beach at Sunset', 'Wolf at Sunset']);
  });
});

describe('GET /v1/search/suggest, titles with numbers and accents', () => {
  // The completion field had read titles as letters only: a number typed completed nothing, and
  // "harbor number 4" gave the other numbers, most popular first (helper-136).
  const numbered = () => {
    const [four, nine, cafe, ...rest] = fixtureWallpapers();
    return [
      { ...four!, title: 'Quiet Harbor Number 4', downloads: 10 },
      { ...nine!, title: 'Quiet Harbor Number 9', downloads: 900 },
      { ...cafe!, title: 'Café at Dusk', downloads: 50 },
      ...rest,
    ];
  };
  const ctx = useCatalogue({}, { docs: numbered });
  const suggest = async (q: string) => texts((await request(ctx.app.url, `/v1/search/suggest?q=${encodeURIComponent(q)}`, { key: ctx.key })).body);

  it('when a number of a title is typed, then the title it completes is suggested, before more popular titles with other numbers', async () => {
    expect((await suggest('harbor number 4'))[0], 'as typed, before 9 through a typo').to.equal('Quiet Harbor Number 4');
    expect((await suggest('number 4'))[0], 'from a later word').to.equal('Quiet Harbor Number 4');
    expect(await suggest('harbor number')).to.deep.equal(['Quiet Harbor Number 9', 'Quiet Harbor Number 4']);
  });

  it('when emoji or symbols are typed beside words, or a number no title holds, then the words still complete (helper-137)', async () => {
    expect((await suggest('harbor number 4 🌅'))[0]).to.equal('Quiet Harbor Number 4');
    expect(await suggest('quiet harbor ✨')).to.have.members(['Quiet Harbor Number 9', 'Quiet Harbor Number 4']);
    expect(await suggest('quiet harbor 2024'), 'after every completion with the number: none here').to.have.members([
      'Quiet Harbor Number 9',
      'Quiet Harbor Number 4',
    ]);
    expect(await suggest('quiet harbor 4k'), 'a word with a number goes whole (helper-138)').to.have.members([
      'Quiet Harbor Number 9',
      'Quiet Harbor Number 4',
    ]);
    expect(await suggest('4k'), 'not a stray k').to.deep.equal([]);
  });

  it('when a word is typed with or without its accents, then the title is suggested as written', async () => {
    expect(await suggest('cafe at')).to.deep.equal(['Café at Dusk']);
    expect(await suggest('café')).to.deep.equal(['Café at Dusk']);
  });
});

describe('GET /v1/search/suggest on a catalogue indexed before suggestions existed', () => {
  const before = JSON.parse(readFileSync(new URL('../fixtures/mapping-standard-analyzer.json', import.meta.url), 'utf8')) as object;
  const ctx = useCatalogue({}, { mapping: before });

  it('when suggestions are asked, then 503 says they are not available yet, and searches still answer', async () => {
    const res = await request(ctx.app.url, '/v1/search/suggest?q=auro', { key: ctx.key });
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({
      error: 'service_unavailable',
      message: 'Suggestions are not available for this catalogue yet, please retry later',
      status: 503,
    });
    expect((await request(ctx.app.url, '/v1/search?q=aurora', { key: ctx.key })).status).to.equal(200);
  });

  it('when the prefix holds a control character (the completion field reserves U+001F; C1 controls as in search), then 400 names q instead of a 500', async () => {
    for (const control of ['\u001f', '\u0000', '\u0008', '\u000e', '\u007f', '\u0084', '\u009f']) {
      const res = await request(ctx.app.url, `/v1/search/suggest?q=${encodeURIComponent(`moun${control}tain`)}`, { key: ctx.key });
      expect(res.status, JSON.stringify(control)).to.equal(400);
      expect(res.body.message).to.include("'q'");
    }
  });
});
