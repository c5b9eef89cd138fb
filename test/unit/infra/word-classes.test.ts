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

  it('when a word is a noun more than anything else, in any form, then it names a noun; a verb, an adjective or a word WordNet does not know, not', async () => {
    const { namesNoun } = await classes;
    for (const word of ['snow', 'people', 'Planets', 'space', 'mountains', 'clouds', 'theatre']) expect(namesNoun(word), word).to.equal(true);
    for (const word of ['say', 'more', 'good', 'human', 'up', 'boku', 'tonari', 'spiderman', '4k', 'big cat'])
      expect(namesNoun(word), word).to.equal(false);
  });

  it('when a word is also an adjective as often, or a plural, then it names a noun; after a determiner a plural or a word tagged as a noun is no verb (helper-143, helper-144, helper-145)', async () => {
    const { namesNoun } = await classes;
    for (const word of ['sunset', 'light', 'star', 'stars', 'lights', 'humans', 'color']) expect(namesNoun(word), word).to.equal(true);
    for (const word of ['leaves', 'kids', 'crowds', 'fires', 'crowd', 'fire', 'frame', 'blur']) {
      expect(namesNoun(word), word).to.equal(false);
      expect(namesNoun(word, true), `no ${word}`).to.equal(true);
    }
    for (const word of ['more', 'good', 'longer', 'mar']) expect(namesNoun(word, true), `no ${word}`).to.equal(false);
  });

  it('when a noun is abstract or a substance, in any of its forms, or WordNet does not know it, then it names no thing', async () => {
    const { namesThing } = await classes;
    for (const word of ['vibes', 'harmony', 'wanderlust', 'portrait', 'oil', 'stuff', 'people', 'christmas', '2024', 'bosque', 'selfie', '日落']) {
      expect(await namesThing(word), word).to.equal(false);
    }
  });

  it('when a noun ends as a comparison would, then it is the noun when used more than the word it would compare, else the comparison', async () => {
    // "forest" had been read as the superlative of "fore", so "dark forest" had no subject (helper-117);
    // reading every such noun as it stands made "cooler", "cleaner", "stranger" things, and
    // "cooler blue" found nothing (helper-119).
    const { namesThing, namesSubject } = await classes;
    expect(await namesSubject('forest')).to.equal(true);
    for (const word of ['harvest', 'tower']) expect(await namesThing(word), word).to.equal(true);
    for (const word of ['darker', 'darkest', 'finer', 'wildest', 'cooler', 'cleaner', 'stranger', 'fancier', 'sharper', 'fuller', 'dryer']) {
      expect(await namesThing(word), word).to.equal(false);
      expect(await namesSubject(word), word).to.equal(false);
    }
  });

  it('when a noun is first a group, then a query can be of it when a later sense is a thing (a forest), though it names no thing an absent one would empty a search for (a colony)', async () => {
    const { namesThing, namesSubject } = await classes;
    for (const word of ['forest', 'colony']) {
      expect(await namesSubject(word), word).to.equal(true);
      expect(await namesThing(word), word).to.equal(false);
    }
    for (const word of ['team', 'government', 'crowd', 'army']) expect(await namesSubject(word), word).to.equal(false);
  });

  it('when a thing may stand in a corner of a scene, then it names a figure; what a picture of it is filled with, a place or a natural object, does not', async () => {
    const { namesFigure } = await classes;
    for (const word of ['cat', 'kittens', 'dog', 'girl', 'car', 'lighthouse', 'tree', 'guitar']) expect(await namesFigure(word), word).to.equal(true);
    for (const word of ['sky', 'sea', 'ocean', 'mountain', 'city', 'beach', 'moon', 'forest', 'dark', 'vibes']) {
      expect(await namesFigure(word), word).to.equal(false);
    }
  });

  it('when a word is asked in British spelling, then it is read in American, as the index reads it; a compound in the spelling WordNet lists', async () => {
    const { namesThing, isCompound } = await classes;
    // "storey" alone is a floor, "story" first a tale: a search for either searches "story".
    for (const [british, american] of [
      ['storey', 'story'],
      ['tyre', 'tire'],
      ['centre', 'center'],
      ['harbour seal', 'harbor seal'],
      ['colouring book', 'coloring book'],
    ] as const) {
      expect(await namesThing(british), british).to.equal(await namesThing(american));
      expect(isCompound(british), british).to.equal(isCompound(american));
    }
    expect(await namesThing('storey'), 'story is first a tale').to.equal(false);
    expect(isCompound('harbour seal'), 'listed as harbor seal').to.equal(true);
    expect(await namesThing('harbour seal'), 'an animal').to.equal(true);
    expect(isCompound('coloring book') && isCompound('colouring book')).to.equal(true);
  });

  it('when a few words are one noun of WordNet`s, then they are a compound, its plural and its hyphens too; words that merely meet are not', async () => {
    const { isCompound, namesThing } = await classes;
    for (const words of ['big cat', 'ice cream', 'Christmas tree', 'big cats', 'hot air balloon']) expect(isCompound(words), words).to.equal(true);
    for (const words of ['red car', 'sunset beach', 'cat', 'kitty cat cafe']) expect(isCompound(words), words).to.equal(false);
    expect(await namesThing('ice cream')).to.equal(true);
    expect(await namesThing('christmas tree')).to.equal(true);
  });

  it('when the kinds of a noun among some words are asked, then they are its synonyms, its kinds three levels down, its parts and what it is a kind of, not its siblings', async () => {
    const { kindsAmong } = await classes;
    // "above" is a noun of one sense, "drone" of two: no word may match every other by a sense it lacks.
    const kindsOf = await kindsAmong([
      'lion',
      'tiger',
      'snow leopard',
      'keyboard',
      'puppy',
      'tree',
      'big cat',
      'kitten',
      'Oak Tree',
      'above',
      'drone',
      'fox',
      'planet',
      'guitar',
    ]);
    for (const kind of ['lion', 'tiger', 'snow leopard']) expect((await kindsOf('big cat')).has(kind), kind).to.equal(true);
    expect((await kindsOf('big cats')).has('lion'), 'a plural').to.equal(true);
    expect((await kindsOf('feline')).has('lion'), 'feline, cat, big cat, lion').to.equal(true);
    expect((await kindsOf('computer')).has('keyboard'), 'a part').to.equal(true);
    expect((await kindsOf('dog')).has('puppy')).to.equal(true);
    expect((await kindsOf('tree')).has('oak tree'), 'in lower case').to.equal(true);
    expect((await kindsOf('christmas tree')).has('tree'), 'above it').to.equal(true);
    expect((await kindsOf('red fox')).has('fox'), 'above it').to.equal(true);
    expect((await kindsOf('electric guitar')).has('guitar'), 'above it').to.equal(true);
    expect((await kindsOf('jupiter')).has('planet'), 'an instance of it').to.equal(true);
    expect((await kindsOf('lion')).has('big cat'), 'above a plain word: a lion does not answer for every big cat').to.equal(false);
    expect((await kindsOf('christmas tree')).has('oak tree'), 'a sibling').to.equal(false);
    expect((await kindsOf('snowman')).has('above'), 'a sense it lacks').to.equal(false);
    expect((await kindsOf('insect')).has('drone'), 'a drone bee, three levels down').to.equal(true);
    expect((await kindsOf('feline')).has('kitten'), 'WordNet puts kittens under young mammals').to.equal(false);
  });

  it('when only the kinds of a noun are asked, then they are its kinds, each of which is one: not its parts, nor what it is a kind or one of', async () => {
    const { kindsAmong } = await classes;
    const kindsOf = await kindsAmong(['lion', 'keyboard', 'tree', 'Oak Tree', 'planet', 'saturn', 'eagle', 'owl', 'hummingbird', 'canyon']);
    const only = (noun: string) => kindsOf(noun, { kindsOnly: true });
    for (const kind of ['eagle', 'owl', 'hummingbird']) expect((await only('bird')).has(kind), kind).to.equal(true);
    expect((await only('big cat')).has('lion')).to.equal(true);
    expect((await kindsOf('planet')).has('saturn'), 'a named one, asked for all').to.equal(true);
    expect((await only('planet')).has('saturn'), 'a named one: rarely what a picture naming it is of').to.equal(false);
    expect((await only('valley')).has('canyon')).to.equal(true);
    expect((await only('tree')).has('oak tree')).to.equal(true);
    expect((await kindsOf('computer')).has('keyboard'), 'a part, asked for all').to.equal(true);
    expect((await only('computer')).has('keyboard'), 'a part').to.equal(false);
    expect((await only('saturn')).has('planet'), 'what it is one of').to.equal(false);
    expect((await only('christmas tree')).has('tree'), 'what it is a kind of').to.equal(false);
    expect((await only('eagle')).has('bird'), 'above it').to.equal(false);
    expect((await kindsOf('snowman')).size).to.equal(0);
  });

  it('when the synonyms of a noun are asked, then they are the words of its first senses and the adjectives made from them, nothing further', async () => {
    const { synonymsOf } = await classes;
    const sunrise = await synonymsOf('sunrise');
    expect(sunrise.has('dawn')).to.equal(true);
    expect(sunrise.has('sunset'), 'an opposite').to.equal(false);
    expect(sunrise.has('sunrise'), 'itself').to.equal(false);
    expect((await synonymsOf('snow')).has('snowfall')).to.equal(true);
    expect((await synonymsOf('snow')).has('snowy'), 'the adjective made from it').to.equal(true);
    expect((await synonymsOf('dog')).has('puppy'), 'a kind, not a synonym').to.equal(false);
  });

  it('when a compound is asked whether it is of a word it holds, then it is where WordNet lists or defines it by the word, in any form', async () => {
    const { compoundIsOf } = await classes;
    for (const [compound, word] of [
      ['mountain range', 'mountain'],
      ['christmas tree', 'christmas'],
      ['race car', 'race'],
      ['boxing ring', 'boxing'],
      ['oak tree', 'oak'],
    ]) {
      expect(await compoundIsOf(compound!, word!), compound).to.equal(true);
    }
    for (const [compound, word] of [
      ['snow leopard', 'snow'],
      ['rose window', 'rose'],
      ['sports car', 'sports'],
    ]) {
      expect(await compoundIsOf(compound!, word!), compound).to.equal(false);
    }
    expect(await compoundIsOf('snow', 'snow'), 'no compound').to.equal(false);
  });

  it('when a plural is irregular, then it is read as its listed singular, as morphy reads WordNet`s exceptions', async () => {
    const { knows, namesThing } = await classes;
    for (const word of ['mice', 'geese', 'wolves', 'children', 'cacti', 'feet']) {
      expect(knows(word), word).to.equal(true);
      expect(await namesThing(word), word).to.equal(true);
    }
  });

  it('when a word is a word of the language, in any inflection, then it is known; a misspelling is not', async () => {
    const { knows } = await classes;
    for (const word of ['flamingo', 'wombat', 'churches', 'fortresses', 'jogging', 'quickly']) expect(knows(word), word).to.equal(true);
    for (const word of ['joger', 'sakrua', 'kittty', 'computor', 'bycicle']) expect(knows(word), word).to.equal(false);
  });
});
