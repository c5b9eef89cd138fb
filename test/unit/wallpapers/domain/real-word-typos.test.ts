import { expect } from 'chai';
import { MISSPELT_MARGIN, createRealWordTypos } from '../../../../src/wallpapers/domain/real-word-typos.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';
import { occurringIn } from '../../../support/words-occur.js';

// Unit vectors on two axes, sand and sweet: a word's fit with another is their cosine.
const at = (degrees: number) => Float32Array.of(Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180));
const VECTORS: Record<string, Float32Array> = {
  dunes: at(0),
  sandy: at(5),
  desert: at(20), // cos 20° = 0.94 with dunes
  dessert: at(70), // cos 70° = 0.34: desert fits dunes 0.60 better
  deserts: at(25),
  city: at(-40),
  roof: at(-10), // 0.87 with city
  room: at(-20), // 0.94: 0.07 better, under the margin
};

function typos(present: readonly string[]) {
  const embedded: string[] = [];
  const wordsOccur = occurringIn(present);
  const misspelt = createRealWordTypos({
    words: Object.keys(VECTORS),
    catalogueWords: () => [],
    vectorOf: (word) => {
      embedded.push(word);
      return Promise.resolve(VECTORS[word]!);
    },
    occurrences: createWordOccurrences({ wordsOccur, absentMs: 1000 }),
  });
  return { misspelt, embedded, asked: wordsOccur.asked };
}

describe('real words typed for others', () => {
  it('when a word one edit away occurs and fits the other words better by the margin, then the word typed is taken as its typo', async () => {
    const { misspelt, asked } = typos(['desert', 'dunes']);
    expect(await misspelt(readSearchText('dessert dunes'), ['dessert'])).to.deep.equal([{ typed: 'dessert', meant: 'desert' }]);
    expect(asked, 'its neighbours (deserts is two edits away) and the other words, asked whether they occur').to.deep.equal([['desert', 'dunes']]);
  });

  it('when the neighbour fits better by less than the margin, then the word is taken as typed', async () => {
    const { misspelt } = typos(['room', 'city']);
    expect(MISSPELT_MARGIN).to.be.greaterThan(0.07);
    expect(await misspelt(readSearchText('roof city'), ['roof'])).to.deep.equal([]);
  });

  it('when no neighbour occurs in the catalogue, then the word is taken as typed, whatever it means', async () => {
    const { misspelt, embedded } = typos(['dunes']);
    expect(await misspelt(readSearchText('dessert dunes'), ['dessert'])).to.deep.equal([]);
    expect(embedded, 'nothing to weigh').to.deep.equal([]);
  });

  it('when the query has no other group, then nothing is weighed: a word alone is what it says', async () => {
    const { misspelt, embedded, asked } = typos(['desert']);
    expect(await misspelt(readSearchText('dessert'), ['dessert'])).to.deep.equal([]);
    expect(await misspelt(readSearchText('dessert OR dunes'), ['dessert'])).to.deep.equal([]);
    expect(await misspelt(readSearchText('dessert the'), ['dessert']), 'a stop word is no word to weigh against').to.deep.equal([]);
    expect([embedded, asked]).to.deep.equal([[], []]);
  });

  it('when the other words are several, then the word is weighed against their mean', async () => {
    // Against dunes and city: desert (0.94 and 0.50) fits 0.51 better than dessert (0.34 and -0.34).
    const { misspelt } = typos(['desert', 'dunes', 'city', 'sandy']);
    expect(await misspelt(readSearchText('dessert dunes city'), ['dessert'])).to.deep.equal([{ typed: 'dessert', meant: 'desert' }]);
    expect(await misspelt(readSearchText('sandy dessert dunes'), ['dessert', 'sandy'])).to.deep.equal([{ typed: 'dessert', meant: 'desert' }]);
  });

  it('when another word of the query is the neighbour itself, then the word is taken as typed: "bench beach" asks for both', async () => {
    const { misspelt } = typos(['desert', 'deserts', 'dunes']);
    expect(await misspelt(readSearchText('dessert desert'), ['dessert'])).to.deep.equal([]);
    expect(await misspelt(readSearchText('dessert deserts dunes'), ['dessert']), 'its plural says it too').to.deep.equal([]);
  });

  it('when other words hold nothing of the catalogue, then they are not weighed against: the search drops them too', async () => {
    const { misspelt, embedded } = typos(['desert', 'dunes']);
    // sandy and city do not occur: only dunes is weighed against, and desert fits it 0.60 better.
    expect(await misspelt(readSearchText('sandy dessert dunes city'), ['dessert'])).to.deep.equal([{ typed: 'dessert', meant: 'desert' }]);
    expect([...new Set(embedded)]).to.have.members(['dessert', 'desert', 'dunes']);
    expect(await misspelt(readSearchText('dessert city'), ['dessert']), 'none left to weigh against').to.deep.equal([]);
  });

  it('when a query holds many other words, then at most four are weighed against, the first ones', async () => {
    const many = 'dessert dunes city sandy roof room';
    const { misspelt, embedded } = typos(['desert', 'dunes', 'city', 'sandy', 'roof', 'room']);
    await misspelt(readSearchText(many), ['dessert']);
    expect(embedded).to.include.members(['dunes', 'city', 'sandy', 'roof']).and.not.include('room');
  });

  it('when a word is weighed again in the same company, then it is not asked about again for a minute, though absent answers last a second', async () => {
    const wordsOccur = occurringIn(['desert', 'dunes']);
    const misspelt = createRealWordTypos({
      words: Object.keys(VECTORS),
      catalogueWords: () => [],
      vectorOf: (word) => Promise.resolve(VECTORS[word]!),
      occurrences: createWordOccurrences({ wordsOccur, absentMs: 0 }),
    });
    for (let i = 0; i < 3; i++) expect(await misspelt(readSearchText('dessert dunes'), ['dessert'])).to.have.length(1);
    expect(wordsOccur.asked).to.have.length(1);
    await misspelt(readSearchText('dessert dunes city'), ['dessert']);
    expect(wordsOccur.asked, 'other company, weighed anew').to.have.length(2);
  });

  it('when Elasticsearch does not say which words occur, then the word is taken as typed, and weighed again next time', async () => {
    let failing = true;
    const asked: string[][] = [];
    const misspelt = createRealWordTypos({
      words: Object.keys(VECTORS),
      catalogueWords: () => [],
      vectorOf: (word) => Promise.resolve(VECTORS[word]!),
      occurrences: createWordOccurrences({
        wordsOccur: (words) => {
          asked.push([...words]);
          return failing ? Promise.reject(new Error('timeout')) : Promise.resolve(words.map((word) => ['desert', 'dunes'].includes(word)));
        },
        absentMs: 0,
      }),
    });
    expect(await misspelt(readSearchText('dessert dunes'), ['dessert'])).to.deep.equal([]);
    failing = false;
    expect(await misspelt(readSearchText('dessert dunes'), ['dessert'])).to.deep.equal([{ typed: 'dessert', meant: 'desert' }]);
    expect(asked).to.have.length(2);
  });
});
