import { expect } from 'chai';
import { hasInvisible, printable, printableJson } from '../../../src/infra/visible-text.js';

describe('text that does not show', () => {
  for (const [name, text] of [
    ['an escape sequence that sets the terminal title', 'key\u001b]0;owned\u0007'],
    ['a C1 control sequence introducer', 'key\u009b2J'],
    ['a zero-width space', 'cafe\u200b@example.com'],
    ['a right-to-left override', 'gnp.\u202eexe'],
    ['a Hangul filler', 'name\u3164'],
    ['a line separator', 'one\u2028two'],
  ]) {
    it(`when a name holds ${name}, then it is found, and printed escaped`, () => {
      expect(hasInvisible(text!)).to.equal(true);
      const shown = printable(text!);
      expect(hasInvisible(shown)).to.equal(false);
      expect(shown).to.match(/\\u\{[0-9a-f]+\}/);
    });
  }

  it('when text is plain (accents, CJK, emoji), then it is left as it is', () => {
    for (const text of ['Café', '壁纸', 'sunset 🌅', 'a-b_c.d@example.com']) {
      expect(hasInvisible(text)).to.equal(false);
      expect(printable(text)).to.equal(text);
    }
  });

  it('when JSON is printed, then invisible characters are \\u escapes and it parses back to the same value', () => {
    const value = { name: 'k\u009b\u200b🌅' };
    const text = printableJson(value);
    expect(hasInvisible(text.replaceAll('\n', '')), 'nothing invisible but its own line breaks').to.equal(false);
    expect(JSON.parse(text)).to.deep.equal(value);
  });
});
