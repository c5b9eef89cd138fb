import { expect } from 'chai';
import fc from 'fast-check';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import type { ListItem } from '../../src/wallpapers/catalogued.js';
import { WALLPAPER_FIELDS } from '../../src/wallpapers/wallpaper.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const docs = () => [...generateWallpapers({ count: 1500, seed: 7, imageBaseUrl: 'https://images.wallpapers.example' })];

describe('tags, exclusions and include on the real catalogue', function () {
  this.timeout(120_000);
  const ctx = useCatalogue({}, { docs });

  const get = async (path: string) => {
    const res = await request(ctx.app.url, path, { key: ctx.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as {
      data: ListItem[];
      meta: { total_items: number; next_cursor: string | null; facets?: Record<string, { value: string; count: number }[]> };
    };
  };
  /** What Elasticsearch itself counts for a query on the catalogue's index, with no API in between. */
  const esCount = async (query: object) => (await ctx.es.count({ index: ctx.alias, query })).count;

  it('when tags are asked, then the total is what Elasticsearch counts for any of them', async () => {
    for (const tags of [['neon'], ['night', 'neon'], ['space', 'calm', 'golden hour'], ['no such tag']]) {
      const { meta } = await get(`/v1/wallpapers?tags=${tags.map(encodeURIComponent).join(',')}`);
      expect(meta.total_items, tags.join(',')).to.equal(await esCount({ terms: { tags } }));
    }
    const { meta } = await get('/v1/search?q=forest&tags=nature,misty&exclude_tags=winter');
    expect(meta.total_items).to.be.greaterThan(0);
  });

  it('when tags are faceted, then each count is the total of that tag under the other filters', async () => {
    const { meta } = await get('/v1/wallpapers?category=space&facets=tags');
    const top = meta.facets!['tags']!.slice(0, 5);
    expect(top.length).to.equal(5);
    for (const { value, count } of top) {
      expect(count, value).to.equal(await esCount({ bool: { filter: [{ term: { category: 'space' } }, { term: { tags: value } }] } }));
    }
  });

  it('when tags are asked with sort=relevance, then wallpapers with more of them come first', async () => {
    const tags = ['space', 'dreamy', 'calm'];
    const { data } = await get(`/v1/wallpapers?tags=${tags.join(',')}&sort=relevance&include=tags&per_page=100`);
    const matched = data.map((w) => w.tags!.filter((tag) => tags.includes(tag)).length);
    expect(matched[0]).to.equal(2);
    expect(matched).to.deep.equal([...matched].sort((a, b) => b - a));
  });

  it('when ids are excluded, then exactly those leave the results and the total drops by as many', async () => {
    const first = await get('/v1/wallpapers?category=nature&per_page=10');
    const gone = first.data.slice(0, 4).map((w) => w.id);
    const after = await get(`/v1/wallpapers?category=nature&per_page=10&exclude_ids=${gone.join(',')},999999`);
    expect(after.meta.total_items).to.equal(first.meta.total_items - 4);
    expect(after.data.slice(0, 6).map((w) => w.id)).to.deep.equal(first.data.slice(4).map((w) => w.id));
    expect(after.data.filter((w) => gone.includes(w.id))).to.deep.equal([]);
  });

  it('when a list has no include, then items have the nine fields; include adds exactly what it names; a get has them all', async () => {
    const nine = [...WALLPAPER_FIELDS];
    expect(Object.keys((await get('/v1/wallpapers?per_page=1')).data[0]!)).to.deep.equal(nine);
    expect(Object.keys((await get('/v1/search?q=forest&per_page=1&include=tags')).data[0]!)).to.deep.equal([...nine, 'tags']);
    expect(Object.keys((await get('/v1/wallpapers?per_page=1&include=colors,dimensions')).data[0]!)).to.deep.equal([
      ...nine,
      'width',
      'height',
      'ratio',
      'orientation',
      'colors',
      'tone',
    ]);
    const id = (await get('/v1/wallpapers?per_page=1')).data[0]!.id;
    const detail = (await request(ctx.app.url, `/v1/wallpapers/${id}`, { key: ctx.key })).body as Record<string, unknown>;
    expect(Object.keys(detail)).to.deep.equal([...nine, 'width', 'height', 'ratio', 'orientation', 'tags', 'colors', 'tone']);
  });

  it('when a cursor walk changes include, then it goes on: include changes what a page tells, not which wallpapers', async () => {
    const first = await get('/v1/wallpapers?tone=dark&per_page=5');
    const cursor = first.meta.next_cursor!;
    const next = await get(`/v1/wallpapers?tone=dark&per_page=5&include=tags&cursor=${cursor}`);
    expect(next.data).to.have.lengthOf(5);
    expect(next.data[0]!.tags).to.be.an('array');
  });

  it('when a filter value breaks its rule, then 400 names the parameter and the rule', async () => {
    const cases: [string, RegExp][] = [
      ['color=%2312345', /'color': each value must have the form a hex such as #1e3a5f or a name such as blue/],
      // Too long as well: the rules one parameter breaks are said after its name once.
      ['color=ultraviolet', /'color': (.*; )?each value must have the form/],
      ['color=a,b,c,d,e,f', /'color': must have at most 5 comma-separated values/],
      ['tags=Bad!', /'tags': each value must have the form a tag such as sunset or pine forest/],
      [`tags=${'a'.repeat(33)}`, /'tags': each value must be at most 32 characters/],
      [`tags=${Array.from({ length: 11 }, (_, i) => `t${i}`).join(',')}`, /'tags': must have at most 10 comma-separated values/],
      ['exclude_ids=0', /'exclude_ids': each value must be an integer >= 1/],
      ['exclude_tags=', /'exclude_tags'/],
      ['include=everything', /'include': each value must be one of tags, colors, dimensions/],
      ['tone=grey', /'tone': must be one of light, dark/],
    ];
    for (const [query, message] of cases) {
      const res = await request(ctx.app.url, `/v1/wallpapers?${query}`, { key: ctx.key });
      expect([res.status, res.body.error], query).to.deep.equal([400, 'invalid_request']);
      expect(res.body.message, query).to.match(message);
    }
  });

  it('when any query is split by a tag into tags= and exclude_tags=, then the two parts partition it', async () => {
    const facets = (await get('/v1/wallpapers?facets=tags')).meta.facets!['tags']!.map(({ value }) => value);
    const query = fc.record({
      tag: fc.constantFrom(...facets.slice(0, 30)),
      category: fc.option(fc.constantFrom('nature', 'space', 'cityscapes', 'ocean', 'anime'), { nil: undefined }),
      tone: fc.option(fc.constantFrom('light', 'dark'), { nil: undefined }),
      color: fc.option(fc.constantFrom('blue', 'orange', 'green', 'black', '%234f97dc'), { nil: undefined }),
      q: fc.option(fc.constantFrom('forest', 'night', 'city', 'sunset'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(query, async ({ tag, category, tone, color, q }) => {
        const filters = [category && `category=${category}`, tone && `tone=${tone}`, color && `color=${color}`].filter(Boolean).join('&');
        const path = (more: string) => `${q ? `/v1/search?q=${q}&` : '/v1/wallpapers?'}${filters}&per_page=100&include=tags&${more}`;
        const [all, tagged, untagged] = await Promise.all([
          get(path('')),
          get(path(`tags=${encodeURIComponent(tag)}`)),
          get(path(`exclude_tags=${encodeURIComponent(tag)}`)),
        ]);
        expect(tagged.meta.total_items + untagged.meta.total_items).to.equal(all.meta.total_items);
        expect(tagged.data.every((w) => w.tags!.includes(tag))).to.equal(true);
        expect(untagged.data.some((w) => w.tags!.includes(tag))).to.equal(false);
        if (all.meta.total_items <= 100) {
          const ids = (page: typeof all) => page.data.map((w) => w.id).sort((a, b) => a - b);
          expect([...ids(tagged), ...ids(untagged)].sort((a, b) => a - b)).to.deep.equal(ids(all));
        }
      }),
      { numRuns: 60, seed: 27 },
    );
  });
});
