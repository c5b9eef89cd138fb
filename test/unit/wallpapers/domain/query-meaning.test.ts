import { expect } from 'chai';
import { buildVocabulary } from '../../../../src/infra/nearest-words.js';
import type { SentenceModel } from '../../../../src/infra/sentence-model.js';
import { everydayWords } from '../../../../src/wallpapers/domain/everyday-words.js';
import {
  BROADER_SIMILARITY,
  EVERYDAY_SIMILARITY,
  type Language,
  MAX_MEANING_WORDS,
  type QueryMeaning,
  createQueryExpansion,
  singularOf,
} from '../../../../src/wallpapers/domain/query-meaning.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';

// A model of three meanings (cats, cars, the sea): each word a unit vector along its meaning,
// bent a little towards the others so similarities are below 1.
const MEANINGS: Record<string, number[]> = {
  kitten: [1, 0, 0],
  kitty: [0.8, 0.1, 0],
  cats: [0.9, 0.05, 0],
  cat: [0.95, 0, 0.05],
  automobile: [0.05, 0.75, 0],
  cars: [0, 1, 0],
  'race car': [0.1, 0.85, 0],
  ocean: [0, 0, 1],
  sea: [0, 0.05, 0.95],
  blue: [0.3, 0.3, 0.4],
  // Far from everything else: only the everyday words join these.
  northern: [0, 0.3, -0.9],
  lights: [0.3, 0, -0.9],
  aurora: [-1, 0, 0],
  // Two more directions, for what WordNet confirms or not: wild animals, and a fifth for spread.
  lion: [0, 0, 0, 1, 0],
  feline: [0.65, 0, 0, 0.5, 0.57],
  'big cat': [0.6, 0, 0, 0.5, 0.62],
  shark: [0, -0.7, 0.7, 0, 0],
  sunrise: [0, 0, 0, 0, 1],
  dawn: [0, 0.75, 0, 0, 0.66],
  // A word the thesaurus lists for sunrise, near it.
  fall: [0, 0, 0, 0.6, 0.8],
  // A bird, a kind of it the model agrees with, a part of it, and a kind the model places far.
  bird: [0, 0, 0, 0.8, -0.6],
  eagle: [0, 0, 0, 0.9, -0.4],
  wing: [0, 0, 0, 0.7, -0.7],
  pebble: [0.9, 0, 0, 0, 0.1],
};
const unit = (v: number[]) => {
  const norm = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / norm));
};
function fakeModel(): SentenceModel & { embedded: string[] } {
  const embedded: string[] = [];
  return {
    words: Object.keys(MEANINGS).filter((word) => !word.includes(' ')),
    embedded,
    // As WordPiece reads a word it does not hold: about four letters a piece.
    pieces: (text) => Math.ceil(text.length / 4),
    embed: (texts) => {
      embedded.push(...texts);
      return Promise.resolve(texts.map((text) => unit(Object.assign([0, 0, 0, 0, 0], MEANINGS[text] ?? [0.34, 0.33, 0.33]))));
    },
    close: () => Promise.resolve(),
  };
}

/** The fake model, with one word the model does not know placed where a test needs it. */
function placing(word: string, at: number[]): SentenceModel {
  const model = fakeModel();
  return { ...model, embed: (texts) => (texts[0] === word ? Promise.resolve([unit(at)]) : model.embed(texts)) };
}

describe('what a query means in the catalogue words', () => {
  // A phrase's words in a title (Term.titled) are asserted apart.
  const words = (meaning: QueryMeaning) => meaning.query?.groups.map((group) => group.filter(({ titled }) => !titled).map(({ text }) => text));

  it('when a word the catalogue does not use is asked, then its nearest catalogue words join it, closest first, with their similarity', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'race car', 'ocean'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 });
    const meaning = await expand(readSearchText('kitty'), vocabulary);
    expect(words(meaning)).to.deep.equal([['kitty', 'kitten']]);
    expect(meaning.query!.groups[0]![1]!.similarity).to.be.within(0.9, 1);
    expect(words(await expand(readSearchText('automobile sea'), vocabulary))).to.deep.equal([
      ['automobile', 'race car', 'cars'],
      ['sea', 'ocean'],
    ]);
  });

  it('when a plural or a misspelling is asked, then it is looked up as the word it stands for', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 });
    expect(words(await expand(readSearchText('kitties'), vocabulary))).to.deep.equal([['kitties', 'kitten']]);
    expect(words(await expand(readSearchText('automobil'), vocabulary))).to.deep.equal([['automobil', 'cars']]);
  });

  it('when nothing in the catalogue is near enough, or the words are quoted, then the query means what it says', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 });
    expect((await expand(readSearchText('qwertyuiop'), vocabulary)).query).to.equal(null);
    expect((await expand(readSearchText('"kitty automobile"'), vocabulary)).query).to.equal(null);
    expect((await expand(readSearchText('"kitty"'), vocabulary)).query, 'one word in quotes').to.equal(null);
    expect((await expand(readSearchText('kitten'), await buildVocabulary(model, [], new Map()))).query).to.equal(null);
  });

  it('when a word is read as more word pieces than an English word has, then the model is not run for it and it stands for nothing', async () => {
    // Four made-up 48-character words had cost a search 67 ms of the API's CPU (helper-118).
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 });
    model.embedded.length = 0;
    const madeUp = 'k3b7x9q2m4n8p1r5t6v0w3y7z9a2c4e6g8i0k2m4o6q8s0us';
    const meaning = await expand(readSearchText(`${madeUp} kitty`), vocabulary);
    expect(model.embedded.filter((text) => text.startsWith('k3b7'))).to.deep.equal([]);
    expect(words(meaning)).to.deep.equal([[madeUp], ['kitty', 'kitten']]);
    expect(meaning.strangers).to.deep.equal([[madeUp]]);
  });

  it('when a word is one of the catalogue words (or the plural of one), then it means itself', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'race car'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 });
    expect((await expand(readSearchText('kitten'), vocabulary)).query).to.equal(null);
    expect((await expand(readSearchText('kittens'), vocabulary)).query).to.equal(null);
    expect(words(await expand(readSearchText('cars kitty'), vocabulary))).to.deep.equal([['cars'], ['kitty', 'kitten']]);
  });

  it('when a word the model does not know is a misspelling of a catalogue word, then it is left to typo matching, unembedded', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
    model.embedded.length = 0;
    expect((await createQueryExpansion(model, { floor: 0.6, top: 4 })(readSearchText('kittn'), vocabulary)).query).to.equal(null);
    expect(model.embedded).to.deep.equal([]);
  });

  it('when an unknown word is near catalogue words only loosely, then the spelling guess read nearer stands for it; when surely near, its own neighbours do', async () => {
    // "kittu" is one edit from the model's "kitty"; where the model places it decides which reading stands.
    const loosely = placing('kittu', [0, 0.62, 0.78, 0, 0]);
    const vocabulary = await buildVocabulary(loosely, ['kitten', 'cars'], new Map());
    expect(words(await createQueryExpansion(loosely, { floor: 0.6, top: 4 })(readSearchText('kittu'), vocabulary))).to.deep.equal([
      ['kittu', 'kitten'],
    ]);
    const surely = placing('kittu', [0, 0.8, 0.6, 0, 0]);
    expect(words(await createQueryExpansion(surely, { floor: 0.6, top: 4 })(readSearchText('kittu'), vocabulary))).to.deep.equal([['kittu', 'cars']]);
  });

  it('when a query holds many words, then only the first few are looked up', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
    model.embedded.length = 0;
    const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 })(readSearchText(`${'zebra '.repeat(30)}kitty automobile`), vocabulary);
    expect(meaning.query).to.equal(null);
    expect(model.embedded.length).to.be.at.most(MAX_MEANING_WORDS);
  });

  it('when a query excludes words, then its meaning excludes them too', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
    const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 })(readSearchText('kitty -cars'), vocabulary);
    expect(meaning.query!.excluded.map(({ text }) => text)).to.deep.equal(['cars']);
  });

  it('when the words are built again, then only words not embedded before are embedded', async () => {
    const model = fakeModel();
    const known = new Map<string, Float32Array>();
    await buildVocabulary(model, ['kitten', 'cars'], known);
    model.embedded.length = 0;
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'ocean', 'ocean'], known);
    expect(model.embedded).to.deep.equal(['ocean']);
    expect(vocabulary.entries).to.deep.equal(['kitten', 'cars', 'ocean']);
  });

  describe('words people use for the catalogue words', () => {
    const everyday = everydayWords({
      kitten: ['noms'],
      aurora: ['northern lights', 'aurora borealis'],
      cars: ['sakura', 'kitten'],
      ocean: ['giraffe'],
    });

    it('when a class word holds catalogue words, then they stand for it a little below the words for the same thing', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'race car'], new Map());
      const thesaurus = everydayWords({ cars: ['motor'] }, { cars: ['vehicle'], 'race car': ['vehicle', 'motor'] });
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, thesaurus);
      const meaning = await expand(readSearchText('vehicle'), vocabulary);
      expect(meaning.query!.groups[0]!.slice(1).map(({ text, similarity }) => [text, similarity])).to.deep.equal([
        ['cars', BROADER_SIMILARITY],
        ['race car', BROADER_SIMILARITY],
      ]);
      const motor = await expand(readSearchText('motor'), vocabulary);
      expect(motor.query!.groups[0]!.slice(1).map(({ text, similarity }) => [text, similarity])).to.deep.equal([
        ['cars', EVERYDAY_SIMILARITY],
        ['race car', BROADER_SIMILARITY],
      ]);
      expect(BROADER_SIMILARITY).to.be.below(EVERYDAY_SIMILARITY);
    });

    it('when a word people use for a catalogue word is asked, then it stands for it, before what the model finds', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'aurora'], new Map());
      const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday)(readSearchText('noms'), vocabulary);
      expect(words(meaning)).to.deep.equal([['noms', 'kitten']]);
      expect(meaning.query!.groups[0]![1]!.similarity).to.equal(EVERYDAY_SIMILARITY);
    });

    it('when neighbouring words are a phrase people use, then they are one group: the phrase, or what it stands for', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'aurora'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday);
      const meaning = await expand(readSearchText('the northern lights kitty'), vocabulary);
      expect(words(meaning)).to.deep.equal([
        ['northern lights', 'aurora'],
        ['kitty', 'kitten'],
      ]);
      expect(meaning.query!.groups[0]![0]).to.deep.equal({ text: 'northern lights', phrase: true });
      expect(words(await expand(readSearchText('northen lights'), vocabulary)), 'a word of it misspelt').to.deep.equal([
        ['northen lights', 'aurora'],
      ]);
      expect(words(await expand(readSearchText('"northern lights"'), vocabulary)), 'in quotes').to.deep.equal(undefined);
      expect(words(await expand(readSearchText('northern -lights'), vocabulary)), 'one excluded').to.deep.equal(undefined);
    });

    it('when a phrase people use for a catalogue word is typed in the plural, then it stands for what the phrase does', async () => {
      // "sports venues" had found nothing at all: the file lists "sports venue", and "venues" alone
      // is a thing the catalogue lacks.
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'race car'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({}, { cars: ['fast machine'] }));
      expect(words(await expand(readSearchText('fast machines'), vocabulary))).to.deep.equal([['fast machines', 'cars']]);
      expect(words(await expand(readSearchText('fast machine'), vocabulary))).to.deep.equal([['fast machine', 'cars']]);
      expect(words(await expand(readSearchText('fasts machines'), vocabulary)), 'typed side by side, every word singular').to.deep.equal([
        ['fasts machines', 'cars'],
      ]);
      const lights = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({}, { kitten: ['city lights'], cars: ['city of light'] }));
      expect(
        words(await lights(readSearchText('cities lights'), vocabulary)),
        'the last word as typed first: city lights, not the city of light',
      ).to.deep.equal([['cities lights', 'kitten']]);
      const apart = words(await expand(readSearchText('fasts, machine'), vocabulary));
      expect(apart, 'apart, only the last word: "roses in the garden" is no "rose garden"').to.not.deep.include(['fasts machine', 'cars']);
      const own = await createQueryExpansion(
        model,
        { floor: 0.6, top: 4 },
        everydayWords({}, { cars: ['race car'] }),
      )(readSearchText('race cars'), vocabulary);
      expect(own.typed, "the catalogue's own phrase in the plural means itself").to.equal(undefined);
    });

    it('when a phrase people use for a catalogue word is typed, then its words as typed are one phrase too, not words apart', async () => {
      // Word by word, "fall leaves" as typed had ranked "… under Falling Petals" ("Leaves room for
      // desktop icons") above every autumn wallpaper.
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'aurora'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday);
      const asTyped = (meaning: QueryMeaning) =>
        meaning.typed?.map((group) => group.map(({ text, phrase, titled }) => `${text}${phrase ? ' (phrase)' : ''}${titled ? ' (titled)' : ''}`));
      expect(asTyped(await expand(readSearchText('northern lights kitty'), vocabulary))).to.deep.equal([
        ['northern lights (phrase)', 'northern lights (titled)'],
        ['kitty'],
      ]);
      expect(asTyped(await expand(readSearchText('kitty northen lights'), vocabulary)), 'a word of it misspelt').to.deep.equal([
        ['kitty'],
        ['northen lights (phrase)', 'northen lights (titled)'],
      ]);
      const meaning = await expand(readSearchText('northern lights kitty'), vocabulary);
      expect(meaning.query!.groups[0]!.slice(0, 2), 'in the meaning too, as typed').to.deep.equal([
        { text: 'northern lights', phrase: true },
        { text: 'northern lights', phrase: false, titled: true },
      ]);
      expect(asTyped(await expand(readSearchText('kitty cars'), vocabulary)), 'no such phrase').to.equal(undefined);
    });

    it('when a joined term holds a misspelt word, then it stands for what the same words typed apart do', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'aurora'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday);
      expect(words(await expand(readSearchText('northern-lights'), vocabulary)), 'as typed').to.deep.equal([['northern lights', 'aurora']]);
      expect(words(await expand(readSearchText('northen-lights'), vocabulary)), 'misspelt').to.deep.equal([['northen lights', 'aurora']]);
      expect(words(await expand(readSearchText('northen lights'), vocabulary)), 'apart').to.deep.equal([['northen lights', 'aurora']]);
      const late = await expand(readSearchText('qwert asdfg zxcvb yuiop northen-lights'), vocabulary);
      expect(late.query?.groups.some((group) => group.some(({ text }) => text === 'aurora')) ?? false, 'past the words looked up').to.equal(false);
    });

    it('when a misspelt phrase comes after the first few words, then it is not respelt (respelling costs a scan)', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'aurora'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday);
      const late = await expand(readSearchText('qwert asdfg zxcvb yuiop northen lights'), vocabulary);
      expect(late.query?.groups.some((group) => group.some(({ text }) => text === 'aurora')) ?? false).to.equal(false);
      expect(words(await expand(readSearchText('northern lights qwert asdfg zxcvb yuiop'), vocabulary))![0]).to.deep.equal([
        'northern lights',
        'aurora',
      ]);
    });

    it('when the catalogue does not use the word a term stands for, then the term means what it says', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday);
      expect((await expand(readSearchText('northern lights'), vocabulary)).query).to.equal(null);
      expect((await expand(readSearchText('giraffe'), vocabulary)).query).to.equal(null);
    });

    it('when a catalogue word is also listed as what people say for another, then it still means itself', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
      expect((await createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday)(readSearchText('kitten'), vocabulary)).query).to.equal(null);
    });

    it('when one word of parts is what people write for a catalogue word, then it stands for it', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({ cars: ['b&w', 'hi-tech'] }));
      expect(words(await expand(readSearchText('B&W'), vocabulary))).to.deep.equal([['B W', 'cars']]);
      expect(words(await expand(readSearchText('hi-tech kitty'), vocabulary))).to.deep.equal([
        ['hi tech', 'cars'],
        ['kitty', 'kitten'],
      ]);
    });

    it('when a short word is one edit from a short form people use, then it is not read as that form', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
      const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({ cars: ['gto'] }));
      expect((await expand(readSearchText('gato'), vocabulary)).query).to.equal(null);
    });

    it('when a word with neighbours of its own is two edits from a word people use, then its neighbours stand', async () => {
      // "sakrue" is placed loosely near the ocean (0.62), two edits from "sakura", a word people use for kitten.
      const placed = placing('sakrue', [0, 0, 0.62, 0.78, 0]);
      const vocabulary = await buildVocabulary(placed, ['kitten', 'ocean'], new Map());
      const expand = createQueryExpansion(placed, { floor: 0.6, top: 4 }, everydayWords({ kitten: ['sakura'] }));
      expect(words(await expand(readSearchText('sakrue'), vocabulary))).to.deep.equal([['sakrue', 'ocean']]);
      expect(words(await expand(readSearchText('sakrua'), vocabulary)), 'with no neighbour, the guess stands').to.deep.equal([['sakrua', 'kitten']]);
    });

    it('when a word with neighbours of its own is made of two words, then it is a coinage and no spelling of another', async () => {
      // "sailway" is placed loosely near the ocean (0.62), one edit from "railway", a word people use for cars.
      const placed = placing('sailway', [0, 0, 0.62, 0.78, 0]);
      const vocabulary = await buildVocabulary(placed, ['cars', 'ocean'], new Map());
      const said = everydayWords({ cars: ['railway'] });
      const knowing: Language = {
        knows: (word) => word === 'sail' || word === 'way',
        namesThing: () => Promise.resolve(false),
        isCompound: () => false,
        kindsAmong: () => Promise.resolve(() => Promise.resolve(new Set<string>())),
        synonymsOf: () => Promise.resolve(new Set<string>()),
      };
      const read = async (language?: Language) =>
        words(await createQueryExpansion(placed, { floor: 0.6, top: 4 }, said, language)(readSearchText('sailway'), vocabulary));
      expect(await read(knowing)).to.deep.equal([['sailway', 'ocean']]);
      expect(await read(), 'without knowing its parts, it reads as the nearer spelling').to.deep.equal([['sailway', 'cars']]);
    });

    it('when a word people use is misspelt, then it is read as that word', async () => {
      const model = fakeModel();
      const vocabulary = await buildVocabulary(model, ['kitten', 'cars'], new Map());
      expect(words(await createQueryExpansion(model, { floor: 0.6, top: 4 }, everyday)(readSearchText('sakrua'), vocabulary))).to.deep.equal([
        ['sakrua', 'cars'],
      ]);
    });
  });
});

describe('what WordNet adds to a query`s meaning', () => {
  const words = (meaning: QueryMeaning) => meaning.query?.groups.map((group) => group.map(({ text }) => text));
  const things = new Set(['shark', 'feline', 'big cat', 'kitty']);
  const language: Language = {
    knows: () => false,
    namesThing: (word) => Promise.resolve(things.has(word)),
    isCompound: (words) => words === 'big cat',
    kindsAmong: (words) =>
      Promise.resolve((noun: string) =>
        Promise.resolve(new Set(noun === 'feline' || noun === 'big cat' ? ['lion', 'tiger'].filter((kind) => words.includes(kind)) : [])),
      ),
    synonymsOf: (noun) => Promise.resolve(new Set(noun === 'sunrise' ? ['dawn', 'aurora'] : [])),
  };
  const catalogue = ['kitten', 'ocean', 'lion', 'sunrise', 'dawn', 'aurora', 'cars'];

  it('when a word names a pictured thing, then a neighbour WordNet does not confirm stands for it only when very near', async () => {
    const model = fakeModel();
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language);
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    // shark is 0.70 from ocean: no answer to a shark, so shark stands for nothing and is a stranger.
    const shark = await expand(readSearchText('shark'), vocabulary);
    expect(shark.query).to.equal(null);
    expect(shark.strangers).to.deep.equal([['shark']]);
    // kitty is 0.99 from kitten: near enough without WordNet.
    expect(words(await expand(readSearchText('kitty'), vocabulary))).to.deep.equal([['kitty', 'kitten']]);
    // Without WordNet the model's word stands, as it did.
    expect(words(await createQueryExpansion(model, { floor: 0.6, top: 4 })(readSearchText('shark'), vocabulary))).to.deep.equal([['shark', 'ocean']]);
  });

  it('when WordNet`s kinds of a word are catalogue words, then those the model places near enough stand for it, below the plain floor', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language)(readSearchText('feline'), vocabulary);
    // lion at 0.50 by WordNet's say; kitten at 0.65 is not a kind of feline by WordNet, and a feline is a pictured thing.
    expect(words(meaning)).to.deep.equal([['feline', 'lion']]);
    expect(meaning.query!.groups[0]![1]!.similarity).to.be.closeTo(0.5, 0.01);
  });

  it('when neighbouring words are one of WordNet`s compounds, then they are one group: the phrase and its kinds, not its words one by one', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language);
    const meaning = await expand(readSearchText('big cat in the snow'), vocabulary);
    expect(words(meaning)).to.deep.equal([['big cat', 'lion'], ['snow']]);
    expect(meaning.query!.groups[0]![0]!.phrase).to.equal(true);
    // Quoted, the words mean what they say.
    expect((await expand(readSearchText('"big" cat'), vocabulary)).query?.groups.map((group) => group[0]!.text)).to.not.include('big cat');
  });

  it('when a query has several groups, then its subject is the first that names a pictured thing; with one group, none', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language);
    const subjectOf = async (q: string) => (await expand(readSearchText(q), vocabulary)).subject?.map(({ text }) => text);
    // "ocean" names no thing to this WordNet; the shark does, and so does the big cat.
    expect(await subjectOf('ocean shark')).to.deep.equal(['shark']);
    expect(await subjectOf('big cat in the snow')).to.deep.equal(['big cat', 'lion']);
    expect(await subjectOf('shark')).to.equal(undefined);
    expect(await subjectOf('ocean sunrise')).to.equal(undefined);
    expect(await subjectOf('"shark" ocean'), 'a quoted word is not read').to.equal(undefined);
  });

  it('when a phrase WordNet does not know leads a query, then its last word says whether it is the subject', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({ aurora: ['shark lights', 'lights shark'] }), language);
    const subjectOf = async (q: string) => (await expand(readSearchText(q), vocabulary)).subject?.[0]?.text;
    expect(await subjectOf('lights shark ocean'), 'a shark').to.equal('lights shark');
    expect(await subjectOf('shark lights ocean'), 'lights, no thing to this WordNet').to.equal(undefined);
  });

  it('when the subject names a figure a scene may hold in a corner, then its word as typed is marked so; otherwise not', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const figures: Language = { ...language, namesFigure: (word) => Promise.resolve(word === 'shark') };
    const figureOf = async (q: string, reading: Language) =>
      (await createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, reading)(readSearchText(q), vocabulary)).subject?.map(
        ({ figure }) => figure,
      );
    expect(await figureOf('ocean shark', figures)).to.deep.equal([true]);
    expect(await figureOf('big cat in the snow', figures), 'the big cat fills no corner here').to.deep.equal([undefined, undefined]);
    expect(await figureOf('ocean shark', language), 'without the question, none').to.deep.equal([undefined]);
  });

  it('when a compound has no catalogue word for it, then it is a stranger as a whole', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, ['ocean', 'cars'], new Map());
    const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language)(readSearchText('big cat'), vocabulary);
    expect(meaning.strangers).to.deep.equal([['big cat']]);
  });

  it('when a word as typed names a pictured thing, then it is marked so, and a stand-in or a word that names none is not', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language);
    const kitty = await expand(readSearchText('kitty'), vocabulary);
    expect(kitty.query!.groups[0]!.map(({ text, thing }) => [text, thing ?? false])).to.deep.equal([
      ['kitty', true],
      ['kitten', false],
    ]);
    const sea = await expand(readSearchText('sea'), vocabulary);
    expect(sea.query!.groups[0]![0]).to.not.have.property('thing');
  });

  it('when the thesaurus lists a word for a catalogue word that names a thing, then the word as typed is marked as naming it; for one that names none, not', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const carsAreThings: Language = { ...language, namesThing: (word) => Promise.resolve(word === 'cars' || things.has(word)) };
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({ cars: ['motoring'], sunrise: ['daybreak'] }), carsAreThings);
    const motoring = await expand(readSearchText('motoring'), vocabulary);
    expect(motoring.query!.groups[0]!.map(({ text, thing }) => [text, thing ?? false])).to.deep.equal([
      ['motoring', true],
      ['cars', false],
    ]);
    const daybreak = await expand(readSearchText('daybreak'), vocabulary);
    expect(daybreak.query!.groups[0]![0], 'a time of day is no thing').to.not.have.property('thing');
  });

  it('when the index reads a word the thesaurus lists as another of the catalogue`s words far in meaning, then the word as typed is marked as naming a thing; read as a near one, as one it is listed for, or without the reading, not', async () => {
    const model = fakeModel();
    const entries = [...catalogue, 'falling petals', 'frosted', 'cat', 'desolate'];
    const vocabulary = await buildVocabulary(model, entries, new Map());
    // As the index's stemmer reads them: "fall" is the "falling" of falling petals (far from sunrise,
    // which the thesaurus lists it for, and "fall" is near), "catting" the catalogue's cat (near
    // kitten), "frost" the catalogue's frosted, which it is listed for, and "desolation" the
    // catalogue's desolate, as far from sunrise as "desolation" is itself (helper-143).
    const stems: Record<string, string> = {
      falling: 'fall',
      fall: 'fall',
      frosted: 'frost',
      frost: 'frost',
      petals: 'petal',
      catting: 'cat',
      desolation: 'desol',
      desolate: 'desol',
    };
    const asked: { words: string[]; timeoutMs: number | undefined }[] = [];
    const readAsIndexed = (words: readonly string[], timeoutMs?: number) => {
      asked.push({ words: [...words], timeoutMs });
      return Promise.resolve(words.map((word) => stems[word] ?? word));
    };
    const thesaurus = everydayWords({ sunrise: ['fall', 'desolation'], frosted: ['frost'], kitten: ['catting'] });
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, thesaurus, language, readAsIndexed);
    const reading = expand.readAlike(entries, 250);
    expect([...(await reading).keys()].sort()).to.deep.equal(['catting', 'desolation', 'fall']);
    await expand.prepare(vocabulary, reading);
    expect(asked.map(({ timeoutMs }) => timeoutMs)).to.deep.equal([250]);
    expect(asked[0]!.words).to.include.members(['falling', 'petals', 'frosted', 'fall', 'frost', 'catting']);
    const marked = async (q: string) =>
      (await expand(readSearchText(q), vocabulary)).query!.groups[0]!.map(({ text, thing }) => [text, thing ?? false]);
    expect(await marked('fall')).to.deep.equal([
      ['fall', true],
      ['sunrise', false],
    ]);
    expect((await marked('catting'))[0], 'read as a word near what it is listed for').to.deep.equal(['catting', false]);
    expect((await marked('desolation'))[0], 'read as a word no further than itself').to.deep.equal(['desolation', false]);
    expect(await marked('frost')).to.deep.equal([
      ['frost', false],
      ['frosted', false],
    ]);
    expect((await expand(readSearchText('"fall" kitty'), vocabulary)).query!.groups[0]![0], 'quoted, the word is as typed').to.not.have.property(
      'thing',
    );
    const unread = createQueryExpansion(model, { floor: 0.6, top: 4 }, thesaurus, language);
    await unread.prepare(vocabulary);
    expect((await unread(readSearchText('fall'), vocabulary)).query!.groups[0]![0]).to.not.have.property('thing');
  });

  it('when the index cannot read the thesaurus`s words, then preparing the catalogue words fails, and a search on them goes on unmarked', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, [...catalogue, 'falling petals'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.6, top: 4 }, everydayWords({ sunrise: ['fall'] }), language, () =>
      Promise.reject(new Error('no answer')),
    );
    let failed: unknown;
    await expand.prepare(vocabulary).catch((error: unknown) => (failed = error));
    expect(failed).to.be.instanceOf(Error);
    expect((await expand(readSearchText('fall'), vocabulary)).query!.groups[0]![0]).to.not.have.property('thing');
  });

  it('when a catalogue word names a thing, then the catalogue words for kinds of it that the model agrees with join it; not its parts, nor for a word that names no thing', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, [...catalogue, 'bird', 'eagle', 'wing', 'pebble'], new Map());
    const birds: Language = {
      ...language,
      namesThing: (word) => Promise.resolve(word === 'bird'),
      kindsAmong: (entries) =>
        Promise.resolve((noun: string, { kindsOnly = false } = {}) =>
          Promise.resolve(
            new Set(noun === 'bird' ? ['eagle', 'pebble', ...(kindsOnly ? [] : ['wing'])].filter((kind) => entries.includes(kind)) : []),
          ),
        ),
    };
    const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, birds)(readSearchText('bird'), vocabulary);
    // eagle at 0.97; the pebble, a kind by this WordNet, is far to the model; the wing is a part.
    expect(words(meaning)).to.deep.equal([['bird', 'eagle']]);
    expect(meaning.strangers).to.deep.equal([]);
    const noThing: Language = { ...birds, namesThing: () => Promise.resolve(false) };
    expect((await createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, noThing)(readSearchText('bird'), vocabulary)).query).to.equal(null);
  });

  it('when a catalogue word has synonyms by WordNet among the catalogue words, then those the model agrees with join it', async () => {
    const model = fakeModel();
    const vocabulary = await buildVocabulary(model, catalogue, new Map());
    const meaning = await createQueryExpansion(model, { floor: 0.6, top: 4 }, undefined, language)(readSearchText('sunrise ocean'), vocabulary);
    // dawn at 0.66; aurora, WordNet's too, is far from sunrise to the model.
    expect(words(meaning)).to.deep.equal([['sunrise', 'dawn'], ['ocean']]);
  });
});

describe('a word in British or American spelling', () => {
  const words = (meaning: QueryMeaning) => meaning.query?.groups.map((group) => group.map(({ text }) => text));

  it('when a word is typed in either spelling, then it means what its American spelling means, as the index reads one as the other', async () => {
    // The model places the two spellings apart, as the real one does ("colour" by game words, "color" by flowers).
    const model = placing('colour', [0, 1, 0]);
    const vocabulary = await buildVocabulary(model, ['kitten', 'cars', 'ocean'], new Map());
    const expand = createQueryExpansion(placing('color', [0, 0, 1]), { floor: 0.6, top: 4 });
    expect(words(await expand(readSearchText('color'), vocabulary))).to.deep.equal([['color', 'ocean']]);
    expect(words(await expand(readSearchText('Colour'), vocabulary))).to.deep.equal([['Colour', 'ocean']]);
  });

  it('when a word is the catalogue`s own in its other spelling, then it means itself, as the catalogue`s word does', async () => {
    // A word the model knows is not read as a misspelling of the catalogue's.
    const model = { ...fakeModel(), words: [...fakeModel().words, 'harbor', 'harbour'] };
    const vocabulary = await buildVocabulary(model, ['harbour', 'cars', 'ocean'], new Map());
    const expand = createQueryExpansion(model, { floor: 0.3, top: 4 });
    for (const typed of ['harbor', 'harbour']) {
      const meaning = await expand(readSearchText(typed), vocabulary);
      expect(meaning.query, typed).to.equal(null);
      expect(meaning.strangers, typed).to.deep.equal([]);
    }
  });
});

describe('the singular a plural is looked up as', () => {
  it('when a plural is regular, then its singular is read by the rule its ending takes', () => {
    expect(['kitties', 'churches', 'fortresses', 'boxes', 'cars', 'dishes'].map(singularOf)).to.deep.equal([
      'kitty',
      'church',
      'fortress',
      'box',
      'car',
      'dish',
    ]);
    expect(['grass', 'cactus', 'moss'].map(singularOf), 'not plurals').to.deep.equal(['grass', 'cactus', 'moss']);
  });

  it('when a plural is irregular, then its singular is the one the list gives, as the index reads it', () => {
    expect(['mice', 'people', 'wolves', 'leaves', 'geese', 'cacti'].map(singularOf)).to.deep.equal([
      'mouse',
      'person',
      'wolf',
      'leaf',
      'goose',
      'cactus',
    ]);
  });
});
