import { expect } from 'chai';
import { loadWordClasses } from '../../../src/infra/word-classes.js';

describe('what WordNet says of a word', () => {
  const classes = loadWordClasses();

  it('when a word names an animal, a plant, a made thing, a natural object, a food, a person or a place, then it names a thing', async () => {
    const { namesThing } = await classes;
    for (const word of ['giraffe', 'Flamingos', 'balloon', 'shark', 'castles', 'mushroom', 'airplane', 'lake', 'boy', 'london']) {
      expect(await namesThing(word), word).to.equal(true);
    }
  });

  it('when a word describes (an adjective, an adverb, mostly a verb), then it names no thing', async () => {
    const { namesThing } = await classes;
    for (const word of ['beautiful', 'gorgeous', 'relaxing', 'sleeping', 'crashing', 'drawing', 'northern', 'prettiest']) {
      expect(await namesThing(word), word).to.equal(false);
    }
  });

  it('when a noun is abstract or a substance, in any of its forms, or WordNet does not know it, then it names no thing', async () => {
    const { namesThing } = await classes;
    for (const word of ['vibes', 'harmony', 'wanderlust', 'portrait', 'oil', 'stuff', 'people', 'christmas', '2024', 'bosque', 'selfie', '日落']) {
      expect(await namesThing(word), word).to.equal(false);
    }
  });

  it('when a word is a word of the language, in any inflection, then it is known; a misspelling is not', async () => {
    const { knows } = await classes;
    for (const word of ['flamingo', 'wombat', 'churches', 'fortresses', 'jogging', 'quickly']) expect(knows(word), word).to.equal(true);
    for (const word of ['joger', 'sakrua', 'kittty', 'computor', 'bycicle']) expect(knows(word), word).to.equal(false);
  });
});
