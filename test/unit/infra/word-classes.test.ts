import { expect } from 'chai';
import { loadWordClasses } from '../../../src/infra/word-classes.js';

describe('what WordNet says of a word', () => {
  const classes = loadWordClasses();

  it('when a word is an adjective, an adverb, or mostly a verb, then it describes', async () => {
    const { describes } = await classes;
    for (const word of ['beautiful', 'gorgeous', 'relaxing', 'sleeping', 'crashing', 'drawing', 'northern', 'prettiest'])
      expect(describes(word), word).to.equal(true);
  });

  it('when a word is mostly a noun, or WordNet does not know it, then it names a thing', async () => {
    const { describes } = await classes;
    for (const word of ['giraffe', 'balloon', 'shark', 'penguins', 'churches', 'eiffel', 'iphone']) expect(describes(word), word).to.equal(false);
  });

  it('when a word is a word of the language, in any inflection, then it is known; a misspelling is not', async () => {
    const { knows } = await classes;
    for (const word of ['flamingo', 'wombat', 'churches', 'fortresses', 'jogging', 'quickly']) expect(knows(word), word).to.equal(true);
    for (const word of ['joger', 'sakrua', 'kittty', 'computor', 'bycicle']) expect(knows(word), word).to.equal(false);
  });
});
