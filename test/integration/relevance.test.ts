import { expect } from 'chai';
import { connectEs, dropIndicesOf, readyRedis, testConfig, uniqueName } from '../support/harness.js';
import { type DemoSearch, demoSearch } from '../relevance/demo-search.js';
import { type RelevanceReport, evaluate, markdownReport, readJudgments } from '../relevance/evaluate.js';

// The bar of issue 12: over the judged queries on the demo catalogue, mean precision@k at least
// 0.95, and no query returns nothing while the catalogue holds a match.
const MIN_MEAN_PRECISION = 0.95;
// Queries as people type them: judgments-people.json went 0.18 (keywords) to 0.58 (the model) to
// 0.785 (the thesaurus, strangers) to 0.899 (WordNet, class words, subjects, after a review) to
// 0.913 (the nearer spelling guess); judgments-people-2.json, written later
// and measured before any change it could have steered, 0.35 to 0.72 to 0.856;
// judgments-people-3.json, held out the same way, 0.810 to 0.856. Issue 28 asks 0.9 of the first;
// the others' bars keep what was gained, one query of slack each (bench/results/meaning-routes.md).
// judgments-people-4.json (typos beside right words, page addresses, file names, sizes, "high
// resolution"), held out the same way: 0.544 on the search of a69ed77, 0.709 once sizes and file
// types were read, 0.945 once addresses were read as their words apart, 0.970 with the tier for
// every group matched through a typo.
const MIN_PEOPLE_PRECISION = 0.9;
const PEOPLE = new URL('../relevance/judgments-people.json', import.meta.url);
const MIN_PEOPLE_2_PRECISION = 0.83;
const PEOPLE_2 = new URL('../relevance/judgments-people-2.json', import.meta.url);
const MIN_PEOPLE_3_PRECISION = 0.83;
const PEOPLE_3 = new URL('../relevance/judgments-people-3.json', import.meta.url);
const MIN_PEOPLE_4_PRECISION = 0.95;
const PEOPLE_4 = new URL('../relevance/judgments-people-4.json', import.meta.url);
// judgments-people-5.json (a real word typed for another, "quite meadow"; and controls, real words
// meant as typed one letter from a catalogue word, "bread loaf"), held out the same way: 0.574 on
// the search of f0894a5 and after the other words weigh a real word (domain/real-word-typos.ts):
// its typos mostly name a thing the catalogue lacks (found nothing, still do) or are out of the
// rule's reach, and "quite meadow" weighs 0.196, under the margin. Controls 0.784 before and after:
// reading a word as a typo must never cost one meant as typed, so their bar is what they scored.
const MIN_PEOPLE_5_PRECISION = 0.55;
const MIN_PEOPLE_5_CONTROLS = 0.78;
const PEOPLE_5 = new URL('../relevance/judgments-people-5.json', import.meta.url);
// judgments-people-6.json (78 queries graded wallpaper by wallpaper by helper-117, who never saw
// how search ranks), held out the same way: 0.974 on the search of ae6d6f4, 0.983 once a query
// could be of "forest" ("dark forest" and "green forest" gained their subject); one query of slack.
const MIN_PEOPLE_6_PRECISION = 0.97;
const PEOPLE_6 = new URL('../relevance/judgments-people-6.json', import.meta.url);
// judgments-people-7.json (44 queries of praise, feelings, class words and seasons, graded the same
// way by helper-127), held out the same way: 0.752 on the search of 1dc309c, 0.766 once praise was
// filler, 0.811 with the words for feelings in the thesaurus (helper-126), 0.823 once "aesthetic"
// was read as a look (helper-128); the kinds of a catalogue word raised what "bird" and "mountains"
// find (41 to 193, 228 to 314), not their first pages; 0.845 once a phrase people type for a
// catalogue word matched as typed only as a phrase ("fall leaves": 0 to 1, the other sets unchanged;
// that query steered the change, so this set no longer holds it out); 0.868 with the class words
// helper-134 wrote blind ("sea animals", the plural of a listed phrase read as it); 0.891 once a word
// the thesaurus lists that the stemmer reads as another catalogue word counted below what it is
// listed for ("fall": the autumn wallpapers, not "Falling Petals"; 0 to 1, the other sets unchanged;
// that query steered the change). One query of slack.
const MIN_PEOPLE_7_PRECISION = 0.86;
const PEOPLE_7 = new URL('../relevance/judgments-people-7.json', import.meta.url);
// judgments-people-8.json (54 queries: things together, exclusions in plain words, colours,
// activities, places, vague wishes; graded by helper-135, who never saw how search ranks), held out
// the same way: 0.739 on the search of cea0888; 0.849 once not and no excluded as without does, an
// excluded colour ranked the pictures mostly of it last ("flowers but not pink"), and a word the
// thesaurus lists for a thing weighed less in descriptions ("running": the runners, not "traces of
// light running along the paths"; the first set's "running", an inflection test graded by
// \brun(s|ning)?\b, went 1 to 0, and that set to 0.979); 0.812 once no excluded only after with, but
// or and (helper-137: after other words it is an idiom or a Japanese particle, "no way home", "boku
// no hero", so "space no planets" and "mountains no snow" are words again). The queries that
// steered these changes are no longer held out; 0.849 once no between two nouns (WordNet's) was
// shorthand for without ("space no planets" 0 to 1, "mountains no snow" 0 to 1, the other sets
// unchanged; both steered it). One query of slack.
const MIN_PEOPLE_8_PRECISION = 0.83;
const PEOPLE_8 = new URL('../relevance/judgments-people-8.json', import.meta.url);

describe('search relevance on the demo catalogue', function () {
  this.timeout(120_000);
  const es = connectEs();
  const alias = uniqueName('test-relevance');
  let demo: DemoSearch;
  let report: RelevanceReport;
  let people: RelevanceReport;
  let people2: RelevanceReport;
  let people3: RelevanceReport;
  let people4: RelevanceReport;
  let people5: RelevanceReport;
  let people6: RelevanceReport;
  let people7: RelevanceReport;
  let people8: RelevanceReport;

  before(async () => {
    const redis = await readyRedis();
    demo = await demoSearch(es, redis, testConfig(), alias);
    report = await evaluate(readJudgments(), demo.catalogue, (q) => demo.search(q));
    people = await evaluate(readJudgments(PEOPLE), demo.catalogue, (q) => demo.search(q));
    people2 = await evaluate(readJudgments(PEOPLE_2), demo.catalogue, (q) => demo.search(q));
    people3 = await evaluate(readJudgments(PEOPLE_3), demo.catalogue, (q) => demo.search(q));
    people4 = await evaluate(readJudgments(PEOPLE_4), demo.catalogue, (q) => demo.search(q));
    people5 = await evaluate(readJudgments(PEOPLE_5), demo.catalogue, (q) => demo.search(q));
    people6 = await evaluate(readJudgments(PEOPLE_6), demo.catalogue, (q) => demo.search(q));
    people7 = await evaluate(readJudgments(PEOPLE_7), demo.catalogue, (q) => demo.search(q));
    people8 = await evaluate(readJudgments(PEOPLE_8), demo.catalogue, (q) => demo.search(q));
    redis.disconnect();
  });

  after(async () => {
    await demo?.close();
    await dropIndicesOf(es, alias);
    await es.close();
  });

  it(`when every judged query is searched, then mean precision@k is at least ${MIN_MEAN_PRECISION}`, () => {
    expect(report.meanPrecision, markdownReport(report, readJudgments().k)).to.be.at.least(MIN_MEAN_PRECISION);
  });

  it(`when queries are typed as people type them, then mean precision@k is at least ${MIN_PEOPLE_PRECISION}`, () => {
    expect(people.meanPrecision, markdownReport(people, readJudgments(PEOPLE).k)).to.be.at.least(MIN_PEOPLE_PRECISION);
  });

  it(`when the second set of people's queries is searched, then mean precision@k is at least ${MIN_PEOPLE_2_PRECISION}`, () => {
    expect(people2.meanPrecision, markdownReport(people2, readJudgments(PEOPLE_2).k)).to.be.at.least(MIN_PEOPLE_2_PRECISION);
  });

  it(`when the third set of people's queries is searched, then mean precision@k is at least ${MIN_PEOPLE_3_PRECISION}`, () => {
    expect(people3.meanPrecision, markdownReport(people3, readJudgments(PEOPLE_3).k)).to.be.at.least(MIN_PEOPLE_3_PRECISION);
  });

  it(`when addresses, file names, sizes and typos are searched as people paste them, then mean precision@k is at least ${MIN_PEOPLE_4_PRECISION}`, () => {
    expect(people4.meanPrecision, markdownReport(people4, readJudgments(PEOPLE_4).k)).to.be.at.least(MIN_PEOPLE_4_PRECISION);
  });

  it(`when real words are typed for others, then mean precision@k is at least ${MIN_PEOPLE_5_PRECISION}, and at least ${MIN_PEOPLE_5_CONTROLS} over the words meant as typed`, () => {
    const report = markdownReport(people5, readJudgments(PEOPLE_5).k);
    expect(people5.meanPrecision, report).to.be.at.least(MIN_PEOPLE_5_PRECISION);
    const controls = people5.queries.filter((score) => score.kind === 'meant-as-typed');
    expect(controls).to.have.length.greaterThan(10);
    expect(controls.reduce((sum, score) => sum + score.precision, 0) / controls.length, report).to.be.at.least(MIN_PEOPLE_5_CONTROLS);
  });

  it(`when a judge who never saw the ranking grades every wallpaper, then mean precision@k is at least ${MIN_PEOPLE_6_PRECISION}`, () => {
    expect(people6.meanPrecision, markdownReport(people6, readJudgments(PEOPLE_6).k)).to.be.at.least(MIN_PEOPLE_6_PRECISION);
  });

  it(`when people ask for a feeling, praise a picture or name a class of things, then mean precision@k is at least ${MIN_PEOPLE_7_PRECISION}`, () => {
    expect(people7.meanPrecision, markdownReport(people7, readJudgments(PEOPLE_7).k)).to.be.at.least(MIN_PEOPLE_7_PRECISION);
  });

  it(`when people write things together, exclusions in words, colours, places or vague wishes, then mean precision@k is at least ${MIN_PEOPLE_8_PRECISION}`, () => {
    expect(people8.meanPrecision, markdownReport(people8, readJudgments(PEOPLE_8).k)).to.be.at.least(MIN_PEOPLE_8_PRECISION);
  });

  it('when an adjective comes before the thing a query is of, then the thing ranks first (dark forest, green forest)', async () => {
    for (const q of ['dark forest', 'green forest']) {
      const { hits } = await demo.search(q);
      expect(
        hits.slice(0, 5).map((hit) => hit.title),
        q,
      ).to.satisfy((titles: string[]) => titles.every((title) => /\bforest/i.test(title)));
    }
  });

  it('when a comparison or a group word the catalogue lacks is typed beside its words, then the search still finds them (cooler blue, space colony)', async () => {
    // Each had found nothing once read as a thing the catalogue lacks (helper-119).
    for (const q of ['cooler blue', 'cleaner minimal', 'fancier cars', 'space colony']) expect((await demo.search(q)).total, q).to.be.greaterThan(0);
  });

  it('when the catalogue holds a match for a query, then the search never returns nothing', () => {
    expect(report.missed).to.deep.equal([]);
    expect(people.missed, 'as people type them').to.deep.equal([]);
    expect(people4.missed, 'as people paste them').to.deep.equal([]);
    expect(people6.missed, 'graded by a blind judge').to.deep.equal([]);
  });

  it('when a query wraps its words in filler, then no result is there for the filler alone', async () => {
    const wanted: Record<string, RegExp> = {
      'sunrise over the ocean': /\b(sunrise|ocean)/i,
      'pictures of a lighthouse near the sea': /\b(lighthouse|sea)\b/i,
      'hd wallpaper of a castle behind the hills': /\b(castle|hill)/i,
    };
    for (const [q, words] of Object.entries(wanted)) {
      const { hits } = await demo.search(q);
      expect(hits.length, q).to.be.greaterThan(0);
      for (const hit of hits) expect(`${hit.title} ${hit.description} ${hit.category}`, q).to.match(words);
    }
  });

  it('when a catalogue word names a thing, then the kinds of it follow its own wallpapers, and what it is a kind of does not', async () => {
    const inTitle = (pattern: RegExp) => demo.catalogue.filter((wallpaper) => pattern.test(wallpaper.title));
    const birds = inTitle(/\bbirds?\b/i);
    const kinds = inTitle(/\b(eagle|owl|hummingbird)s?\b/i);
    expect(kinds.length, 'the demo holds eagles, owls and hummingbirds').to.be.greaterThan(10);
    const bird = await demo.search('bird');
    expect(bird.total, 'the birds, then their kinds').to.equal(birds.length + kinds.length);
    expect(
      bird.hits.every((hit) => /\bbird\b/i.test(hit.title)),
      'the birds first',
    ).to.equal(true);
    const saturn = await demo.search('saturn');
    const planets = inTitle(/\bplanets?\b/i).filter((wallpaper) => !/saturn/i.test(`${wallpaper.title} ${wallpaper.description}`));
    expect(planets.length).to.be.greaterThan(0);
    expect(saturn.total, 'Saturn, not every planet').to.equal(
      demo.catalogue.filter((wallpaper) => /saturn/i.test(`${wallpaper.title} ${wallpaper.description}`)).length,
    );
    // A named one is no kind: the demo's Saturn and Earth are backdrops ("beyond Saturn", "over the Earth").
    const ringed = await demo.search('ringed planet');
    expect(
      ringed.hits.map((hit) => hit.title),
      'planets first, not ringed galaxies over the Earth',
    ).to.satisfy((titles: string[]) => titles.every((title) => /\bplanet\b/i.test(title)));
  });

  it('when a word is what some wallpapers are of and only what others mention or read alike, then those it names come first (cat: the kittens), a quality as said (cold)', async () => {
    for (const q of ['cat', 'cats']) {
      const { hits } = await demo.search(q);
      expect(
        hits.map((hit) => hit.title),
        q,
      ).to.satisfy((titles: string[]) => titles.every((title) => /\bkitten\b/i.test(title)));
    }
    // A title that says the word only in a form the stemmer reads alike ("Data Stream").
    const streams = await demo.search('streams');
    expect(streams.hits.length).to.be.greaterThan(0);
    for (const hit of streams.hits) expect(hit.title).to.match(/\b(creek|river)\b/i);
    // A quality a description gives is the picture's own: those that say cold come first, not the
    // words standing for it in titles (frozen, snowy, and warm, an opposite; helper-130).
    const cold = await demo.search('cold');
    for (const hit of cold.hits) expect(`${hit.title} ${hit.description}`).to.match(/\bcold\b/i);
    const mentioned = demo.catalogue.filter((wallpaper) => /\bcat\b/i.test(wallpaper.description) && !/kitten/i.test(wallpaper.title));
    expect(mentioned.length, 'the demo mentions cats in descriptions').to.be.greaterThan(10);
    expect((await demo.search('cat')).total, 'still found').to.be.at.least(mentioned.length);
  });

  it('when a word the thesaurus lists for a catalogue word that names a thing is typed, then that thing comes before other text that holds the word (running, surfing)', async () => {
    // The descriptions' "traces of light running along the paths" had come first.
    for (const [q, thing] of [
      ['running', /\brunner\b/i],
      ['surfing', /\bsurfer\b/i],
    ] as const) {
      expect(demo.catalogue.filter((wallpaper) => thing.test(wallpaper.title)).length, `the demo holds the ${q}`).to.be.at.least(10);
      expect(
        (await demo.search(q)).hits.map((hit) => hit.title),
        q,
      ).to.satisfy((titles: string[]) => titles.every((title) => thing.test(title)));
    }
  });

  it('when the index reads a word the thesaurus lists as another of the catalogue`s words, far in meaning, then what the word is listed for comes first (fall: autumn, not falling petals); as the same word in another form, not (blossoming)', async () => {
    // The stemmer reads "fall" as the "falling" of falling petals: 70 anime scenes "under Falling
    // Petals" had come before every autumn wallpaper.
    const autumn = /\bautumn\b/i;
    const petals = demo.catalogue.filter((wallpaper) => /\bfalling\b/i.test(wallpaper.title) && !autumn.test(wallpaper.title)).length;
    expect(petals, 'the demo holds titles fall is read alike in').to.be.at.least(10);
    const fall = await demo.search('fall');
    expect(fall.hits.map((hit) => hit.title)).to.satisfy((titles: string[]) => titles.every((title) => autumn.test(title)));
    expect(fall.total, 'fall still finds them').to.be.at.least(petals);
    // "blossoming" is read as blossom, the same word: the blossoms stay first, not the "Blooming"
    // flowers the thesaurus lists it for (helper-141).
    const blossoming = await demo.search('blossoming');
    expect(blossoming.hits.map((hit) => hit.title)).to.satisfy((titles: string[]) => titles.every((title) => /\bblossoms?\b/i.test(title)));
  });

  it('when an exclusion is written in words, then it excludes as a minus does (mountains without snow, cars not red, beach with no people, mountains no snow)', async () => {
    for (const [inWords, withMinus, excluded] of [
      ['mountains without snow', 'mountains -snow', /\bsnow\b/i],
      ['cars not red', 'cars -red', /\bred\b/i],
      ['beach with no surfer', 'beach -surfer', /\bsurfers?\b/i],
      // A no between two nouns is shorthand for without.
      ['mountains no snow', 'mountains -snow', /\bsnow\b/i],
      ['space no planets', 'space -planets', /\bplanets?\b/i],
      ['ocean no boat or surfer', 'ocean -boat -surfer', /\b(boats?|surfers?)\b/i],
      // After an exclusion, typed with a +, misspelt before it, after filler, a word also an adjective (helper-143).
      ['forest -pine no fog', 'forest -pine -fog', /\b(pine|fog)\b/i],
      ['mountains+no+snow', 'mountains -snow', /\bsnow\b/i],
      ['mountians no snow', 'mountians -snow', /\bsnow\b/i],
      ['wallpaper no people', 'wallpaper -people', /\bpeople\b/i],
      ['beach no sunset', 'beach -sunset', /\bsunset\b/i],
      ['tree no leaves', 'tree -leaves', /\bleaves\b/i],
      // Filler before it reads as filler does with a minus; a full stop may end the query (helper-144).
      ['iphone no text', 'iphone -text', /\btext\b/i],
      ['background no people', 'background -people', /\bpeople\b/i],
      ['mountains no snow.', 'mountains -snow', /\bsnow\b/i],
      // A singular tagged as a noun, a device's model, misspelt filler (helper-145).
      ['forest no fire', 'forest -fire', /\bfire\b/i],
      ['iphone 15 no night', 'iphone 15 -night', /\bnight\b/i],
      ['walpaper no night', 'walpaper -night', /\bnight\b/i],
    ] as const) {
      const [words, minus] = [await demo.search(inWords), await demo.search(withMinus)];
      expect(words.total, inWords).to.be.greaterThan(0);
      expect(words.total, inWords).to.equal(minus.total);
      expect(words.hits.map(({ id }) => id)).to.deep.equal(minus.hits.map(({ id }) => id));
      for (const hit of words.hits) expect(`${hit.title} ${hit.description}`, inWords).not.to.match(excluded);
    }
    // Between other words a no is an idiom or a particle, and the words are searched as typed.
    for (const [q, words] of [
      ['boku no hero academia', 'boku hero academia'],
      ['say no more', 'say more'],
      ['No Game no Life', 'game life'],
      ['street no parking sign', 'street parking sign'],
      ['no war no peace', 'war peace'],
      ['surf no mar', 'surf mar'],
    ] as const) {
      const [typed, apart] = [await demo.search(q), await demo.search(words)];
      expect(typed.total, q).to.be.greaterThan(0);
      expect(
        typed.hits.map(({ id }) => id),
        q,
      ).to.deep.equal(apart.hits.map(({ id }) => id));
    }
  });

  it('when "aesthetic" is typed, then it finds the looks people mean by it, not every wallpaper', async () => {
    const look = /\b(pastel|lo-fi|synthwave|holographic|rose gold|nostalgic|dreamlike|beige|soft focus|cherry blossoms?)\b/i;
    const aesthetic = await demo.search('aesthetic');
    expect(aesthetic.total).to.be.within(10, demo.catalogue.length / 5);
    for (const hit of aesthetic.hits) expect(`${hit.title} ${hit.description}`).to.match(look);
  });

  it('when a word is written possessive, then it finds what the word finds', async () => {
    for (const [possessive, plain] of [
      ["galaxy's", 'galaxy'],
      ['kitten\u2019s', 'kitten'],
    ]) {
      const [a, b] = [await demo.search(possessive!), await demo.search(plain!)];
      expect(a.total, possessive).to.be.greaterThan(0);
      expect(a.total, possessive).to.equal(b.total);
    }
  });
});
