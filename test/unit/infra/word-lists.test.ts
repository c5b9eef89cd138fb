import { expect } from 'chai';
import { AMERICAN_SPELLINGS, inAmericanSpelling, IRREGULAR_PLURALS, readWordPairs, spellingsOf } from '../../../src/infra/word-lists.js';

describe('the word lists the index and the API share', () => {
  it('when a list is read, then each line is a word and what it becomes, blank lines and # comments skipped', () => {
    expect([...readWordPairs('# plurals\nmice mouse\n\n  geese\tgoose  \n  # more\n', 'plurals')]).to.deep.equal([
      ['mice', 'mouse'],
      ['geese', 'goose'],
    ]);
  });

  it('when a line is not two lower-case words, or a word is listed twice, then the list is refused, naming the list and the line', () => {
    expect(() => readWordPairs('mice mouse\nmice\n', 'plurals')).to.throw(/plurals, line 2/);
    expect(() => readWordPairs('Mice mouse\n', 'plurals')).to.throw(/line 1.*lower case/);
    expect(() => readWordPairs('colour Color\n', 'spellings')).to.throw(/spellings, line 1.*lower case/);
    expect(() => readWordPairs('mice mouse extra\n', 'plurals')).to.throw(/line 1/);
    expect(() => readWordPairs('mice mouse\nmice louse\n', 'plurals')).to.throw(/line 2: mice is listed twice/);
  });

  it('when the API starts, then it holds the project`s lists, the ones the analysis plugin packages', () => {
    expect(IRREGULAR_PLURALS.get('mice')).to.equal('mouse');
    expect(IRREGULAR_PLURALS.get('people')).to.equal('person');
    expect(IRREGULAR_PLURALS.size).to.be.greaterThan(30);
    expect(AMERICAN_SPELLINGS.get('colour')).to.equal('color');
    expect(AMERICAN_SPELLINGS.get('storeys')).to.equal('stories');
    expect(AMERICAN_SPELLINGS.size).to.be.greaterThan(80);
  });

  it('when a text is put in American spelling, then each listed word is, whole words only, the rest kept as written', () => {
    expect(inAmericanSpelling('grey colour, harbours-side')).to.equal('gray color, harbors-side');
    expect(inAmericanSpelling('four hour pour autumn colourfully')).to.equal('four hour pour autumn colourfully');
  });

  it('when a word`s spellings are asked, then either spelling gives the same ones, American first', () => {
    expect(spellingsOf('colour')).to.deep.equal(['color', 'colour']);
    expect(spellingsOf('color')).to.deep.equal(['color', 'colour']);
    expect(spellingsOf('stories')).to.deep.equal(['stories', 'storeys']);
    expect(spellingsOf('sky')).to.deep.equal(['sky']);
  });
});
