import { expect } from 'chai';
import { buildMeaningQuery, buildSearchQuery, withSubject } from '../../../../src/wallpapers/store/build-queries.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';

describe('the search for what a query means', () => {
  const text = readSearchText('kitty snow -dog');
  const meaning = {
    groups: [
      [
        { text: 'kitty', phrase: false, thing: true as const },
        { text: 'kitten', phrase: false, similarity: 0.78 },
      ],
      [{ text: 'snow', phrase: false }],
    ],
    excluded: text.excluded,
  };

  it('when a query has no meaning beyond its words, then it is searched as typed', () => {
    expect(buildMeaningQuery(text, undefined)).to.deep.equal(buildSearchQuery(text));
  });

  it('when it has one, then every group matched through a word of it is a tier, each word weighing its similarity, and exclusions hold', () => {
    const query = buildMeaningQuery(text, meaning) as { bool: { should: unknown[]; minimum_should_match: number } };
    expect(query.bool.minimum_should_match).to.equal(1);
    expect(query.bool.should[0]).to.deep.equal(buildSearchQuery(text));
    type Tier = { constant_score: { boost: number; filter: unknown } };
    type Tiered = { dis_max: { queries: Tier[] } };
    type Partial = { bool: { must: [Tiered]; must_not: unknown[] } };
    const byMeaning = query.bool.should[1] as {
      bool: { should: [{ bool: { must: { dis_max: { queries: (Tier | Tiered)[] } }[] } }, ...Partial[]]; must_not: unknown[] };
    };
    const [everyGroup, ...someGroups] = byMeaning.bool.should;
    expect(everyGroup.bool.must).to.have.length(2);
    const [kitty, kitten] = everyGroup.bool.must[0]!.dis_max.queries as [Tiered, Tier];
    // A thing as typed: its full weight in a title or category as written, less where only a description says it.
    const [named, described] = kitty.dis_max.queries;
    expect(named!.constant_score.boost).to.equal(25_000);
    expect(JSON.stringify(named!.constant_score.filter)).to.not.include('description');
    expect(JSON.stringify(named!.constant_score.filter), 'the title as written, not stemmed').to.not.include('"title"');
    // Beside another group, named by a word anywhere in the title, a setting too ("mountain road").
    expect(JSON.stringify(named!.constant_score.filter)).to.not.include('title.subject');
    expect(described!.constant_score.boost).to.be.closeTo(25_000 * 0.7, 1e-6);
    expect(described!.constant_score.boost, 'below the nearest stand-in in a title').to.be.below(25_000 * 0.78);
    // A stand-in weighs its similarity wherever it is found.
    expect(kitten.constant_score.boost).to.be.closeTo(25_000 * 0.78, 1e-6);
    // A word as typed that names no thing ("snow" here) weighs the same wherever it is found.
    const [snow] = everyGroup.bool.must[1]!.dis_max.queries as [Tier];
    expect(snow.constant_score.boost).to.equal(25_000);
    expect(byMeaning.bool.must_not).to.have.length(1);
    // kitten alone, without snow: a partial match, weighed below what a word as typed scores there,
    // and only where kitty is not matched as typed, so the group counts once.
    expect(someGroups).to.have.length(1);
    expect(someGroups[0]!.bool.must[0].dis_max.queries.map(({ constant_score }) => constant_score.boost)).to.deep.equal([780]);
    expect(JSON.stringify(someGroups[0]!.bool.must_not)).to.include('"query":"kitty"');
  });

  it("when a thing is the query's only group, then it is named by its title's subject only, or anywhere in a title that has none", () => {
    const alone = readSearchText('kitty');
    const query = buildMeaningQuery(alone, { groups: [meaning.groups[0]!], excluded: [] }) as { bool: { should: unknown[] } };
    type Tier = { constant_score: { filter: { bool: { should: unknown[] } } } };
    const byMeaning = query.bool.should[1] as {
      bool: { should: [{ bool: { must: { dis_max: { queries: [{ dis_max: { queries: [Tier] } }] } }[] } }] };
    };
    const [named] = byMeaning.bool.should[0].bool.must[0]!.dis_max.queries[0].dis_max.queries;
    const namedBy = named.constant_score.filter.bool.should.map((clause) => JSON.stringify(clause));
    expect(namedBy).to.include(JSON.stringify({ match: { 'title.subject': 'kitty' } }));
    expect(namedBy.filter((c) => c.includes('"title.exact"') && c.includes('"must_not":[{"exists":{"field":"title.subject"}}]'))).to.have.length(1);
  });

  it('when the query has a subject, then matching it scores more, and what the query matches or excludes is unchanged', () => {
    const query = buildMeaningQuery(text, meaning);
    expect(withSubject(query, undefined)).to.equal(query);
    const subject = withSubject(query, meaning.groups[0]) as { bool: { must: unknown[]; should: { constant_score: { boost: number } }[] } };
    // The query must match as before (its exclusions inside it); the subject only adds to the score.
    expect(subject.bool.must).to.deep.equal([query]);
    expect(subject.bool).to.not.have.property('minimum_should_match');
    expect(subject.bool.should).to.have.length(1);
    const boost = subject.bool.should[0]!.constant_score.boost;
    expect(boost)
      .to.be.above(2_500)
      .and.below(25_000 * 0.78);
    expect(JSON.stringify(subject.bool.should)).to.include('"query":"kitten"');
  });

  it('when every group matches as typed, then that tier stays above any match through meaning', () => {
    const typed = JSON.stringify(buildSearchQuery(text));
    const tiers = [...typed.matchAll(/"boost":(\d+)/g)].map(([, boost]) => Number(boost));
    const highestByMeaning = 2 * 25_000;
    expect(Math.max(...tiers)).to.be.greaterThan(highestByMeaning);
  });
});
