import { expect } from 'chai';
import { readSearchText } from '../../../src/wallpapers/search-query.js';
import { shapeAsked, withPairsSaid } from '../../../src/wallpapers/query-filler.js';
import { RATIOS } from '../../../src/wallpapers/aspect-ratio.js';

const words = (q: string) => readSearchText(q).groups.map((group) => group.map(({ text, phrase }) => (phrase ? `"${text}"` : text)));

describe('filler in what people type', () => {
  it('when a query wraps what it wants in filler, then only the wanted words are looked for', () => {
    expect(words('sunrise over the ocean')).to.deep.equal([['sunrise'], ['ocean']]);
    expect(words('show me pictures of a dog in the snow')).to.deep.equal([['dog'], ['snow']]);
    expect(words('HD wallpaper with a red car')).to.deep.equal([['red'], ['car']]);
    expect(words('cabin near a lake OR behind hills')).to.deep.equal([['cabin'], ['lake'], ['hills']]);
    expect(words('can you find me a castle')).to.deep.equal([['castle']]);
  });

  it('when a query names the device or size it is for, then that is left to the filters', () => {
    expect(words('iphone 1440p sunset')).to.deep.equal([['sunset']]);
    expect(words('android 2k beach wallpaper')).to.deep.equal([['beach']]);
  });

  it('when filler stands in quotes or inside a word of its own, then it is kept', () => {
    expect(words('"moon over the earth"')).to.deep.equal([['"moon over the earth"']]);
    expect(words('"over" moon')).to.deep.equal([['over'], ['moon']]);
    expect(words('overpass underwater')).to.deep.equal([['overpass'], ['underwater']]);
  });

  it('when a query is nothing but filler, then it is searched as typed, and common words alone still leave nothing', () => {
    expect(words('over')).to.deep.equal([['over']]);
    expect(words('dark background')).to.deep.equal([['dark']]);
    expect(words('background')).to.deep.equal([['background']]);
    expect(words('wallpapers of the sky')).to.deep.equal([['sky']]);
    expect(readSearchText('the of a')).to.deep.equal({ groups: [], excluded: [] });
  });

  it('when a query of filler asks for wallpapers, then its words asking for them are what it looks for', () => {
    expect(words('show me 4k wallpapers')).to.deep.equal([['4k'], ['wallpapers']]);
    expect(words('can you find me iphone-wallpapers over OR near')).to.deep.equal([['iphone wallpapers']]);
    expect(words('show me')).to.deep.equal([['show'], ['me']]);
  });

  it('when a query of filler asks for wallpapers, then it says so, unless the word is quoted or other words are left', () => {
    for (const q of ['wallpaper', 'Wallpapers', '4k', 'hd wallpaper', 'iphone wallpaper', 'show me 4k wallpapers please']) {
      expect(readSearchText(q).wallpapersAsked, q).to.equal(true);
    }
    for (const q of ['over', 'show me', '"wallpaper"', 'wallpapers of the sky']) expect(readSearchText(q).wallpapersAsked, q).to.equal(undefined);
  });

  it('when a word praises the picture rather than naming it, then it asks nothing beside a subject and asks for wallpapers alone', () => {
    expect(words('beautiful sunset')).to.deep.equal([['sunset']]);
    expect(words('pretty pink flowers')).to.deep.equal([['pink'], ['flowers']]);
    expect(words('amazing-landscapes-wallpaper')).to.deep.equal([['landscapes']]);
    expect(words('nice-sunset'), 'joined, as an address').to.deep.equal([['sunset']]);
    expect(words('beautifull mountains'), 'a long praise one letter off').to.deep.equal([['mountains']]);
    expect(words('really nice sunset today'), 'how much and when, with praise').to.deep.equal([['sunset']]);
    for (const q of ['beautiful', 'beautiful wallpapers', 'popular', 'Gorgeous HD backgrounds', 'most beautiful', 'trending now']) {
      expect(readSearchText(q).wallpapersAsked, q).to.equal(true);
    }
    for (const q of ['"beautiful"', 'cool', 'cute', 'epic', 'aesthetic']) expect(readSearchText(q).wallpapersAsked, q).to.equal(undefined);
    expect(words('good-looking cat'), 'a compound of praise and filler is filler').to.deep.equal([['cat']]);
    expect(words('aesthetic sunset'), 'a look, not praise').to.deep.equal([['aesthetic'], ['sunset']]);
    expect(words('great britain'), 'the first word of a name').to.deep.equal([['great'], ['britain']]);
  });

  it('when words joined by punctuation are all filler, common words aside, then the term is filler, all of its words together', () => {
    expect(words('hd-wallpaper of a red_car')).to.deep.equal([['red car']]);
    expect(words('iphone/wallpaper sunset')).to.deep.equal([['sunset']]);
    expect(words('wallpaper_hd')).to.deep.equal([['wallpaper hd']]);
    expect(words('4k-monitor')).to.deep.equal([['4k monitor']]);
    expect(words('the-wallpaper')).to.deep.equal([['wallpaper']]);
    expect(words('sunset the-wallpaper')).to.deep.equal([['sunset']]);
    expect(words('a-hd-wallpaper OR hd.wallpaper')).to.deep.equal([['hd wallpaper']]);
    for (const q of ['4k-wallpaper', 'the-wallpaper', 'of-the-4k-wallpapers']) expect(readSearchText(q).wallpapersAsked, q).to.equal(true);
  });

  it("when a joined term holds a word of a page's address or a size, then it is read as its words typed apart, filler and common words dropped", () => {
    expect(words('mountain-lake-wallpaper-4k')).to.deep.equal([['mountain'], ['lake']]);
    expect(words('HD_Sunset_Beach_Backgrounds')).to.deep.equal([['Sunset'], ['Beach']]);
    expect(words('best-sunset-wallpapers-for-iphone')).to.deep.equal([['sunset']]);
    expect(words('beach wallpaper-the')).to.deep.equal([['beach']]);
    expect(words('mountain-walpaper')).to.deep.equal([['mountain']]);
    expect(words('red-wallpaper-car sunset-wallpaper-download')).to.deep.equal([['red'], ['car'], ['sunset']]);
    expect(words('moon-over-earth-hd')).to.deep.equal([['moon'], ['earth']]);
    expect(words('cute-kitty-wallpaper')).to.deep.equal([['cute'], ['kitty']]);
    expect(words('sunset_1920x1080')).to.deep.equal([['sunset'], ['1920x1080']]);
    expect(words('snow-capped-peaks-1920x1080.png')).to.deep.equal([['snow'], ['capped'], ['peaks'], ['1920x1080']]);
  });

  it("when a page's address is one of alternatives, then it stays one term without its address words, filler shed at its ends only", () => {
    expect(words('red-wallpaper-car OR bike')).to.deep.equal([['red car', 'bike']]);
    expect(words('moon-over-earth-hd | sun')).to.deep.equal([['moon over earth', 'sun']]);
    expect(words('sunset-1920x1080 OR beach')).to.deep.equal([['sunset 1920x1080', 'beach']]);
  });

  it('when a joined term holds no word of a page address, then it is as typed', () => {
    expect(words('photo-realistic free-range best-seller')).to.deep.equal([['photo realistic'], ['free range'], ['best seller']]);
    expect(words('lock-screen up-the-river')).to.deep.equal([['lock screen'], ['up the river']]);
  });

  it('when filler is written as two words side by side, then it is read as the one word, and not across other words', () => {
    expect(words('brick wall paper texture')).to.deep.equal([['brick'], ['texture']]);
    expect(words('WALL PAPER')).to.deep.equal([['wallpaper']]);
    expect(words('wall-paper OR sunset')).to.deep.equal([['sunset']]);
    expect(words('wall paper OR sunset')).to.deep.equal([['sunset']]);
    expect(words('sunset OR wall paper')).to.deep.equal([['sunset']]);
    expect(words('wall of paper')).to.deep.equal([['wall'], ['paper']]);
    for (const q of ['wall,paper', 'wall (paper)', 'wall - paper', 'wall OR paper']) expect(words(q), q).not.to.deep.equal([['wallpaper']]);
    expect(words('back on the ground')).to.deep.equal([['back'], ['ground']]);
    expect(words('stone-wall-paper-lantern')).to.deep.equal([['stone wall paper lantern']]);
    expect(words('stone-wall-paper-lantern-hd')).to.deep.equal([['stone'], ['wall'], ['paper'], ['lantern']]);
    expect(words('lock screen')).to.deep.equal([['lock']]);
    expect(readSearchText('wall paper').wallpapersAsked).to.equal(true);
  });

  it('when two words ask for a sharp picture, then they are read as hd, wherever they stand, and "high" alone is a word', () => {
    for (const q of [
      'sunset wallpaper high resolution',
      'high quality sunset',
      'sunset hi res',
      'sunset Full HD',
      'sunset high-definition',
      'ultra hd sunset',
    ]) {
      expect(words(q), q).to.deep.equal([['sunset']]);
    }
    for (const q of ['sunset-wallpaper-high-resolution', 'sunset_full_hd', 'high-res-sunset']) expect(words(q), q).to.deep.equal([['sunset']]);
    expect(words('high resolution')).to.deep.equal([['hd']]);
    expect(words('ultra-hd')).to.deep.equal([['4k']]);
    for (const q of ['ultra high definition sunset', 'sunset ultra high resolution', 'ultra-high-definition-sunset', 'sunset_ultra_hd']) {
      expect(words(q), q).to.deep.equal([['sunset']]);
    }
    expect(words('ultra high definition')).to.deep.equal([['4k']]);
    expect(words('uhd')).to.deep.equal([['4k']]);
    expect(readSearchText('high quality wallpapers').wallpapersAsked).to.equal(true);
    expect(words('high tide')).to.deep.equal([['high'], ['tide']]);
    expect(words('high, resolution')).to.deep.equal([['high'], ['resolution']]);
    expect(words('"high resolution" sunset')).to.deep.equal([['"high resolution"'], ['sunset']]);
    expect(readSearchText('high -resolution').excluded.map(({ text }) => text)).to.deep.equal(['resolution']);
  });

  it("when a query is a file's name or a download page's address, then its file type and the download are filler", () => {
    expect(words('sunset.jpg')).to.deep.equal([['sunset']]);
    expect(words('Sunset_Beach.JPEG')).to.deep.equal([['Sunset'], ['Beach']]);
    expect(words('sunset-wallpaper-free-download')).to.deep.equal([['sunset']]);
    expect(words('sunset wallpaper png download')).to.deep.equal([['sunset']]);
    expect(words('sunset px')).to.deep.equal([['sunset']]);
    expect(readSearchText('free download').wallpapersAsked).to.equal(true);
  });

  it("when a device is named with its model, then the model goes with it, and Samsung's line named with its model is Samsung", () => {
    expect(words('iphone 15 pro max sunset')).to.deep.equal([['sunset']]);
    expect(words('sunset iphone 13')).to.deep.equal([['sunset']]);
    expect(words('macbook air mountains')).to.deep.equal([['mountains']]);
    expect(words('macbook pro 16 inch forest')).to.deep.equal([['forest']]);
    expect(words('iphone 6s sunset')).to.deep.equal([['sunset']]);
    expect(readSearchText('samsung galaxy s24 ultra wallpaper')).to.deep.include({ wallpapersAsked: true });
    expect(words('samsung galaxy s24 ultra wallpaper')).to.deep.equal([['samsung'], ['wallpaper']]);
    expect(words('galaxy s24')).to.deep.equal([['samsung']]);
    expect(readSearchText('galaxy s24 -phone').excluded.map(({ text }) => text)).to.deep.equal(['phone']);
    expect(readSearchText('iphone-15-pro-max-wallpaper').wallpapersAsked).to.equal(true);
    expect(words('sunset-iphone-15-pro-wallpaper')).to.deep.equal([['sunset']]);
    for (const q of ['samsung galaxy tab s9', 'samsung galaxy z fold 5', 'samsung galaxy note 20 ultra'])
      expect(words(`${q} sunset`), q).to.deep.equal([['sunset']]);
    for (const q of ['macbook air m2', 'ipad pro 12.9', 'macbook pro 16-inch', 'redmi note 12'])
      expect(words(`${q} sunset`), q).to.deep.equal([['sunset']]);
    for (const q of ['galaxy z fold 5', 'galaxy note 20']) expect(words(q), q).to.deep.equal([['samsung']]);
    for (const q of [
      'vivo x100 pro',
      'oppo reno 10',
      'oppo find x6',
      'nokia lumia',
      'infinix hot 40',
      'tecno spark 20',
      'oneplus nord',
      'motorola razr',
    ])
      expect(words(`${q} sunset`), q).to.deep.equal([['sunset']]);
    expect(words('hot sunset'), 'a line is read after its maker only').to.deep.equal([['hot'], ['sunset']]);
    expect(words('samsung hot chocolate'), "and its own maker's").to.deep.equal([['hot'], ['chocolate']]);
    expect(words('galaxy tab s9'), "Samsung's tablet").to.deep.equal([['samsung'], ['tablet']]);
  });

  it('when model words or numbers follow no device, or name the picture, then they are words', () => {
    expect(words('galaxy')).to.deep.equal([['galaxy']]);
    expect(words('galaxy 4k wallpaper')).to.deep.equal([['galaxy']]);
    for (const q of ['iphone galaxy', 'iphone galaxy 4k', 'ipad galaxy wallpaper']) expect(words(q), q).to.deep.equal([['galaxy']]);
    expect(words('galaxy 3d')).to.deep.equal([['galaxy'], ['3d']]);
    expect(words('galaxy note')).to.deep.equal([['galaxy'], ['note']]);
    expect(words('andromeda galaxy m31')).to.deep.equal([['andromeda'], ['galaxy'], ['m31']]);
    expect(words('pixel art')).to.deep.equal([['pixel'], ['art']]);
    expect(words('pixel 8 bit')).to.deep.equal([['pixel'], ['8'], ['bit']]);
    expect(words('iphone pixel art')).to.deep.equal([['pixel'], ['art']]);
    expect(words('iphone 80s')).to.deep.equal([['80s']]);
    expect(words('iphone 3d wallpaper')).to.deep.equal([['3d']]);
    expect(words('xbox controller')).to.deep.equal([['xbox'], ['controller']]);
    const kept: Record<string, string[]> = {
      'ipad edge of the world': ['edge', 'world'],
      'iphone flip flops': ['flip', 'flops'],
      'iphone z fighters': ['z', 'fighters'],
      'iphone f1 car': ['f1', 'car'],
      'iphone m3 bmw': ['m3', 'bmw'],
      'ipad a4 paper': ['a4', 'paper'],
      'galaxy note': ['galaxy', 'note'],
    };
    for (const [q, left] of Object.entries(kept)) expect(words(q), q).to.deep.equal(left.map((word) => [word]));
    expect(words('hot air balloon')).to.deep.equal([['hot'], ['air'], ['balloon']]);
    expect(words('iphone, 15')).to.deep.equal([['15']]);
    expect(words('iphone sunset 15')).to.deep.equal([['sunset'], ['15']]);
    expect(words('"iphone 15"')).to.deep.equal([['"iphone 15"']]);
  });

  it('when a long filler word is one letter off, then it is read as the word meant', () => {
    for (const typed of ['walpaper', 'wallpapper', 'wallpaoer', 'wallpaepr', 'Wallpapr', 'wallpapres', 'backgorund', 'lockscren']) {
      expect(words(`sunset ${typed}`), typed).to.deep.equal([['sunset']]);
    }
    expect(words('walpaper')).to.deep.equal([['wallpaper']]);
    expect(words('walpaper wallpapper')).to.deep.equal([['wallpaper'], ['wallpaper']]);
    expect(words('wallpapered room')).to.deep.equal([['wallpapered'], ['room']]);
    expect(words('walpapr')).to.deep.equal([['walpapr']]);
  });

  it('when the words are quoted, then none of this applies', () => {
    expect(words('"wall paper" "walpaper" dog')).to.deep.equal([['"wall paper"'], ['walpaper'], ['dog']]);
    expect(words('"hd-wallpaper"')).to.deep.equal([['"hd wallpaper"']]);
  });

  it("when a page's address is excluded, then its address words are not, and one of address words alone stays as typed", () => {
    const excluded = (q: string) => readSearchText(q).excluded.map(({ text }) => text);
    expect(excluded('forest -pine-wallpaper')).to.deep.equal(['pine']);
    expect(excluded('forest -(red-car-wallpaper-hd)')).to.deep.equal(['red car']);
    expect(excluded('forest -sunset-1920x1080')).to.deep.equal(['sunset 1920x1080']);
    expect(excluded('forest -hd-wallpaper')).to.deep.equal(['hd wallpaper']);
  });

  it('when filler is excluded, then the exclusion stands', () => {
    expect(readSearchText('forest -over').excluded.map(({ text }) => text)).to.deep.equal(['over']);
    for (const q of ['festival -(wall paper)', 'festival -wall -paper', 'wall -paper festival']) {
      expect(
        readSearchText(q).excluded.map(({ text }) => text),
        q,
      ).to.include('paper');
    }
  });
});

describe('the shape a query asks for', () => {
  it('when its words name a phone or a screen, or a sharpness, then that shape is asked; the sharpest of several', () => {
    expect(shapeAsked(['iphone', 'wallpaper'])).to.deep.equal({ orientation: 'portrait' });
    expect(shapeAsked(['vertical'])).to.deep.equal({ orientation: 'portrait' });
    expect(shapeAsked(['desktop', '4k', '1080p'])).to.deep.equal({ orientation: 'landscape', atLeast: { short: 2160, long: 3840 } });
    expect(shapeAsked(['8k'])).to.deep.equal({ atLeast: { short: 4320, long: 7680 } });
  });

  it('when its words name a tablet or a screen wider than most, then the ratios of that screen are asked', () => {
    expect(shapeAsked(['ipad'])).to.deep.equal({ ratios: ['3x4', '4x3', '2x3', '3x2', '10x16'] });
    expect(shapeAsked(['ultrawide', 'space'])).to.deep.equal({ orientation: 'landscape', ratios: ['21x9', '32x9'] });
    expect(shapeAsked(['dualscreen', 'ultrawide'])).to.deep.equal({ orientation: 'landscape', ratios: ['32x9', '21x9'] });
    expect(shapeAsked(['tablet', '4k'])).to.deep.equal({ atLeast: { short: 2160, long: 3840 }, ratios: ['3x4', '4x3', '2x3', '3x2', '10x16'] });
    for (const word of ['ipad', 'tablet', 'ultrawide', 'dualscreen', 'dualmonitor']) {
      expect(RATIOS, word).to.include.members([...shapeAsked([word])!.ratios!]);
    }
  });

  it('when a ratio of the catalogue is named, then that ratio is asked, the word filler', () => {
    expect(readSearchText('21:9 mountains').shape).to.deep.equal({ ratios: ['21x9'] });
    expect(words('21:9 mountains')).to.deep.equal([['mountains']]);
    expect(readSearchText('9:16 wallpaper').shape).to.deep.equal({ ratios: ['9x16'] });
    expect(readSearchText('sunset_16x9.jpg').shape).to.deep.equal({ ratios: ['16x9'] });
    expect(readSearchText('2 x 4').shape).to.equal(undefined);
  });

  it('when a tablet is named with a phone system or maker, then it is the tablet, held either way', () => {
    const tablet = { ratios: ['3x4', '4x3', '2x3', '3x2', '10x16'] };
    for (const q of ['android tablet', 'samsung galaxy tab s9 wallpaper', 'galaxy tab s8 sunset', 'samsung tab', 'iphone ipad']) {
      expect(readSearchText(q).shape, q).to.deep.equal(tablet);
    }
    expect(readSearchText('samsung galaxy s24').shape, 'the phone').to.deep.equal({ orientation: 'portrait' });
    expect(readSearchText('tab key').shape, 'no device before it').to.equal(undefined);
  });

  it("when Microsoft's Surface is named with its line, or Amazon's Kindle with its model, then it is that tablet or laptop, filler like it", () => {
    const tablet = { ratios: ['3x4', '4x3', '2x3', '3x2', '10x16'] };
    for (const q of ['surface pro', 'surface pro 9 wallpaper', 'surface go 3', 'kindle', 'kindle paperwhite wallpaper', 'kindle fire hd 10']) {
      expect(readSearchText(q).shape, q).to.deep.equal(tablet);
    }
    expect(words('forest surface pro 9')).to.deep.equal([['forest']]);
    expect(words('kindle fire hd 10 forest'), 'the Fire is the tablet, not fire').to.deep.equal([['forest']]);
    expect(readSearchText('surface laptop 5 sunset').shape).to.deep.equal({ orientation: 'landscape' });
    expect(words('laptop 15 inch sunset'), "a laptop's size").to.deep.equal([['sunset']]);
    for (const q of ['laptop 8 bit', 'iphone 8 bit', 'kindle 16 bits'])
      expect(words(q).flat(), q).to.include.members([q.split(' ')[1]!, q.split(' ')[2]!]);
    for (const q of ['moon surface', 'water surface', 'surface', 'fire']) expect(readSearchText(q).shape, q).to.equal(undefined);
    expect(words('moon surface')).to.deep.equal([['moon'], ['surface']]);
  });

  it('when a phone maker, a television or Windows with its version is named, then that shape is asked, the words filler; "windows" alone is a word', () => {
    for (const q of ['oppo wallpaper', 'vivo', 'realme 11 pro', 'motorola edge sunset', 'nokia 1080x2400', 'poco f5', 'tecno', 'infinix']) {
      expect(readSearchText(q).shape, q).to.deep.equal({ orientation: 'portrait' });
    }
    for (const q of ['tv wallpaper', 'smart tv', 'television', 'windows 11 wallpaper', 'windows xp', 'sunset windows 10']) {
      expect(readSearchText(q).shape, q).to.deep.equal({ orientation: 'landscape' });
    }
    expect(words('motorola edge sunset')).to.deep.equal([['sunset']]);
    expect(words('1920x1080 windows 11')).to.deep.equal([['1920x1080']]);
    expect(words('windows 10 pro sunset'), 'its edition').to.deep.equal([['sunset']]);
    expect(readSearchText('windows 11 home').shape).to.deep.equal({ orientation: 'landscape' });
    expect(words('bedroom windows'), "the picture's windows").to.deep.equal([['bedroom'], ['windows']]);
    expect(readSearchText('windows').shape).to.equal(undefined);
    expect(words('windows 8 bit'), 'a number before bit is a style').to.deep.equal([['windows'], ['8'], ['bit']]);
    expect(readSearchText('windows 8 bits').shape).to.equal(undefined);
    expect(readSearchText('movie projector').shape, 'a thing pictured').to.equal(undefined);
  });

  it('when two words name a screen, wherever they stand, then they are read as its one word', () => {
    expect(withPairsSaid(['space', 'dual', 'monitor', 'wallpaper'])).to.deep.equal(['space', 'dualscreen', 'wallpaper']);
    expect(withPairsSaid(['super', 'ultra', 'wide'])).to.deep.equal(['dualscreen']);
    expect(withPairsSaid(['ultra', 'wide', 'city'])).to.deep.equal(['ultrawide', 'city']);
    expect(withPairsSaid(['dual', 'lake'])).to.deep.equal(['dual', 'lake']);
    expect(withPairsSaid(['sunset', 'wide', 'screen'])).to.deep.equal(['sunset', 'widescreen']);
    expect(words('1920x1080 full screen')).to.deep.equal([['1920x1080']]);
    expect(words('full moon')).to.deep.equal([['full'], ['moon']]);
    expect(readSearchText('dual-monitor-wallpaper').shape).to.deep.equal({ orientation: 'landscape', ratios: ['32x9'] });
    expect(readSearchText('multiple screens sunset').shape).to.deep.equal({ orientation: 'landscape', ratios: ['32x9'] });
    expect(readSearchText('ultra wide').shape).to.deep.equal({ orientation: 'landscape', ratios: ['21x9', '32x9'] });
    expect(readSearchText('"dual monitor"').shape, 'a phrase means its words').to.equal(undefined);
  });

  it('when a screen is named beside a subject, then only the subject is looked for', () => {
    expect(words('sunset dual monitor')).to.deep.equal([['sunset']]);
    expect(words('space wallpaper for dual screens')).to.deep.equal([['space']]);
    expect(words('ipad mountains')).to.deep.equal([['mountains']]);
  });

  it('when its words name both shapes or none, then no orientation is asked', () => {
    expect(shapeAsked(['phone', 'desktop'])).to.equal(undefined);
    expect(shapeAsked(['landscape', 'mountain'])).to.equal(undefined);
  });

  it('when the words are in quotes or a phrase, then they ask for no shape', () => {
    expect(readSearchText('"phone" booth').shape).to.equal(undefined);
    expect(readSearchText('old "phone booth"').shape).to.equal(undefined);
    expect(readSearchText('ultra hd sunset').shape).to.deep.equal({ atLeast: { short: 2160, long: 3840 } });
  });
});
