import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import { buildListRequest, searchBody } from '../../../../src/wallpapers/store/build-queries.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';
import type { ListParams } from '../../../../src/wallpapers/params.js';
import { AB_UNIT_METRES } from '../../../../src/wallpapers/colors.js';

type Clause = estypes.QueryDslQueryContainer;
const list = (params: Partial<ListParams>) => buildListRequest('w', { page: 1, per_page: 20, ...params });
const json = (value: unknown) => JSON.stringify(value);

describe('queries for tags, colours and tone', () => {
  it('when tags, exclusions, a tone and colours are asked, then each becomes a filter', () => {
    const { query } = list({ tags: ['night', 'neon'], exclude_tags: ['people'], exclude_ids: [4, 9], tone: 'dark', color: ['blue', '#1e3a8a'] });
    const filter = query!.bool!.filter as Clause[];
    expect(filter).to.deep.include({ terms: { tags: ['night', 'neon'] } });
    expect(filter).to.deep.include({ term: { tone: 'dark' } });
    expect(filter).to.deep.include({ bool: { must_not: [{ term: { tags: 'people' } }, { ids: { values: ['4', '9'] } }] } });
    const color = filter.find((c) => json(c).includes('palette'))!;
    expect(color.bool!.minimum_should_match).to.equal(1);
    expect(color.bool!.should).to.deep.include({ term: { color_names: 'blue' } });
    expect(color.bool!.should, 'the name, then the hex in each of six slots').to.have.lengthOf(7);
    expect(json(color)).to.include('"geo_distance"').and.include('"ignore_unmapped":true');
    expect(query!.bool!.should, 'no scores without sort=relevance').to.equal(undefined);
  });

  it('when a hex is asked, then lightness is a range of ±15 and the a*b* plane a distance of 20 units', () => {
    const { query } = list({ color: ['#808080'] });
    const slots = ((query!.bool!.filter as Clause[])[0]!.bool!.should as Clause[]).map((slot) => slot.bool!.filter as Clause[]);
    expect(slots.map(([lightness]) => Object.keys(lightness!.range!)[0])).to.deep.equal([0, 1, 2, 3, 4, 5].map((i) => `palette.s${i}.l`));
    const [lightness, plane] = slots[0]!;
    const range = lightness!.range!['palette.s0.l'] as { gte: number; lte: number };
    expect(range.lte - range.gte).to.be.closeTo(30, 1e-9);
    expect(plane!.geo_distance!['distance']).to.equal(`${20 * AB_UNIT_METRES}m`);
    expect(AB_UNIT_METRES, 'a thousandth of a degree on the mean Earth radius').to.be.closeTo(111.195, 0.001);
  });

  it('when tags and colours are asked with sort=relevance, then each tag is a tier and each colour a score, optional, never a filter', () => {
    const { query } = list({ tags: ['night', 'neon'], color: ['orange'], sort: 'relevance' });
    expect(query!.bool!.minimum_should_match).to.equal(0);
    const should = query!.bool!.should as Clause[];
    expect(should.slice(0, 2)).to.deep.equal([
      { constant_score: { filter: { term: { tags: 'night' } }, boost: 1_000_000 } },
      { constant_score: { filter: { term: { tags: 'neon' } }, boost: 1_000_000 } },
    ]);
    expect(should[2]!.dis_max!.boost).to.equal(1000);
    expect(should[2]!.dis_max!.queries.map((q) => (q.function_score as estypes.QueryDslFunctionScoreQuery).query)).to.deep.equal(
      [0, 1, 2, 3, 4, 5].map((i) => ({ term: { [`palette.s${i}.names`]: 'orange' } })),
    );
  });

  it('when a search has tags with sort=relevance, then the text stays a must and the tags add to its score', () => {
    const body = searchBody({ page: 1, per_page: 20, q: 'forest', text: readSearchText('forest'), tags: ['misty'] });
    expect(body.query.bool!.must).to.have.lengthOf(1);
    expect(body.query.bool!.should).to.deep.equal([{ constant_score: { filter: { term: { tags: 'misty' } }, boost: 1_000_000 } }]);
  });

  it('when colours are faceted and filtered, then the colour filter moves to the post_filter and the colour facet counts without it', () => {
    const request = list({ color: ['blue'], tone: 'dark', facets: ['color', 'tone'] });
    expect(request.post_filter).to.deep.equal({ bool: { filter: [{ term: { color_names: 'blue' } }, { term: { tone: 'dark' } }] } });
    const aggs = request.aggs as Record<string, { filter: Clause; aggs: { values: { terms: { field: string } } } }>;
    expect(aggs['color']!.filter).to.deep.equal({ bool: { filter: [{ term: { tone: 'dark' } }] } });
    expect(aggs['color']!.aggs.values.terms.field).to.equal('color_names');
    expect(aggs['tone']!.filter).to.deep.equal({ bool: { filter: [{ term: { color_names: 'blue' } }] } });
  });
});
