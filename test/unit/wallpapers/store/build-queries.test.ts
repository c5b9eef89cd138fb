import { expect } from 'chai';
import type { SortOrder } from '../../../../src/wallpapers/params.js';
import {
  LIST_SORT,
  SEARCH_SORT,
  buildListRequest,
  buildMeaningQuery,
  buildSearchQuery,
  listBody,
  searchBody,
  listFacetsBody,
  suggestBody,
  typoWords,
} from '../../../../src/wallpapers/store/build-queries.js';
import { type Term, readSearchText } from '../../../../src/wallpapers/search-query.js';
import { searchParams } from '../../../support/search-params.js';
import { shuffleOf } from '../../../../src/wallpapers/store/shuffle.js';
import { buildSearchRequest } from '../../../../bench/api/direct-requests.js';
import { WALLPAPER_FIELDS, toWallpaper } from '../../../../src/wallpapers/wallpaper.js';

describe('Elasticsearch query building', () => {
  it('when listing without filters, then match_all with exact totals and newest-first sort', () => {
    const req = buildListRequest('wallpapers', { page: 3, per_page: 25 });
    expect(req).to.deep.include({ index: 'wallpapers', from: 50, size: 25, track_total_hits: true, query: { match_all: {} } });
    expect(req.sort).to.deep.equal(LIST_SORT);
  });

  for (const [name, req] of [
    ['listing', buildListRequest('w', { page: 1, per_page: 20 })],
    ['searching', buildSearchRequest('w', { q: 'red car', page: 1, per_page: 20 })],
  ] as const) {
    it(`when ${name}, then the whole source comes back with only the total, the hits and what a cursor needs, through the request cache`, () => {
      expect(req._source).to.equal(true);
      expect(req.filter_path).to.deep.equal(['hits.total.value', 'hits.hits._source', 'hits.hits._index', 'hits.hits.sort', 'aggregations']);
      expect(req.request_cache).to.equal(true);
    });
  }

  it('when a stored document is turned into a Wallpaper, then only the spec fields remain', () => {
    const doc = {
      id: 1,
      title: 't',
      description: 'd',
      url: 'u',
      thumbnail: 'th',
      resolution: '1920x1080',
      width: 1920,
      height: 1080,
      category: 'nature',
      downloads: 3,
      created_at: '2024-01-01T00:00:00Z',
    };
    expect(Object.keys(toWallpaper(doc))).to.deep.equal([...WALLPAPER_FIELDS]);
  });

  it('when listing with filters, then they are term clauses in filter context', () => {
    const req = buildListRequest('w', { page: 1, per_page: 20, category: ['space'], resolution: ['1920x1080'] });
    expect(req.query).to.deep.equal({
      bool: { filter: [{ term: { category: 'space' } }, { term: { resolution: '1920x1080' } }] },
    });
  });

  it('when searching, then filters do not score, all groups form the top tier, typed matches outweigh typos, and exclusions are must_not', () => {
    const req = buildSearchRequest('w', { q: 'ruby coupe -truck', page: 2, per_page: 10, category: ['cars'] });
    expect(req).to.deep.include({ from: 10, size: 10, track_total_hits: true });
    const bool = (req.query as any).bool;
    expect(bool.filter).to.deep.equal([{ term: { category: 'cars' } }]);
    expect(bool.minimum_should_match).to.equal(1);
    const [all, ...rest] = bool.should;
    expect(all.constant_score.boost).to.equal(100_000);
    expect(all.constant_score.filter.bool.must.map((c: any) => c.multi_match.query)).to.deep.equal(['ruby', 'coupe']);
    const typed = rest.filter((c: any) => c.bool?.boost === 100);
    expect(typed.map((c: any) => c.bool.should[0].multi_match.query)).to.deep.equal(['ruby', 'coupe']);
    const fuzzy = rest.filter((c: any) => c.multi_match?.fuzziness);
    expect(fuzzy.map((c: any) => [c.multi_match.query, c.multi_match.fuzziness])).to.deep.equal([
      ['ruby', 'AUTO:4,8'],
      ['coupe', 'AUTO:4,8'],
    ]);
    expect(bool.must_not.map((c: any) => c.multi_match.query)).to.deep.equal(['truck']);
    expect(req.sort).to.deep.equal(SEARCH_SORT);
  });

  it('when a word stands in compounds naming another thing, then it matches where it stands outside them, and elsewhere only as a last resort', () => {
    const snow: Term = { text: 'snow', phrase: false, apart: ['snow leopard'] };
    const json = (clause: unknown) => JSON.stringify(clause);
    const query = buildSearchQuery({ groups: [[snow]], excluded: [] }) as any;
    const [typed, lastResort] = query.bool.should;
    expect(json(typed)).to.include('"not_overlapping"').and.include('"snow leopard"');
    expect(json(typed.bool.should[0].bool.filter)).to.include('"intervals"');
    expect(json(lastResort), 'the word as it matched before, scored as a typo is').to.not.include('snow leopard');
    expect(lastResort.multi_match.query).to.equal('snow');
    const named = buildMeaningQuery({ groups: [[snow]], excluded: [] }, { groups: [[{ ...snow, thing: true }]], excluded: [] }) as any;
    expect(json(named.bool.should[1]), 'a title naming the compound names no snow').to.include(
      '"must_not":[{"match_phrase":{"title":"snow leopard"}}]',
    );
    expect(json(buildSearchQuery({ groups: [[{ text: 'snow', phrase: false }]], excluded: [] }))).to.not.include('intervals');
  });

  it('when a search asks for what has every group in its title (whole), then the search as ranked is kept to those, filters too', () => {
    const plain = buildSearchRequest('w', { q: 'canyon "at sunset" OR dusk', page: 1, per_page: 10 }).query as any;
    const whole = buildSearchRequest('w', { q: 'canyon "at sunset" OR dusk', page: 1, per_page: 10, category: ['nature'], whole: true });
    const bool = (whole.query as any).bool;
    expect(bool.filter).to.deep.equal([{ term: { category: 'nature' } }]);
    const [kept] = bool.must;
    expect(kept.bool.must, 'ranked as the search ranks').to.deep.equal([plain]);
    const groups = kept.bool.filter[0].bool.must.map((group: any) =>
      group.bool.should.map((c: any) => [c.multi_match.query, c.multi_match.type ?? 'words']),
    );
    expect(groups).to.deep.equal([
      [['canyon', 'words']],
      [
        ['at sunset', 'phrase'],
        ['dusk', 'words'],
      ],
    ]);
    for (const group of kept.bool.filter[0].bool.must)
      for (const c of group.bool.should) expect(c.multi_match.fields).to.deep.equal(['title.exact', 'title']);
  });

  it('when a word is shorter than 4 letters, longer than 12, or not in Latin script, then no typo clause is built for it', () => {
    const fuzzyOf = (q: string) =>
      ((buildSearchRequest('w', { q, page: 1, per_page: 20 }).query as any).bool.should as any[])
        .filter((c) => c.multi_match?.fuzziness)
        .map((c) => c.multi_match.query);
    expect(fuzzyOf('red car')).to.deep.equal([]);
    expect(fuzzyOf('lighthouse 좤베쮴꽓걅춼쟲톔뙡쳛 ωβλταψσσλβπμ')).to.deep.equal(['lighthouse']);
    expect(fuzzyOf(`${'x'.repeat(13)} sunset`)).to.deep.equal(['sunset']);
    expect(fuzzyOf('2024 sunset')).to.deep.equal(['sunset']);
    expect(fuzzyOf('"misty forest" sunset')).to.deep.equal(['sunset']);
  });

  it('when a query has more than 3 words that typos could be looked for in, then only the first 3 get a typo clause', () => {
    const words = Array.from({ length: 14 }, (_, i) => `word${String.fromCharCode(97 + i)}x`);
    const should = (buildSearchRequest('w', { q: words.join(' '), page: 1, per_page: 20 }).query as any).bool.should as any[];
    expect(should.filter((c) => c.multi_match?.fuzziness).map((c) => c.multi_match.query)).to.deep.equal(words.slice(0, 3));
  });

  it('when words of a query occur as typed, then no typo clause is built for them, and they are among the words asked about', () => {
    const text = readSearchText('Noon montain "misty forest" sky');
    expect(typoWords(text)).to.deep.equal(['noon', 'montain']);
    const fuzzy = (buildSearchQuery(text, { occurring: ['noon'] }) as any).bool.should.filter((c: any) => c.multi_match?.fuzziness);
    expect(fuzzy.map((c: any) => c.multi_match.query)).to.deep.equal(['montain']);
  });

  it('when the first words of a query occur, then the typo slots go to the words after them', () => {
    const text = readSearchText('ocean beach forest montain');
    const fuzzy = (buildSearchQuery(text, { occurring: ['ocean', 'beach', 'forest'] }) as any).bool.should.filter(
      (c: any) => c.multi_match?.fuzziness,
    );
    expect(fuzzy.map((c: any) => c.multi_match.query)).to.deep.equal(['montain']);
    expect(typoWords(readSearchText(Array.from({ length: 12 }, (_, i) => `word${String.fromCharCode(97 + i)}`).join(' ')))).to.have.length(8);
  });

  it('when a size stands among joined words, then the words and the size must all match, the size as a resolution, never through a typo', () => {
    // Among alternatives, where a joined term with a size stays one term (query-filler.ts).
    const bool = (buildSearchQuery(readSearchText('sunsett-1920x1080 OR lighthouse'), { occurring: ['lighthouse'] }) as any).bool;
    const isSize = (clause: any) =>
      clause.bool.should[0].multi_match.query === '1920x1080' &&
      JSON.stringify(clause.bool.should[1]) === JSON.stringify({ constant_score: { filter: { term: { resolution: '1920x1080' } } } });
    const [typed, typo] = bool.should;
    expect(typed.bool.boost).to.equal(100);
    const [words, size] = typed.bool.should[0].bool.should[0].bool.must;
    expect(words.multi_match).to.deep.include({ query: 'sunsett', operator: 'and' });
    expect(isSize(size)).to.equal(true);
    expect(typo.bool.must[0].multi_match).to.deep.include({ query: 'sunsett', fuzziness: 'AUTO:4,8' });
    expect(isSize(typo.bool.must[1]), 'the size as typed beside the typo').to.equal(true);
    expect(typoWords(readSearchText('sunsett-1920x1080 OR beach'))).to.deep.equal(['sunsett', 'beach']);
  });

  it('when a size is a term alone, then it matches its resolution or its text, and no typo is looked for in it', () => {
    const bool = (buildSearchRequest('w', { q: '1920X1080', page: 1, per_page: 20 }).query as any).bool;
    expect(bool.should).to.have.length(1);
    expect(bool.should[0].bool.should[0].bool.should[1]).to.deep.equal({ constant_score: { filter: { term: { resolution: '1920x1080' } } } });
    expect(typoWords(readSearchText('1920x1080'))).to.deep.equal([]);
  });

  it('when a size is typed beside words, then its resolution matches only with every group, and ranks what the words find', () => {
    const resolution = { term: { resolution: '1920x1080' } };
    const holdsResolution = (clause: unknown) => JSON.stringify(clause).includes(JSON.stringify(resolution));
    const [every, ...partial] = (buildSearchQuery(readSearchText('lake 1920x1080'), { occurring: ['lake'] }) as any).bool.should;
    expect(every.constant_score.boost, 'the tier of every group').to.equal(100_000);
    expect(holdsResolution(every)).to.equal(true);
    expect(partial.filter(holdsResolution), 'no partial match by the size').to.deep.equal([]);
    const query = searchBody(searchParams({ q: 'lake 1920x1080', page: 1, per_page: 20, occurring: ['lake'] })).query as any;
    const rank = { constant_score: { filter: { terms: { resolution: ['1920x1080'] } }, boost: 100 } };
    expect(JSON.stringify(query)).to.include(JSON.stringify({ should: [rank] }).slice(1, -1));
  });

  it('when only sizes are typed, then they are alternatives, each matching its resolution on its own', () => {
    const { should } = (buildSearchQuery(readSearchText('1920x1080 2560x1440')) as any).bool;
    expect(should, 'one group: no tier of every group').to.have.length(1);
    const [alternatives] = should.map((clause: any) => JSON.stringify(clause));
    expect(alternatives).to.include('"resolution":"1920x1080"');
    expect(alternatives).to.include('"resolution":"2560x1440"');
    const query = searchBody(searchParams({ q: '1920x1080 2560x1440', page: 1, per_page: 20 })).query as any;
    expect(JSON.stringify(query), 'no ranking beside no word').to.not.include('"terms":{"resolution"');
  });

  it('when every group matches but some only through a typo, then that is a tier of its own, below every group as typed', () => {
    const should = (buildSearchQuery(readSearchText('sunsett beach'), { occurring: ['beach'] }) as any).bool.should as any[];
    const tiers = should.filter((c) => c.constant_score).map((c) => c.constant_score);
    expect(tiers.map((t) => t.boost)).to.deep.equal([100_000, 50_000]);
    const [sunsett, beach] = tiers[1].filter.bool.must;
    expect(sunsett.bool.should.map((c: any) => [c.multi_match.query, c.multi_match.fuzziness ?? 'as typed'])).to.deep.equal([
      ['sunsett', 'as typed'],
      ['sunsett', 'AUTO:4,8'],
    ]);
    expect(beach.multi_match).to.deep.include({ query: 'beach' });
    expect(beach.multi_match.fuzziness).to.equal(undefined);
    const tiersOf = (q: string, occurring: string[]) =>
      ((buildSearchQuery(readSearchText(q), { occurring }) as any).bool.should as any[])
        .filter((c) => c.constant_score)
        .map((c) => c.constant_score.boost);
    expect(tiersOf('sunset beach', ['sunset', 'beach']), 'no typo looked for').to.deep.equal([100_000]);
    expect(tiersOf('sunsett', []), 'one group').to.deep.equal([]);
    const knownTiers = (
      (buildSearchQuery(readSearchText('roof sunset'), { occurring: ['sunset'], known: ['roof'] }) as any).bool.should as any[]
    ).filter((c) => c.constant_score);
    expect(
      knownTiers.map((c) => c.constant_score.boost),
      'a real word the catalogue lacks: its typo is no sure one',
    ).to.deep.equal([100_000]);
    const both = (
      (buildSearchQuery(readSearchText('roof sunsett city'), { occurring: ['city'], known: ['roof'] }) as any).bool.should as any[]
    ).filter((c) => c.constant_score);
    expect(both.map((c) => c.constant_score.boost)).to.deep.equal([100_000, 50_000]);
    const [roof] = both[1].constant_score.filter.bool.must;
    expect(roof.multi_match, 'roof only as typed in that tier').to.deep.include({ query: 'roof' });
  });

  it('when a real word is not told known (the other words say it was mistyped), then the every-group tier holds its typo', () => {
    const tiers = (q: string, words: object) =>
      ((buildSearchQuery(readSearchText(q), words) as any).bool.should as any[]).filter((c) => c.constant_score).map((c) => c.constant_score.boost);
    expect(tiers('dessert dunes', { occurring: ['dunes'] })).to.deep.equal([100_000, 50_000]);
    expect(tiers('dessert dunes', { occurring: ['dunes'], known: ['dessert'] }), 'told known').to.deep.equal([100_000]);
  });

  it('when a real word is said to be typed for another, then the every-group tier holds that other word as typed, not every typo of it', () => {
    const should = (
      buildSearchQuery(readSearchText('rain story'), { occurring: ['rain'], known: ['story'], meant: [{ typed: 'story', meant: 'storm' }] }) as any
    ).bool.should as any[];
    const tiers = should.filter((c) => c.constant_score).map((c) => c.constant_score);
    expect(tiers.map((t) => t.boost)).to.deep.equal([100_000, 50_000]);
    const [, story] = tiers[1].filter.bool.must;
    expect(story.bool.should.map((c: any) => [c.multi_match.query, c.multi_match.fuzziness ?? 'as typed'])).to.deep.equal([
      ['story', 'as typed'],
      ['storm', 'as typed'],
    ]);
    const fuzzy = should.filter((c) => c.multi_match?.fuzziness).map((c) => c.multi_match.query);
    expect(fuzzy, 'its typos still found, below').to.deep.equal(['story']);
  });

  it('when a single word is quoted, then no typo is looked for in it: it keeps its exact meaning', () => {
    expect(typoWords(readSearchText('"dear" forest'))).to.deep.equal(['forest']);
    const fuzzy = ((buildSearchQuery(readSearchText('"montain" lake')) as any).bool.should as any[]).filter((c) => c.multi_match?.fuzziness);
    expect(fuzzy.map((c) => c.multi_match.query)).to.deep.equal(['lake']);
  });

  it('when a colour or a word naming a tone is the whole query, then its pixels match as its text does', () => {
    for (const [q, pixels] of [
      ['red', '{"term":{"color_names":"red"}}'],
      ['dark', '{"term":{"tone":"dark"}}'],
    ] as const) {
      const query = buildSearchQuery(readSearchText(q), { occurring: [q] }) as any;
      expect(query.bool.should, q).to.have.length(1);
      expect(JSON.stringify(query.bool.should[0]), q).to.include(pixels);
    }
  });

  it('when a word implying a tone is the whole query, then it matches its text only, and the tone ranks what that finds', () => {
    const query = searchBody(searchParams({ q: 'night', page: 1, per_page: 20, occurring: ['night'] })).query as any;
    expect(JSON.stringify(query.bool.must[0])).to.not.include('"tone"');
    expect(query.bool.should).to.deep.equal([
      { bool: { should: [{ constant_score: { filter: { term: { tone: 'dark' } }, boost: 15 } }], boost: 100 } },
    ]);
  });

  it('when a colour or tone word stands beside other words, then a colour and a named tone count in the every-group tier, and all of them rank what the query finds', () => {
    const typed = buildSearchQuery(readSearchText('night red dark forest'), { occurring: ['night', 'red', 'dark', 'forest'] }) as any;
    const [everyGroup, ...perGroup] = typed.bool.should;
    expect(JSON.stringify(everyGroup)).to.include('{"term":{"tone":"dark"}}').and.include('{"term":{"color_names":"red"}}');
    expect(JSON.stringify(everyGroup.constant_score.filter.bool.must[0]), 'night: a dark picture is no night scene').to.not.include('"tone"');
    expect(JSON.stringify(perGroup)).to.not.include('"tone"').and.not.include('color_names');
    const query = searchBody(searchParams({ q: 'night red dark forest', page: 1, per_page: 20, occurring: ['night', 'red', 'dark', 'forest'] }))
      .query as any;
    const ranks = query.bool.should as any[];
    expect(ranks.map((rank) => rank.bool.boost)).to.deep.equal([100, 100, 100]);
    expect(ranks.map((rank) => JSON.stringify(rank))).to.satisfy((all: string[]) =>
      ['"tone":"dark"', '"color_names":"red"', '"tone":"dark"'].every((held, i) => all[i]!.includes(held)),
    );
    const quoted = searchBody(searchParams({ q: '"red" forest', page: 1, per_page: 20, occurring: ['red', 'forest'] })).query as any;
    expect(JSON.stringify(quoted), 'in quotes, the word').to.not.include('color_names');
  });

  it('when black stands beside other words, then the black in a picture or its dark tone ranks what the query finds, the more of the two; it finds by its palette only', () => {
    const words = { occurring: ['black', 'forest'] };
    const query = searchBody(searchParams({ q: 'black forest', page: 1, per_page: 20, ...words })).query as any;
    const [rank] = query.bool.should as any[];
    const [palette, tone] = rank.bool.should[0].dis_max.queries;
    expect(JSON.stringify(palette)).to.include('"color_names":"black"');
    expect(tone).to.deep.equal({ constant_score: { filter: { term: { tone: 'dark' } }, boost: 15 } });
    const [everyGroup] = (buildSearchQuery(readSearchText('black forest'), words) as any).bool.should;
    expect(JSON.stringify(everyGroup), 'a dark picture is not black').to.not.include('"tone"');
  });

  it('when a phrase people type for a catalogue word is matched by its words, then its first word heads a title and the others are in it, never through a typo', () => {
    const titled: Term = { text: 'rose garden', phrase: false, titled: true };
    const query = buildSearchQuery({ groups: [[{ text: 'rose garden', phrase: true }, titled]], excluded: [] }, { occurring: [] }) as any;
    const clauses = JSON.stringify(query);
    expect(clauses, 'where').to.include('"filter":[{"match":{"title.head":"rose"}},{"match":{"title":{"query":"garden","operator":"and"}}}]');
    expect(clauses, 'scored as its words in a title').to.include(
      '"must":[{"multi_match":{"query":"rose garden","fields":["title.exact^4","title^3"]}}]',
    );
    expect(clauses, 'no typo').to.not.include('fuzziness');
    expect(typoWords({ groups: [[titled]], excluded: [] })).to.deep.equal([]);
  });

  describe("when a colour stands beside the query's subject", () => {
    const words = { occurring: ['black', 'cat', 'sky'] };
    const subjectNamed = '"fields":["title.exact","title","category.text"]';
    const built = (q: string, subject: Term[]) => ({
      typed: buildSearchQuery(readSearchText(q), { ...words, subject }) as any,
      ranked: searchBody(searchParams({ q, page: 1, per_page: 20, ...words, subject })).query as any,
    });

    it('when it is a figure the titles call by another word, then its pixels count and rank only where a title names it, by either word', () => {
      const { typed, ranked } = built('black cat', [
        { text: 'cat', phrase: false, figure: true },
        { text: 'kitten', phrase: false, similarity: 0.8 },
      ]);
      const [everyGroup] = typed.bool.should;
      const pixels = everyGroup.constant_score.filter.bool.must[0].bool.should[1];
      expect(JSON.stringify(pixels.bool.must)).to.include('"color_names":"black"');
      expect(JSON.stringify(pixels.bool.filter)).to.include(subjectNamed).and.include('"query":"cat"').and.include('"query":"kitten"');
      const ranks = ranked.bool.should as any[];
      expect(ranks).to.have.length(1);
      expect(JSON.stringify(ranks[0].bool.should[0].bool.filter)).to.include(subjectNamed);
    });

    const cases: [string, Term[]][] = [
      ['a figure the titles call by its own word', [{ text: 'cat', phrase: false, figure: true }]],
      [
        'what fills its picture',
        [
          { text: 'sky', phrase: false },
          { text: 'clouds', phrase: false, similarity: 0.8 },
        ],
      ],
    ];
    for (const [why, subject] of cases) {
      it(`when it is ${why}, then its pixels count wherever its words match, and rank the wallpapers of it`, () => {
        const { typed, ranked } = built(`black ${subject[0]!.text}`, subject);
        expect(JSON.stringify(typed)).to.include('"color_names":"black"').and.not.include(subjectNamed);
        expect(JSON.stringify(ranked)).to.not.include(subjectNamed);
        const where = JSON.stringify((ranked.bool.should as any[])[0].bool.should[0].bool.filter);
        expect(where, 'the subject, anywhere').to.include(`"query":"${subject[0]!.text}"`).and.include('"description"');
      });
    }
  });

  it('when a query asks only for wallpapers of a shape, then its sharpness filters and its orientation and ratios rank', () => {
    const shape = { orientation: 'landscape' as const, atLeast: { short: 1440, long: 2560 }, ratios: ['21x9', '32x9'] };
    const bool = (buildSearchQuery({ groups: [], excluded: [], shape }) as any).bool;
    expect(bool.filter).to.have.length(1);
    expect(JSON.stringify(bool.filter)).to.include('"gte":2560').and.include('"gte":1440');
    const ranks = JSON.stringify(bool.should);
    expect(bool.should).to.have.length(2);
    expect(ranks).to.include('{"term":{"orientation":"landscape"}}').and.include('{"terms":{"ratio":["21x9","32x9"]}}');
    expect((buildSearchQuery({ groups: [], excluded: [], shape: { ratios: ['3x4'] } }) as any).bool).to.not.have.property('filter');
  });

  it('when the query has one group, then there is no separate every-group tier', () => {
    const bool = (buildSearchRequest('w', { q: 'lighthouses', page: 1, per_page: 20 }).query as any).bool;
    expect(bool.should.some((c: any) => c.constant_score)).to.equal(false);
  });

  it('when the query text has characters of other syntaxes, then only words reach Elasticsearch (no query_string)', () => {
    const req = buildSearchRequest('w', { q: 'a:b OR (c*) ^2 title:x', page: 1, per_page: 20 });
    expect(JSON.stringify(req)).to.not.include('query_string');
    const queries = JSON.stringify(req).match(/"query":"[^"]*"/g) ?? [];
    for (const query of queries) expect(query).to.match(/^"query":"[\p{L}\p{N} ]*"$/u);
  });

  it('when a suggestion prefix is shorter than four characters, then only completions as typed are asked', () => {
    const body = suggestBody(' mou ', 10);
    expect(Object.keys(body.suggest)).to.deep.equal(['titles']);
    expect(body.suggest.titles).to.deep.equal({ prefix: 'mou', completion: { field: 'suggest', size: 10 } });
  });

  it('when a suggestion prefix has four characters or more, then typo completions are a second suggester, not an option of the first', () => {
    const body = suggestBody('moun', 6);
    expect(body.suggest.titles).to.deep.equal({ prefix: 'moun', completion: { field: 'suggest', size: 6 } });
    expect(body.suggest.typos).to.deep.equal({
      prefix: 'moun',
      completion: { field: 'suggest', size: 6, fuzzy: { fuzziness: 'AUTO', prefix_length: 1 } },
    });
  });

  it('when a suggestion prefix holds emoji or symbols, then they are left out; with a number, its words without it are a last suggester', () => {
    const body = suggestBody('sunset 🌅 ✨ 2024 ™', 6);
    expect(body.suggest.titles).to.deep.equal({ prefix: 'sunset 2024', completion: { field: 'suggest', size: 6 } });
    expect(Object.keys(body.suggest)).to.deep.equal(['titles', 'typos', 'words']);
    expect(body.suggest['words']).to.deep.equal({ prefix: 'sunset', completion: { field: 'suggest', size: 6 } });
    expect(Object.keys(suggestBody('sunset', 6).suggest), 'no number, no last suggester').to.deep.equal(['titles', 'typos']);
    expect(Object.keys(suggestBody('2024', 6).suggest), 'nothing but a number: as typed').to.deep.equal(['titles', 'typos']);
    expect(suggestBody('sunset 4k', 6).suggest['words'], 'the whole word goes, not its digits').to.deep.equal({
      prefix: 'sunset',
      completion: { field: 'suggest', size: 6 },
    });
    expect(Object.keys(suggestBody('4k', 6).suggest), 'not a stray letter').to.deep.equal(['titles']);
  });

  it('when a sort is asked, then every order ends with id, so it is total', () => {
    const sortOf = (sort: SortOrder) => buildListRequest('w', { page: 1, per_page: 5, sort }).sort;
    expect(sortOf('newest')).to.deep.equal([{ created_at: { order: 'desc' } }, { id: { order: 'desc' } }]);
    expect(sortOf('oldest')).to.deep.equal([{ created_at: { order: 'asc' } }, { id: { order: 'asc' } }]);
    expect(sortOf('downloads')).to.deep.equal([{ downloads: { order: 'desc' } }, { id: { order: 'asc' } }]);
    expect(sortOf('random')).to.deep.equal([{ [shuffleOf('').field]: { order: 'asc', unmapped_type: 'integer' } }, { id: { order: 'asc' } }]);
    expect(buildSearchRequest('w', { q: 'sea', page: 1, per_page: 5 }).sort).to.deep.equal(SEARCH_SORT);
  });

  it("when sort is random, then a read after a position takes a span of the seed's key, without counting", () => {
    const { field } = shuffleOf('abc');
    const params = { page: 1, per_page: 5, sort: 'random', seed: 'abc', category: ['space'] } as const;
    const req = listBody(params, { read: 'after', after: [-5, 17], lowest: -5, highest: 1000, size: 5 });
    expect(req.query).to.deep.equal({
      bool: { filter: [{ bool: { filter: [{ term: { category: 'space' } }] } }, { range: { [field]: { gte: -5, lte: 1000 } } }] },
    });
    expect(req.sort).to.deep.equal([{ [field]: { order: 'asc', unmapped_type: 'integer' } }, { id: { order: 'asc' } }]);
    expect(req.search_after).to.deep.equal([-5, 17]);
    expect(req).to.not.have.property('from');
    expect([req.size, req.track_total_hits]).to.deep.equal([5, false]);
    expect(listBody(params, { read: 'after', after: null, lowest: -5, highest: 1000, size: 5 })).to.not.have.property('search_after');
  });

  it('when a random page is read by rank, then the span is counted and read from the rank', () => {
    const { field } = shuffleOf('abc');
    const req = listBody({ page: 3, per_page: 5, sort: 'random', seed: 'abc' }, { read: 'rank', from: 10, lowest: 7, highest: 99, size: 5 });
    expect(req.query).to.deep.equal({ bool: { filter: [{ match_all: {} }, { range: { [field]: { gte: 7, lte: 99 } } }] } });
    expect([req.from, req.size, req.track_total_hits]).to.deep.equal([10, 5, true]);
  });

  it("when a random read ends at a walk's start, then of the wallpapers on the start's key only those of lower ids are read", () => {
    const { field } = shuffleOf('abc');
    const before = listBody(
      { page: 1, per_page: 5, sort: 'random', seed: 'abc' },
      { read: 'after', after: [-9, 3], lowest: -9, highest: 7, size: 5, until: [7, 40] },
    );
    expect(before.query).to.deep.equal({
      bool: {
        filter: [{ match_all: {} }, { range: { [field]: { gte: -9, lte: 7 } } }],
        must_not: [{ bool: { filter: [{ term: { [field]: 7 } }, { range: { id: { gte: 40 } } }] } }],
      },
    });
    expect(before.search_after).to.deep.equal([-9, 3]);
  });

  it('when a random page counts, then it is a count of the query alone, the same for every page', () => {
    const count = listBody({ page: 1, per_page: 5, sort: 'random', seed: 'abc', category: ['space'] }, { read: 'count' });
    expect([count.size, count.track_total_hits]).to.deep.equal([0, true]);
    expect(count.query).to.deep.equal({ bool: { filter: [{ term: { category: 'space' } }] } });
    expect(listBody({ page: 4, per_page: 9, sort: 'random', seed: 'xyz', category: ['space'] }, { read: 'count' })).to.deep.equal(count);
  });

  it("when page 1 counts as it reads, then it sorts the whole key from the seed's offset, with no range to narrow the count", () => {
    const { offset, field } = shuffleOf('abc');
    const req = buildListRequest('w', { page: 1, per_page: 5, sort: 'random', seed: 'abc', category: ['space'] });
    expect(req.query).to.deep.equal({ bool: { filter: [{ term: { category: 'space' } }] } });
    expect(req.sort).to.deep.equal([{ [field]: { order: 'asc', unmapped_type: 'integer' } }, { id: { order: 'asc' } }]);
    expect([req.search_after, req.track_total_hits]).to.deep.equal([[offset, 0], true]);
  });

  it('when a catalogue predates the keys, then the scored read hashes id and seed, as before', () => {
    const body = listBody({ page: 2, per_page: 5, sort: 'random', seed: 'abc', category: ['space'] }, { read: 'scored' });
    expect(body.query).to.deep.equal({
      function_score: {
        query: { bool: { filter: [{ term: { category: 'space' } }] } },
        functions: [{ random_score: { seed: 'abc', field: 'id' } }],
        boost_mode: 'replace',
      },
    });
    expect([body.from, body.sort]).to.deep.equal([5, ['_score', { id: { order: 'asc' } }]]);
  });

  it('when a cursor position is given, then the page starts after it, on the index the walk began on', () => {
    const req = buildListRequest('live', { page: 1, per_page: 5, position: { index: 'live-20260101', after: [1700000000000, 42] } });
    expect(req.index).to.equal('live-20260101');
    expect(req.search_after).to.deep.equal([1700000000000, 42]);
    expect(req).to.not.have.property('from');
    expect(req.track_total_hits, 'without the walk total, the page counts it').to.equal(true);
  });

  it('when a cursor page knows its walk total, then a range on the leading sort field skips what came before, and nothing is counted', () => {
    const at = (sort: SortOrder, facets?: ['category']) =>
      buildListRequest('live', {
        page: 1,
        per_page: 5,
        sort,
        ...(facets ? { facets } : {}),
        position: { index: 'live-1', after: [1700000000000, 42], total: 900_000, depth: 500_000 },
      });
    expect(at('newest').query).to.deep.equal({ bool: { filter: [{ range: { created_at: { lte: 1700000000000, format: 'epoch_millis' } } }] } });
    expect(at('newest').track_total_hits).to.equal(false);
    expect(at('oldest').query).to.deep.equal({ bool: { filter: [{ range: { created_at: { gte: 1700000000000, format: 'epoch_millis' } } }] } });
    expect(at('downloads').query).to.deep.equal({ bool: { filter: [{ range: { downloads: { lte: 1700000000000 } } }] } });
    expect(at('random').query, 'a walk begun by score goes on by score, with no range').to.have.property('function_score');
    expect(at('newest', ['category']).track_total_hits, 'facets are counted apart: the page ranges all the same').to.equal(false);
    const shallow = buildListRequest('live', { page: 1, per_page: 5, position: { index: 'live-1', after: [1, 2], total: 900_000, depth: 500 } });
    expect(shallow.query, 'near the top, search_after alone is cheaper').to.deep.equal({ match_all: {} });
    expect(shallow.track_total_hits).to.equal(true);
  });

  it('when list filters hold several values or min_resolution is set, then terms and ranges filter', () => {
    const req = buildListRequest('w', { page: 1, per_page: 5, category: ['space', 'nature'], orientation: 'portrait', min_resolution: '2560x1440' });
    expect(req.query).to.deep.equal({
      bool: {
        filter: [
          { terms: { category: ['space', 'nature'] } },
          { term: { orientation: 'portrait' } },
          { range: { width: { gte: 2560 } } },
          { range: { height: { gte: 1440 } } },
        ],
      },
    });
  });

  it('when facets are asked, then they are a search of their own, each facet counting under every filter but its own, the same for every page', () => {
    const params = {
      page: 1,
      per_page: 5,
      category: ['space'],
      ratio: ['16x9'],
      min_resolution: '1920x1080',
      facets: ['category', 'orientation'],
    } as const;
    const page = buildListRequest('w', params);
    expect(page).to.not.have.property('aggs');
    expect(page).to.not.have.property('post_filter');
    const req = listFacetsBody(params);
    expect([req.size, req.track_total_hits]).to.deep.equal([0, false]);
    expect(req.query).to.deep.equal({ bool: { filter: [{ range: { width: { gte: 1920 } } }, { range: { height: { gte: 1080 } } }] } });
    const later = { ...params, page: 7, per_page: 30, sort: 'random', seed: 'x', position: { index: 'w-1', after: [1, 2], total: 9 } } as const;
    expect(listFacetsBody(later), 'the shard request cache answers every page after the first').to.deep.equal(req);
    const aggs = req.aggs as Record<string, any>;
    expect(Object.keys(aggs)).to.deep.equal(['category', 'orientation']);
    expect(aggs['category'].filter).to.deep.equal({ bool: { filter: [{ term: { ratio: '16x9' } }] } });
    expect(aggs['orientation'].filter).to.deep.equal({ bool: { filter: [{ term: { category: 'space' } }, { term: { ratio: '16x9' } }] } });
    expect(aggs['category'].aggs.values.terms).to.deep.include({ field: 'category', size: 50 });
  });
});
