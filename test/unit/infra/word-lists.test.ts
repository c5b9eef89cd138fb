import { expect } from 'chai';
import { AMERICAN_SPELLINGS, inAmericanSpelling, IRREGULAR_PLURALS, readWordPairs, spellingsOf } from '../../../src/infra/word-lists.js';

describe('the word lists the index and the API share', () => {
  it('when a list is read, then each line is a word and what it becomes, blank lines and # comments skipped', () => {
    expect([...readWordPairs('# plurals\nmice mouse\n\n  geese\tgoose  \n  # more\n', 'plurals')]).to.deep.equal([
      ['mice', 'mouse'],
      ['geese', 'goose'],
    ]);
  });

  it('when a line is not two words of a-z, or a word is listed twice, then the list is refused, naming the list and the line', () => {
    expect(() => readWordPairs('mice mouse\nmice\n', 'plurals')).to.throw(/plurals, line 2/);
    expect(() => readWordPairs('Mice mouse\n', 'plurals')).to.throw(/line 1: a line is two words of a-z/);
    expect(() => readWordPairs('colour Color\n', 'spellings')).to.throw(/spellings, line 1/);
    expect(() => readWordPairs('mice mouse extra\n', 'plurals')).to.throw(/line 1/);
    expect(() => readWordPairs('mice mouse\nmice louse\n', 'plurals')).to.throw(/line 2: mice is listed twice/);
  });

  it('when a line holds what Java and JavaScript read differently, then it is refused, so the index and the API never read one list two ways', () => {
    // The plugin reads the same grammar (WordMapFilter.readWords); before, a no-break space or a
    // byte-order mark was whitespace here and part of a word there.
    for (const line of ['colour color\u00a0', '\ufeffcolour color', '\ufeff# comment', 'grey\u00a0gray', 'grey\u3000gray', 'café cafe']) {
      expect(() => readWordPairs(`${line}\n`, 'spellings'), JSON.stringify(line)).to.throw(/line 1/);
    }
  });

  it('when lines end in CR, CRLF or LF, then each is a line, as Java`s readLine reads them', () => {
    expect([...readWordPairs('mice mouse\rgeese goose\r\n# note\r\n\tfeet\t foot \n', 'plurals')]).to.deep.equal([
      ['mice', 'mouse'],
      ['geese', 'goose'],
      ['feet', 'foot'],
    ]);
  });

  it('when the API starts, then it holds the project`s lists, the ones the analysis plugin packages', () => {
    expect(IRREGULAR_PLURALS.get('mice')).to.equal('mouse');
    expect(IRREGULAR_PLURALS.get('people')).to.equal('person');
    expect(IRREGULAR_PLURALS.size).to.be.greaterThan(30);
    expect(AMERICAN_SPELLINGS.get('colour')).to.equal('color');
    expect(AMERICAN_SPELLINGS.get('storeys')).to.equal('stories');
    expect(AMERICAN_SPELLINGS.size).to.be.greaterThan(80);
  });

  it('when a text is put in American spelling, then each listed word is, whole words only as the index keeps them, the rest kept as written', () => {
    expect(inAmericanSpelling('grey colour, harbours-side')).to.equal('gray color, harbors-side');
    expect(inAmericanSpelling('four hour pour autumn colourfully')).to.equal('four hour pour autumn colourfully');
    expect(inAmericanSpelling("grey2 colour\u0301 grey's")).to.equal("grey2 colour\u0301 gray's");
  });

  it('when a word`s spellings are asked, then either spelling gives the same ones, American first', () => {
    expect(spellingsOf('colour')).to.deep.equal(['color', 'colour']);
    expect(spellingsOf('color')).to.deep.equal(['color', 'colour']);
    expect(spellingsOf('stories')).to.deep.equal(['stories', 'storeys']);
    expect(spellingsOf('sky')).to.deep.equal(['sky']);
    expect(spellingsOf('grey harbour seal')).to.deep.equal(['gray harbor seal', 'gray harbour seal', 'grey harbor seal', 'grey harbour seal']);
  });
});
