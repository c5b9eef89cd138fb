import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import { buildListRequest, listFacetsBody, searchBody } from '../../../../src/wallpapers/store/build-queries.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';
import type { ListParams } from '../../../../src/wallpapers/params.js';
import { MIN_SHARE, cellOf, cellsNear, hexToLab, labToHex } from '../../../../src/wallpapers/colors.js';

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
    const color = filter.find((c) => json(c).includes('color_cells'))!;
    expect(color.bool!.minimum_should_match).to.equal(1);
    expect(color.bool!.should, 'the name, then the cells near the hex').to.have.lengthOf(2);
    expect(color.bool!.should).to.deep.include({ term: { color_names: 'blue' } });
    expect(query!.bool!.should, 'no scores without sort=relevance').to.equal(undefined);
  });

  it('when hexes are asked, then one terms query holds the cells near any of them, each once', () => {
    const { query } = list({ color: ['#808080', '#7f7f7f'] });
    const cells = (query!.bool!.filter as Clause[])[0]!.terms!['color_cells'] as string[];
    expect(new Set(cells).size).to.equal(cells.length);
    expect(cells).to.have.members([...new Set([...cellsNear(hexToLab('#808080')), ...cellsNear(hexToLab('#7f7f7f'))].map(({ cell }) => cell))]);
    expect(cells).to.include(cellOf(hexToLab('#808080')));
  });

  it('when a hex is asked with sort=relevance, then closer cells and larger colours score more, the best match counting', () => {
    const { query } = list({ color: ['#808080'], sort: 'relevance' });
    const queries = (query!.bool!.should as Clause[])[0]!.dis_max!.queries;
    const own = cellOf(hexToLab('#808080'));
    const scoreOf = (field: string, term: string) =>
      Math.max(
        ...queries
          .filter(
            (q) =>
              (q.constant_score!.filter.terms?.[field] as string[] | undefined)?.includes(term) ?? q.constant_score!.filter.term?.[field] === term,
          )
          .map((q) => q.constant_score!.boost!),
      );
    const far = cellsNear(hexToLab('#808080')).sort((a, b) => b.distance - a.distance)[0]!.cell;
    expect(scoreOf('color_cells', own), 'its own cell, 5 %').to.be.above(scoreOf('color_cells', far));
    expect(scoreOf('color_ranks', `${own}@50`), 'half the picture').to.be.above(scoreOf('color_ranks', `${own}@15`));
    expect(scoreOf('color_ranks', `${own}@15`)).to.be.above(scoreOf('color_cells', own));
    expect(scoreOf('color_ranks', `${own}@50`)).to.be.at.most(1000 * 0.5);
    expect(scoreOf('color_cells', own)).to.be.closeTo(1000 * MIN_SHARE, 5);
  });

  it('when a hex is asked with sort=relevance, then a lighter or darker shade of it scores less than the hex itself', () => {
    const { query } = list({ color: ['#1e3a5f'], sort: 'relevance' });
    const queries = (query!.bool!.should as Clause[])[0]!.dis_max!.queries;
    const scoreOf = (hex: string) => {
      const cell = cellOf(hexToLab(hex));
      return Math.max(
        ...queries
          .filter((q) => (q.constant_score!.filter.terms?.['color_cells'] as string[] | undefined)?.includes(cell))
          .map((q) => q.constant_score!.boost!),
      );
    };
    const own = hexToLab('#1e3a5f');
    expect(scoreOf('#1e3a5f')).to.be.above(scoreOf(labToHex({ ...own, l: own.l + 13 })));
    expect(scoreOf(labToHex({ ...own, l: own.l + 13 }))).to.be.above(0);
  });

  it('when tags and colours are asked with sort=relevance, then each tag is a tier and each colour a score, optional, never a filter', () => {
    const { query } = list({ tags: ['night', 'neon'], color: ['orange'], sort: 'relevance' });
    expect(query!.bool!.minimum_should_match).to.equal(0);
    const should = query!.bool!.should as Clause[];
    expect(should.slice(0, 2)).to.deep.equal([
      { constant_score: { filter: { term: { tags: 'night' } }, boost: 1_000_000 } },
      { constant_score: { filter: { term: { tags: 'neon' } }, boost: 1_000_000 } },
    ]);
    expect(should[2]!.dis_max!.queries).to.deep.equal([
      { constant_score: { filter: { term: { color_names: 'orange' } }, boost: 50 } },
      { constant_score: { filter: { term: { color_ranks: 'orange@15' } }, boost: 150 } },
      { constant_score: { filter: { term: { color_ranks: 'orange@30' } }, boost: 300 } },
      { constant_score: { filter: { term: { color_ranks: 'orange@50' } }, boost: 500 } },
    ]);
  });

  it('when a search has tags with sort=relevance, then the text stays a must and the tags add to its score', () => {
    const body = searchBody({ page: 1, per_page: 20, q: 'forest', text: readSearchText('forest'), tags: ['misty'] });
    expect(body.query.bool!.must).to.have.lengthOf(1);
    expect(body.query.bool!.should).to.deep.equal([{ constant_score: { filter: { term: { tags: 'misty' } }, boost: 1_000_000 } }]);
  });

  it('when colours are faceted and filtered, then the page keeps the colour filter and the colour facet counts without it', () => {
    const params = { page: 1, per_page: 20, color: ['blue'], tone: 'dark', facets: ['color', 'tone'] } as const;
    expect(list(params).query).to.deep.equal({ bool: { filter: [{ term: { color_names: 'blue' } }, { term: { tone: 'dark' } }] } });
    const request = listFacetsBody(params);
    expect(request.query).to.deep.equal({ match_all: {} });
    const aggs = request.aggs as Record<string, { filter: Clause; aggs: { values: { terms: { field: string } } } }>;
    expect(aggs['color']!.filter).to.deep.equal({ bool: { filter: [{ term: { tone: 'dark' } }] } });
    expect(aggs['color']!.aggs.values.terms.field).to.equal('color_names');
    expect(aggs['tone']!.filter).to.deep.equal({ bool: { filter: [{ term: { color_names: 'blue' } }] } });
  });
});
