import { expect } from 'chai';
import { IRREGULAR_PLURALS, readIrregularPlurals } from '../../../src/infra/irregular-plurals.js';

describe('the irregular plurals the index and the API share', () => {
  it('when the list is read, then each line is a plural and its singular, blank lines skipped', () => {
    expect([...readIrregularPlurals('mice mouse\n\n  geese\tgoose  \n')]).to.deep.equal([
      ['mice', 'mouse'],
      ['geese', 'goose'],
    ]);
  });

  it('when a line is not two lower-case words, or a plural is listed twice, then the list is refused, naming the line', () => {
    expect(() => readIrregularPlurals('mice mouse\nmice\n')).to.throw(/line 2/);
    expect(() => readIrregularPlurals('Mice mouse\n')).to.throw(/line 1.*lower case/);
    expect(() => readIrregularPlurals('mice mouse extra\n')).to.throw(/line 1/);
    expect(() => readIrregularPlurals('mice mouse\nmice louse\n')).to.throw(/line 2: mice is listed twice/);
  });

  it('when the API starts, then it holds the project`s list, the one the analysis plugin packages', () => {
    expect(IRREGULAR_PLURALS.get('mice')).to.equal('mouse');
    expect(IRREGULAR_PLURALS.get('people')).to.equal('person');
    expect(IRREGULAR_PLURALS.size).to.be.greaterThan(30);
  });
});
