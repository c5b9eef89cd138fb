import { expect } from 'chai';
import fc from 'fast-check';
import { countWords, parseSearchQuery, readSearchText } from '../../../src/wallpapers/search-query.js';

const word = (text: string) => ({ text, phrase: false });
const phrase = (text: string) => ({ text, phrase: true });

/** The words a query marks as typed after a `no`, each with the word before it. */
const marked = (q: string) =>
  readSearchText(q)
    .groups.flat()
    .filter(({ afterNo }) => afterNo !== undefined)
    .map(({ text, afterNo }) => [afterNo, text]);

describe('search query syntax', () => {
  it('when plain words are given, then each is a group of its own', () => {
    expect(parseSearchQuery('mountain  sunset')).to.deep.equal({ groups: [[word('mountain')], [word('sunset')]], excluded: [] });
  });

  it('when a phrase is quoted, then it is one term; an unbalanced quote runs to the end', () => {
    expect(parseSearchQuery('"alpine lake" red').groups).to.deep.equal([[phrase('alpine lake')], [word('red')]]);
    expect(parseSearchQuery('red "alpine lake').groups).to.deep.equal([[word('red')], [phrase('alpine lake')]]);
    expect(parseSearchQuery('"fox"').groups, 'a one-word phrase is a word, marked as quoted').to.deep.equal([[{ ...word('fox'), quoted: true }]]);
  });

  it('when a word or a phrase starts with a minus, then it is excluded; a lone minus is nothing', () => {
    expect(parseSearchQuery('forest -pine - -"castle level"')).to.deep.equal({
      groups: [[word('forest')]],
      excluded: [word('pine'), phrase('castle level')],
    });
  });

  it('when a minus sits inside a word, then it joins the word rather than excluding', () => {
    expect(parseSearchQuery('post-apocalyptic').groups).to.deep.equal([[word('post apocalyptic')]]);
  });

  it('when words are joined by a comma, a semicolon or a bracket, then they are words of their own; other joiners make one term', () => {
    expect(parseSearchQuery('sunset,beach;night (forest)').groups).to.deep.equal([
      [word('sunset')],
      [word('beach')],
      [word('night')],
      [word('forest')],
    ]);
    expect(parseSearchQuery('snow-capped b&w day/night').groups).to.deep.equal([[word('snow capped')], [word('b w')], [word('day night')]]);
    expect(parseSearchQuery('lake -(forest) ,-pine')).to.deep.equal({ groups: [[word('lake')]], excluded: [word('forest'), word('pine')] });
    expect(parseSearchQuery('sunset，beach 海、夕日').groups, 'full-width and CJK forms too').to.deep.equal([
      [word('sunset')],
      [word('beach')],
      [word('海')],
      [word('夕日')],
    ]);
  });

  it('when a minus opens brackets, then every term inside is excluded, up to the closing bracket or the end', () => {
    expect(parseSearchQuery('lake -(pine oak) river')).to.deep.equal({
      groups: [[word('lake')], [word('river')]],
      excluded: [word('pine'), word('oak')],
    });
    expect(parseSearchQuery('lake -[pine "tall tree"] sky')).to.deep.equal({
      groups: [[word('lake')], [word('sky')]],
      excluded: [word('pine'), phrase('tall tree')],
    });
    expect(parseSearchQuery('lake -(pine oak')).to.deep.equal({ groups: [[word('lake')]], excluded: [word('pine'), word('oak')] });
    expect(parseSearchQuery('forest -(pine (oak) elm)'), 'brackets inside it too').to.deep.equal({
      groups: [[word('forest')]],
      excluded: [word('pine'), word('oak'), word('elm')],
    });
    expect(parseSearchQuery('forest -(pine +) lake'), 'a bracket after an operator still closes it').to.deep.equal({
      groups: [[word('forest')], [word('lake')]],
      excluded: [word('pine')],
    });
    expect(parseSearchQuery('forest -〔pine oak〕'), 'CJK brackets too').to.deep.equal({
      groups: [[word('forest')]],
      excluded: [word('pine'), word('oak')],
    });
    expect(parseSearchQuery('lake (pine -oak) sky'), 'brackets without a minus exclude nothing').to.deep.equal({
      groups: [[word('lake')], [word('pine')], [word('sky')]],
      excluded: [word('oak')],
    });
  });

  it('when a size is typed with spaces, a times sign or a star, then it is the one word of a size', () => {
    for (const q of [
      '1920 x 1080',
      '1920×1080',
      '1920 * 1080',
      '1920X1080',
      '1920  X  1080',
      '1920х1080',
      '1920 ✕ 1080',
      '1920 by 1080',
      '1920x1080px',
      '1920 x 1080PX',
      '1920 x 1080 px',
      '1920x1080 pixels',
    ]) {
      expect(parseSearchQuery(q).groups, q).to.deep.equal([[word('1920x1080')]]);
    }
    expect(parseSearchQuery('sunset 2560 x 1440 beach').groups).to.deep.equal([[word('sunset')], [word('2560x1440')], [word('beach')]]);
    expect(parseSearchQuery('-1920 x 1080').excluded).to.deep.equal([word('1920x1080')]);
    expect(parseSearchQuery('sunset_1920×1080.jpg').groups).to.deep.equal([[word('sunset 1920x1080 jpg')]]);
  });

  it('when sizes are typed apart, then they are one group of alternatives, where the first stood', () => {
    const groups = (q: string) => readSearchText(q).groups.map((group) => group.map(({ text }) => text));
    expect(groups('1920x1080 2560x1440')).to.deep.equal([['1920x1080', '2560x1440']]);
    expect(groups('red 1920 x 1080 lake 2560x1440')).to.deep.equal([['red'], ['1920x1080', '2560x1440'], ['lake']]);
    expect(groups('1920x1080 OR sunset 2560x1440'), 'a size among words stays there').to.deep.equal([['1920x1080', 'sunset'], ['2560x1440']]);
    expect(groups('lake 1920x1080'), 'one size as typed').to.deep.equal([['lake'], ['1920x1080']]);
  });

  it("when a screen's ratio is typed with a colon, an x or a times sign, then it is the one word of that ratio; other pairs of numbers stay words", () => {
    for (const q of ['21:9', '21 : 9', '21 x 9', '21×9', '21X9']) expect(parseSearchQuery(q).groups, q).to.deep.equal([[word('21x9')]]);
    expect(parseSearchQuery('16:9 sunset').groups).to.deep.equal([[word('16x9')], [word('sunset')]]);
    for (const q of ['10:30', '12:34', '2 x 4', '16:9:3', '9:19.5'])
      expect(
        parseSearchQuery(q)
          .groups.flat()
          .map(({ text }) => text),
        q,
      ).to.not.include('16x9');
    expect(parseSearchQuery('10:30').groups).to.deep.equal([[word('10')], [word('30')]]);
  });

  it('when numbers beside an x are not a screen size, then they stay words', () => {
    expect(parseSearchQuery('2 x 4').groups).to.deep.equal([[word('2')], [word('x')], [word('4')]]);
    expect(parseSearchQuery('a1920 x 1080').groups).to.deep.equal([[word('a1920')], [word('x')], [word('1080')]]);
    expect(parseSearchQuery('1920 x 1080p').groups).to.deep.equal([[word('1920')], [word('x')], [word('1080p')]]);
    expect(parseSearchQuery('0920 x 1080').groups).to.deep.equal([[word('0920')], [word('x')], [word('1080')]]);
    expect(parseSearchQuery('1920x1080pxl').groups).to.deep.equal([[word('1920x1080pxl')]]);
    expect(parseSearchQuery('1920 bye 1080').groups).to.deep.equal([[word('1920')], [word('bye')], [word('1080')]]);
  });

  it('when a word is possessive, then it is the word itself', () => {
    expect(parseSearchQuery("galaxy's kitten\u2019s").groups).to.deep.equal([[word('galaxy')], [word('kitten')]]);
    expect(parseSearchQuery("rock'n'roll").groups, 'an apostrophe inside a word still joins it').to.deep.equal([[word('rock n roll')]]);
  });

  it('when a word has Latin accents or folded letters, then it is read as the index folds it; other scripts keep their marks', () => {
    expect(parseSearchQuery('Café crème STRASSE straße cafe\u0301 Ørsted').groups).to.deep.equal([
      [word('Cafe')],
      [word('creme')],
      [word('STRASSE')],
      [word('strasse')],
      [word('cafe')],
      [word('Orsted')],
    ]);
    expect(parseSearchQuery('हिन्दी がっこう').groups, 'a Hindi word is one word, its vowel signs kept').to.deep.equal([
      [word('हिन्दी')],
      [word('がっこう')],
    ]);
    expect(parseSearchQuery('GRAẞ ıce ſky ɡlow ｃｉｔｙ ﬁeld İstanbul').groups, 'letters and forms the index folds too').to.deep.equal([
      [word('GRASS')],
      [word('ice')],
      [word('sky')],
      [word('glow')],
      [word('city')],
      [word('field')],
      [word('Istanbul')],
    ]);
  });

  it('when words are pasted as styled "fancy text" (mathematical, script, circled letters), then they read as the letters they are; parenthesised forms bring no brackets', () => {
    expect(parseSearchQuery('𝐬𝐮𝐧𝐬𝐞𝐭 ⓑⓔⓐⓒⓗ 𝓈𝓊𝓃𝓈ℯ𝓉 𝕗𝕠𝕣𝕖𝕤𝕥 ④').groups).to.deep.equal([
      [word('sunset')],
      [word('beach')],
      [word('sunset')],
      [word('forest')],
      [word('4')],
    ]);
    expect(parseSearchQuery('sunset -⒜ ™').excluded, 'no exclusion group out of ⒜').to.deep.equal([]);
    expect(countWords('ⓢⓤⓝ ⓑⓔⓐⓒⓗ ⓣⓗⓔ'), 'circled words count as words, against the bound too').to.equal(3);
  });

  it('when operators are typed in their full-width or typographic forms, then they read as their ASCII forms', () => {
    expect(parseSearchQuery('forest －（pine oak）')).to.deep.equal({ groups: [[word('forest')]], excluded: [word('pine'), word('oak')] });
    expect(parseSearchQuery('＂alpine lake＂').groups).to.deep.equal([[phrase('alpine lake')]]);
    expect(parseSearchQuery('“alpine lake” «misty fjord»').groups).to.deep.equal([[phrase('alpine lake')], [phrase('misty fjord')]]);
    expect(parseSearchQuery('forest −pine')).to.deep.equal({ groups: [[word('forest')]], excluded: [word('pine')] });
  });

  it('when OR or | joins terms, then they form one group of alternatives', () => {
    expect(parseSearchQuery('sunrise OR sunset beach').groups).to.deep.equal([[word('sunrise'), word('sunset')], [word('beach')]]);
    expect(parseSearchQuery('fox|wolf | "red panda"').groups).to.deep.equal([[word('fox'), word('wolf'), phrase('red panda')]]);
  });

  it('when OR leads, trails or repeats, then it is read as nothing', () => {
    expect(parseSearchQuery('OR fox OR OR wolf OR').groups).to.deep.equal([[word('fox'), word('wolf')]]);
    expect(parseSearchQuery('fox or wolf').groups, 'lower-case or is a word').to.deep.equal([[word('fox')], [word('or')], [word('wolf')]]);
  });

  it('when NOT comes before a word, a phrase or brackets, then they are excluded, as after a minus', () => {
    expect(parseSearchQuery('sunset NOT beach')).to.deep.equal({ groups: [[word('sunset')]], excluded: [word('beach')] });
    expect(parseSearchQuery('sunset NOT "low tide" NOT (sea sand) forest')).to.deep.equal({
      groups: [[word('sunset')], [word('forest')]],
      excluded: [phrase('low tide'), word('sea'), word('sand')],
    });
    expect(parseSearchQuery('sunset NOT').groups, 'a trailing NOT is nothing').to.deep.equal([[word('sunset')]]);
    expect(parseSearchQuery('NOT beach sunset').groups, 'only the next term').to.deep.equal([[word('sunset')]]);
    expect(parseSearchQuery('sunset not beach'), 'lower-case not too').to.deep.equal({ groups: [[word('sunset')]], excluded: [word('beach')] });
    expect(parseSearchQuery('CITY THAT DOES NOT SLEEP'), 'all in capitals, a title pasted: NOT is the word').to.deep.equal({
      groups: ['CITY', 'THAT', 'DOES', 'NOT', 'SLEEP'].map((text) => [word(text)]),
      excluded: [],
    });
  });

  it('when an exclusion is written in words (without), then the word after it is excluded, as after NOT; a common word between is passed over', () => {
    expect(parseSearchQuery('mountains without snow')).to.deep.equal({ groups: [[word('mountains')]], excluded: [word('snow')] });
    expect(parseSearchQuery('sky without a cloud')).to.deep.equal({ groups: [[word('sky')]], excluded: [word('cloud')] });
    expect(parseSearchQuery('forest NOT the pine'), 'after NOT too').to.deep.equal({ groups: [[word('forest')]], excluded: [word('pine')] });
    expect(parseSearchQuery('lake without (pine oak)').excluded).to.deep.equal([word('pine'), word('oak')]);
    expect(parseSearchQuery('mountains without').groups, 'a trailing without is nothing').to.deep.equal([[word('mountains')]]);
    expect(parseSearchQuery('Journey Without Maps').groups, 'capitalised, a title pasted: the word').to.deep.equal([
      [word('Journey')],
      [word('Without')],
      [word('Maps')],
    ]);
    expect(parseSearchQuery('"without" snow').groups, 'quoted: the word').to.have.length(2);
  });

  it('when without starts a query, then it is a word; after it, or and and go on listing what to exclude, and a second operator adds nothing', () => {
    expect(parseSearchQuery('without snow'), 'nothing before it to exclude from').to.deep.equal({
      groups: [[word('without')], [word('snow')]],
      excluded: [],
    });
    expect(
      parseSearchQuery('with or without you')
        .groups.flat()
        .map(({ text }) => text),
    ).to.include('without');
    expect(parseSearchQuery('beach without people or boats')).to.deep.equal({ groups: [[word('beach')]], excluded: [word('people'), word('boats')] });
    expect(parseSearchQuery('cats without dogs OR wolves')).to.deep.equal({ groups: [[word('cats')]], excluded: [word('dogs'), word('wolves')] });
    expect(parseSearchQuery('beach without people and boats').excluded).to.deep.equal([word('people'), word('boats')]);
    expect(parseSearchQuery('sunset without clouds sea'), 'a word after the list is looked for').to.deep.equal({
      groups: [[word('sunset')], [word('sea')]],
      excluded: [word('clouds')],
    });
    expect(parseSearchQuery('mountains without without snow')).to.deep.equal({ groups: [[word('mountains')]], excluded: [word('snow')] });
    expect(parseSearchQuery('forest without OR pine')).to.deep.equal({ groups: [[word('forest')]], excluded: [word('pine')] });
    expect(parseSearchQuery('forest NOT pine OR oak').groups, 'after NOT, OR binds as ever').to.deep.equal([[word('forest'), word('oak')]]);
  });

  it('when an exclusion is written with not after a thing, or with no after with, but or and, then the word after it is excluded, as after without', () => {
    expect(parseSearchQuery('cars not red')).to.deep.equal({ groups: [[word('cars')]], excluded: [word('red')] });
    expect(parseSearchQuery('city but not at night'), 'a but passed over before, a common word after').to.deep.equal({
      groups: [[word('city')], [word('but')]],
      excluded: [word('night')],
    });
    expect(parseSearchQuery('beach with no people')).to.deep.equal({ groups: [[word('beach')], [word('with')]], excluded: [word('people')] });
    expect(parseSearchQuery('beach with no people or boats').excluded, 'a list, as after without').to.deep.equal([word('people'), word('boats')]);
    expect(parseSearchQuery('sunset not "red car"').excluded, 'a phrase').to.deep.equal([{ text: 'red car', phrase: true }]);
  });

  it('when not negates a verb or a person, or no follows a word other than with, but or and, then the parse excludes nothing (helper-137)', () => {
    for (const q of [
      'we are not alone',
      'i can not sleep',
      'all who wander are not lost',
      'forget me not flowers',
      'touch me not plant',
      'i not pink',
      'say no more',
      'never give up no matter what',
      "ain't no mountain high enough",
      'spiderman no way home',
      'boku no hero academia',
      'yoru no tokyo',
      'space no planets',
      "i'm not a robot",
      'i’m not in love',
      "you're not alone",
      'youre not busy',
      'why not the tree',
      'maybe not car',
      'snow not too white',
      'flowers but not so pink',
    ]) {
      expect(parseSearchQuery(q).excluded, q).to.deep.equal([]);
    }
  });

  it('when no stands between two words without with, but or and, then the word after it is marked with the word before, for the words either side to read', () => {
    expect(marked('mountains no snow')).to.deep.equal([['mountains', 'snow']]);
    expect(marked('Space no Planets'), 'the word before in lower case').to.deep.equal([['space', 'Planets']]);
    expect(marked('mountains, no snow'), 'after a comma').to.deep.equal([['mountains', 'snow']]);
    expect(marked('beach no people or boats at sunset'), 'a list goes on with or and and').to.deep.equal([
      ['beach', 'people'],
      ['beach', 'boats'],
    ]);
    expect(marked('boku no hero academia')).to.deep.equal([['boku', 'hero']]);
    for (const q of [
      'no game no life',
      'No pain no gain',
      'Mountains No Snow',
      'mountains no "snow"',
      'mountains no snow-capped',
      '"red car" no roof',
      "ain't no mountain high enough",
      'mountains no',
      'mountains no 4k',
    ]) {
      expect(marked(q), q).to.deep.equal([]);
    }
    expect(readSearchText('mountains no snow').excluded, 'the parse excludes nothing').to.deep.equal([]);
  });

  it('when no follows an excluded word, a +, a symbol or a no, then the word after it is marked with the last word looked for (helper-143)', () => {
    expect(marked('forest -pine no fog')).to.deep.equal([['forest', 'fog']]);
    expect(marked('mountains without snow no trees')).to.deep.equal([['mountains', 'trees']]);
    expect(marked('city NOT night no cars')).to.deep.equal([['city', 'cars']]);
    expect(marked('mountains+no+snow'), 'a + is a space').to.deep.equal([['mountains', 'snow']]);
    expect(marked('mountains no no snow')).to.deep.equal([['mountains', 'snow']]);
    expect(marked('mountains no 🏔 snow')).to.deep.equal([['mountains', 'snow']]);
    expect(marked('"no limits" city no cars'), 'a no at the start says nothing of the rest').to.deep.equal([['city', 'cars']]);
    expect(marked("No Man's Sky planets no ships")).to.deep.equal([['planets', 'ships']]);
    expect(marked('mountains no snow.'), 'a full stop at the end').to.deep.equal([['mountains', 'snow']]);
    expect(marked('4k no people'), 'filler of digits before it').to.deep.equal([['4k', 'people']]);
    expect(marked('walpaper no night'), 'misspelt filler').to.deep.equal([['walpaper', 'night']]);
    expect(marked('iphone 15 pro no text'), "a device's model stands for the device").to.deep.equal([['iphone', 'text']]);
    expect(marked('galaxy s23 no night')).to.deep.equal([['galaxy', 'night']]);
    expect(marked('"no" mountains no snow'), 'a quoted no makes no saying').to.deep.equal([['mountains', 'snow']]);
    expect(marked('mountains no snow no trees'), 'a list of no, no saying').to.deep.equal([
      ['mountains', 'snow'],
      ['snow', 'trees'],
    ]);
  });

  it('when no makes a sign, a saying or a phrase, or an OR parts it from the word after, then nothing is marked (helper-143)', () => {
    for (const q of [
      'road no entry sign',
      'street no parking sign',
      'dead end no exit',
      'motivation no pain no gain',
      'gym no pain no gain',
      'love no limits',
      'band no doubt',
      'mountains no | snow',
      'no justice no peace',
      'no coffee no life wallpaper',
      'spider man no way home',
      'phone no signal',
      'mountains no OR snow',
    ]) {
      expect(marked(q), q).to.deep.equal([]);
    }
  });

  it('when not or no starts or ends a query, or is capitalised, then it is a word', () => {
    expect(parseSearchQuery('no limits'), 'nothing before it to exclude from').to.deep.equal({
      groups: [[word('no')], [word('limits')]],
      excluded: [],
    });
    expect(parseSearchQuery('forget me not').excluded, 'a trailing one excludes nothing').to.deep.equal([]);
    expect(parseSearchQuery("No Man's Land").excluded, 'a title pasted').to.deep.equal([]);
    expect(parseSearchQuery('Cars Not Red').excluded).to.deep.equal([]);
    expect(parseSearchQuery('cars "not" red').excluded, 'quoted').to.deep.equal([]);
  });

  it('when words are joined by a +, as an address writes its spaces, then they are words of their own', () => {
    expect(parseSearchQuery('sunset+beach').groups).to.deep.equal([[word('sunset')], [word('beach')]]);
    expect(parseSearchQuery('misty+forest -pine+oak')).to.deep.equal({
      groups: [[word('misty')], [word('forest')], [word('oak')]],
      excluded: [word('pine')],
    });
  });

  it('when characters that show nothing sit in words, then they are not counted against the limit on words', () => {
    expect(countWords(Array.from({ length: 20 }, () => 'sun\u00adset').join(' '))).to.equal(20);
    expect(countWords('\u3164')).to.equal(0);
  });

  it('when a word holds characters that show nothing (a soft hyphen, a zero-width space), then it is the word they sit in', () => {
    for (const q of ['sun\u200bset', 'sun\u00adset', '\ufeffsunset', 'sun\u2060set'])
      expect(parseSearchQuery(q).groups, JSON.stringify(q)).to.deep.equal([[word('sunset')]]);
  });

  it('when words are apart by any Unicode white space (a NEXT LINE from older text too), then each is a word of its own', () => {
    for (const space of ['\t', '\n', '\r\n', '\u000b', '\u000c', '\u0085', '\u00a0', '\u2028', '\u3000'])
      expect(parseSearchQuery(`sunset${space}beach`).groups, JSON.stringify(space)).to.deep.equal([[word('sunset')], [word('beach')]]);
  });

  it('when only common words, exclusions or operators remain, then nothing is searchable', () => {
    for (const q of ['the', 'the OR a', '-pine', '"', '-', 'OR', 'NOT', 'NOT sunset', '| |', '!!!', 'at the "of a"', '\u200b']) {
      expect(readSearchText(q).groups, q).to.deep.equal([]);
    }
    expect(readSearchText('lighthouses at night').groups).to.deep.equal([[word('lighthouses')], [word('night')]]);
  });

  it('when any text at all is parsed, then it never throws and every term has words', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (q) => {
        const parsed = parseSearchQuery(q);
        for (const term of [...parsed.groups.flat(), ...parsed.excluded]) expect(term.text).to.match(/^[\p{L}\p{N}]+( [\p{L}\p{N}]+)*$/u);
      }),
      { numRuns: 2000 },
    );
  });

  it('when a word is the name of what every object has (constructor, __proto__, toString), then it is read as any word, beside a device or filler too', () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const around = ['dunes', 'iphone', 'iphone 15', 'wallpaper', 'hd', 'samsung galaxy', 'sunset-1920x1080'];
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.constantFrom(...around),
        fc.boolean(),
        fc.constantFrom(' ', '-', '_'),
        (name, other, first, joiner) => {
          const q = first ? `${name}${joiner}${other}` : `${other}${joiner}${name}`;
          expect(() => readSearchText(q), q).not.to.throw();
        },
      ),
      { numRuns: 500 },
    );
    expect(readSearchText('constructor dunes').groups).to.deep.equal([[word('constructor')], [word('dunes')]]);
  });
});
