import { expect } from 'chai';
import { slotsTaken } from '../../../../src/wallpapers/store/completion-slots.js';

describe('the slots a carrier takes among a suggester`s', () => {
  it('when a title completes the prefix from several of its words, then it takes a slot for each', () => {
    expect(slotsTaken('Wave upon Wave upon Wave', 'wave', false)).to.equal(3);
    expect(slotsTaken('Wave upon Wave upon Wave', 'wave upon w', false)).to.equal(2);
    expect(slotsTaken('Lighthouse at Sunset', 'sun', false), 'not from a common word: "at Sunset" is no input').to.equal(1);
  });

  it('when the title is written with accents, capitals or punctuation, then it is read as the completion field reads it', () => {
    expect(slotsTaken('Café at Dusk', 'cafe', false)).to.equal(1);
    expect(slotsTaken('Lo-Fi Dreams', 'lo fi', false)).to.equal(1);
    expect(slotsTaken('NEON  Alley', 'neon al', false)).to.equal(1);
  });

  it('when a title holds letters ASCII folding spells out, then they are read as spelt out (helper-140)', () => {
    expect(slotsTaken('Øresund Bridge', 'ores', false)).to.equal(1);
    expect(slotsTaken('Æther Glow', 'aeth', false)).to.equal(1);
    expect(slotsTaken('Łódź Night', 'lodz', false)).to.equal(1);
    expect(slotsTaken('Straße at Night', 'strasse', false)).to.equal(1);
  });

  it('when the prefix is read with typos, then an input within the edits allowed takes a slot, its first letter as typed', () => {
    expect(slotsTaken('Nebula from Orbit', 'nebla', true), 'a letter left out').to.equal(1);
    expect(slotsTaken('Moon behind the Moon', 'moun', true), 'a letter changed, in both places').to.equal(2);
    expect(slotsTaken('Mountain Range', 'omun', true), 'the first letter is never forgiven').to.equal(0);
    expect(slotsTaken('Mountain Range', 'mountian', true), 'two letters swapped count one edit').to.equal(1);
    expect(slotsTaken('Mountain Range', 'mo', true), 'no edit under three letters').to.equal(1);
    expect(slotsTaken('Mountain Range', 'mu', true)).to.equal(0);
  });

  it('when no input completes the prefix, then it takes none', () => {
    expect(slotsTaken('Harbour in Hong Kong', 'vort', false)).to.equal(0);
    expect(slotsTaken('Harbour in Hong Kong', 'vort', true)).to.equal(0);
  });
});
