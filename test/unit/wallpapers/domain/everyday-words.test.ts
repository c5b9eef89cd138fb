import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  BROADER_WORDS_FILE,
  EVERYDAY_WORDS_FILE,
  everydayWords,
  readEverydayWords,
  termKey,
} from '../../../../src/wallpapers/domain/everyday-words.js';

describe('what people type for the catalogue words', () => {
  it('when a term is listed only in the plural, then its singular finds it too', () => {
    const words = everydayWords({ berry: ['berries'] }, { ramen: ['noodles'], taco: ['hot dishes'] });
    expect(words.kindsOf('noodle')).to.deep.equal(['ramen']);
    expect(words.kindsOf('hot dish')).to.deep.equal(['taco']);
    expect(words.lookUp('berry')).to.deep.equal(['berry']);
    expect(words.kindsOf('noodles')).to.deep.equal(['ramen']);
    expect(words.kindsOf('soup')).to.deep.equal([]);
  });

  it('when a term is looked up, then case, punctuation and stop words do not matter', () => {
    const words = everydayWords({ 'new york': ['The Big Apple', 'nyc'], aurora: ['northern lights'] });
    expect(words.lookUp('big apple')).to.deep.equal(['new york']);
    expect(words.lookUp('the BIG apple!')).to.deep.equal(['new york']);
    expect(words.lookUp('NYC')).to.deep.equal(['new york']);
    expect(words.lookUp('northern')).to.deep.equal([]);
    expect(termKey("  the Big-Apple's  ")).to.equal('big apple');
    expect(termKey('Château'), 'accents folded as the index folds them').to.equal('chateau');
  });

  it('when a term holds a possessive, then it is read as a query reads it, so the words a query joins find it', () => {
    const words = everydayWords({ comet: ["halley's comet"], above: ['bird’s-eye view'] });
    expect(words.lookUp('halley comet')).to.deep.equal(['comet']);
    expect(words.lookUp('bird eye view')).to.deep.equal(['above']);
  });

  it('when a phrase is what its small words make it, then it is left out rather than read as its one word', () => {
    const words = everydayWords({ empty: ['no people', 'deserted'], burning: ['on fire'] });
    expect(words.lookUp('people')).to.deep.equal([]);
    expect(words.lookUp('fire')).to.deep.equal([]);
    expect(words.lookUp('deserted')).to.deep.equal(['empty']);
  });

  it('when a term is typed in British or American spelling, then either finds what the file lists in the other, as the index reads them alike', () => {
    const words = everydayWords({ 'snow leopard': ['grey ghost'], paint: ['colour'] });
    expect(words.lookUp('gray ghost')).to.deep.equal(['snow leopard']);
    expect(words.lookUp('Grey Ghost')).to.deep.equal(['snow leopard']);
    expect(words.lookUp('color')).to.deep.equal(['paint']);
    expect(termKey('the grey harbours')).to.equal('gray harbors');
  });

  it('when a term is a word said twice, then the word once stands for the same', () => {
    const words = everydayWords({ food: ['nom nom'], train: ['choo choo train'], fantasy: ['d&d', 'd-d'], games: ['1-1', '1 1'] });
    expect(words.lookUp('nom nom')).to.deep.equal(['food']);
    expect(words.lookUp('nom')).to.deep.equal(['food']);
    expect(words.lookUp('choo'), 'not a word said twice').to.deep.equal([]);
    expect(words.words).to.include('nom');
    expect(words.lookUp('d'), 'punctuation is no second word').to.deep.equal([]);
    expect(words.lookUp('1'), 'nor are digits a word').to.deep.equal([]);
  });

  it('when one term is listed for two catalogue words, then it stands for both, once each', () => {
    const words = everydayWords({ tiger: ['big cat'], lion: ['big cat', 'big cat'] });
    expect(words.lookUp('big cat')).to.deep.equal(['tiger', 'lion']);
  });

  it('when the file is read, then it gives the longest phrase and the single words for respelling', () => {
    const words = everydayWords({ aurora: ['aurora borealis', 'northern lights'], food: ['noms', 'grub'] });
    expect(words.longest).to.equal(2);
    expect(words.words).to.have.members(['noms', 'grub']);
  });

  it('when a class word is looked up, then it gives the catalogue words it holds, apart from the words for the same thing', () => {
    const words = everydayWords({ macarons: ['macaroons'] }, { macarons: ['dessert', 'pastry'], donuts: ['Dessert'] });
    expect(words.kindsOf('dessert')).to.deep.equal(['macarons', 'donuts']);
    expect(words.lookUp('dessert')).to.deep.equal([]);
    expect(words.kindsOf('macaroons')).to.deep.equal([]);
    expect(words.words).to.have.members(['macaroons', 'dessert', 'pastry']);
  });

  it('when the shipped thesauri are read, then every entry lists lower-case terms, none of them a catalogue word either lists', () => {
    const raw = JSON.parse(readFileSync(EVERYDAY_WORDS_FILE, 'utf8')) as Record<string, string[]>;
    const broader = JSON.parse(readFileSync(BROADER_WORDS_FILE, 'utf8')) as Record<string, string[]>;
    const catalogueWords = new Set([...Object.keys(raw), ...Object.keys(broader)]);
    for (const [word, terms] of [...Object.entries(raw), ...Object.entries(broader)]) {
      expect(terms, word).to.be.an('array');
      for (const term of terms) {
        expect(term, word).to.equal(term.trim().toLowerCase()).and.not.equal('');
        expect(catalogueWords.has(term), `${term} under ${word}`).to.equal(false);
      }
    }
    expect(readEverydayWords().kindsOf('noodles')).to.include('ramen');
    const file = readEverydayWords();
    expect(file.longest).to.be.within(2, 6);
    expect(file.words.length).to.be.greaterThan(100);
  });
});
