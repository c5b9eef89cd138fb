import { RATIOS } from './aspect-ratio.js';
import { sizeOfWord } from './resolution.js';
import { STOP_WORDS } from './stop-words.js';

/**
 * Words people put around what they look for, which say nothing about the picture: the request
 * itself ("show me pictures of", "wallpaper", "hd"), and the small words that place one thing
 * against another ("over", "near", "behind"). Left in, they matched titles that share them ("Moon
 * over the Earth" for "sunrise over the ocean") and made "every word matched" impossible.
 *
 * They are dropped from a query outside quotes, and only while something else is left to look for:
 * "over" alone, or "background", is searched as typed; "moon over the earth" in quotes keeps its
 * "over". The index keeps them, so phrases do. They are read as people write them: one letter off
 * in a long word ("walpaper"), as two words ("wall paper", search-query.ts), or joined by other
 * punctuation into one term ("snow-capped", search-query.ts). Such a term is filler when each of
 * its words is, common words aside ("hd-wallpaper", "the-wallpaper"); one that holds a word of a
 * page's address or a size ("sunset-beach-wallpaper-hd", "sunset_1920x1080.jpg") is read as its
 * words typed apart; one without is as typed ("photo-realistic", "free-range").
 * Lucene's stop words ("the", "of") are not here: the analyzer drops those on both sides.
 */
const ASKING = ['show', 'me', 'find', 'get', 'give', 'want', 'need', 'looking', 'look', 'search', 'please', 'some', 'any', 'i', 'my', 'you', 'can', 'could', 'would']; // prettier-ignore

/**
 * Words that praise a picture rather than say what it shows ("beautiful", "amazing", "popular"). A
 * catalogue of wallpapers holds pictures chosen to be looked at, so every one of them answers the
 * praise: beside a subject the word asks nothing more ("beautiful sunset" is sunset), and alone it
 * asks for wallpapers, the most downloaded first, as "best" and "wallpaper" do. Typed as words to
 * look for, they found nothing ("beautiful", "amazing": no picture is described so) or what
 * happened to share the word ("nice" the sweets, by meaning; helper-120). Not "aesthetic", which
 * on wallpaper sites names a look (pastel, lo-fi, synthwave: thesaurus/broader-words.json; read as
 * praise, it found every wallpaper where people mean those, helper-128); not "great", which starts
 * the names of things ("great britain", "great lakes", "great white shark" had lost their first
 * word, helper-128); not "cool", which descriptions use of colour ("in cool, neutral tones"); nor
 * "cute", which names what a picture shows (kittens, puppies), nor "epic", a word of the catalogue's.
 */
const PRAISE = [
  'beautiful', 'pretty', 'gorgeous', 'stunning', 'amazing', 'awesome', 'nice', 'lovely', 'good',
  'wonderful', 'fantastic', 'incredible', 'breathtaking', 'magnificent', 'popular', 'trending',
]; // prettier-ignore

/**
 * Words that say how much or when, put before praise ("most beautiful", "really nice", "so
 * pretty", "trending now"): filler like it. Left as words, the typo rule read "most" as mist and
 * "really" as rally (helper-128). Not "quite", more often typed for "quiet" ("quite meadow").
 */
const DEGREE = ['very', 'really', 'most', 'so', 'truly', 'absolutely', 'extremely', 'incredibly', 'totally', 'now', 'today'];

// Phone makers, each named with or without a model ("oppo a78", "realme 11 pro"). Left as words,
// none of the catalogue's, "oppo wallpaper" and "nokia 1080x2400" found nothing and "realme" the
// kingdoms of a typo (helper-169).
const PHONE_MAKERS = ['samsung', 'oneplus', 'xiaomi', 'redmi', 'huawei', 'oppo', 'vivo', 'motorola', 'poco', 'nokia', 'realme', 'tecno', 'infinix']; // prettier-ignore

// The catalogue's ratios as one word each ("21x9", typed "21:9" too: search-query.ts), but those
// whose name holds a point, which ends a word ("9x19.5").
const RATIO_WORDS = RATIOS.filter((ratio) => !ratio.includes('.'));

/** Whether a word names a ratio of the catalogue's ("21x9", "16x9"). */
export const namesRatio = (word: string): boolean => RATIO_WORDS.includes(word.toLowerCase());

/**
 * What a wallpaper app shows anyway, the device or size a wallpaper is for (the filters say that:
 * ratio, min_resolution), and the file it comes as: a pasted file name ("sunset_wallpaper.jpg") or
 * a page's address ("sunset-wallpaper-download") is made of these; and the praise (PRAISE). A
 * query of filler with one of these ("wallpaper", "hd wallpapers", "iphone wallpaper") asks for
 * wallpapers: those of the shape its words ask for (shapeAsked: "iphone", "4k"), or else those that
 * hold these of its words that occur in the catalogue ("hq"), or when none does, every wallpaper
 * rather than none (domain/with-wallpapers-asked.ts).
 */
export const WALLPAPER_WORDS: ReadonlySet<string> = new Set([
  ...PRAISE,
  'wallpaper', 'wallpapers', 'background', 'backgrounds', 'picture', 'pictures', 'pic', 'pics', 'image', 'images', 'photo', 'photos',
  'desktop', 'phone', 'mobile', 'screen', 'lockscreen', 'homescreen', 'hd', 'uhd', 'hq', '4k', '5k', '8k', 'free', 'best',
  'iphone', 'ipad', 'android', 'macbook', 'pc', 'laptop', 'tablet', 'monitor', '720p', '1080p', '1440p', '2160p', '2k',
  'download', 'downloads', 'jpg', 'jpeg', 'png', 'webp', 'px',
  ...PHONE_MAKERS, 'imac', 'chromebook', 'kindle', 'tv', 'television',
  'vertical', 'portrait', 'horizontal', 'widescreen', 'qhd', 'fhd', 'ultrawide', 'dualscreen', 'dualmonitor',
  ...RATIO_WORDS,
]); // prettier-ignore

/**
 * The shape and sharpness a query's words ask for: a phone is held upright, a desktop's screen is
 * wide, and "4k" is at least 3840 by 2160 either way round. A query with a subject ranks the
 * wallpapers of that shape first (store/build-queries.ts); one of filler alone ("iphone
 * wallpapers", "4k") is answered with those wallpapers only (domain/with-wallpapers-asked.ts).
 * "Landscape" is not here: it names a category.
 */
export interface ShapeAsked {
  orientation?: 'portrait' | 'landscape';
  /** The shorter and longer side at least. */
  atLeast?: { short: number; long: number };
  /** The nominal ratios of the screen its words name (aspect-ratio.ts), any of them. */
  ratios?: readonly string[];
}

const UPRIGHT = ['phone', 'mobile', 'iphone', 'android', 'lockscreen', 'homescreen', ...PHONE_MAKERS, 'vertical', 'portrait']; // prettier-ignore
const WIDE = ['desktop', 'pc', 'laptop', 'monitor', 'macbook', 'imac', 'chromebook', 'tv', 'television', 'horizontal', 'widescreen', 'ultrawide', 'dualscreen', 'dualmonitor']; // prettier-ignore
/**
 * Screens whose shape a ratio says better than an orientation. A tablet is 3:4 (iPad, a Kindle
 * reader), 2:3 (iPad Air, Surface) or 10:16 (Android, Amazon's Fire), held either way; 16:10 is
 * left out, as most desktops are so. An ultrawide monitor is 21:9, or 32:9 (super ultrawide), which is also two 16:9 screens side by
 * side: "dual monitor" had found nothing, and "ipad" every wallpaper in downloads order, as no
 * wallpaper says either (helper-160).
 */
const TABLETS = ['ipad', 'tablet', 'kindle'];
const TABLET_RATIOS = ['3x4', '4x3', '2x3', '3x2', '10x16'];
const SCREEN_RATIOS: ReadonlyMap<string, readonly string[]> = new Map([
  ...TABLETS.map((tablet) => [tablet, TABLET_RATIOS] as const),
  ['ultrawide', ['21x9', '32x9']], ['dualscreen', ['32x9']], ['dualmonitor', ['32x9']],
  // A ratio named asks for itself ("21:9 wallpaper", "16x9 sunset").
  ...RATIO_WORDS.map((ratio): [string, string[]] => [ratio, [ratio]]),
]); // prettier-ignore
const SHARPNESS: ReadonlyMap<string, { short: number; long: number }> = new Map([
  ['720p', { short: 720, long: 1280 }],
  ['1080p', { short: 1080, long: 1920 }], ['fhd', { short: 1080, long: 1920 }],
  ['2k', { short: 1440, long: 2560 }], ['1440p', { short: 1440, long: 2560 }], ['qhd', { short: 1440, long: 2560 }],
  ['4k', { short: 2160, long: 3840 }], ['uhd', { short: 2160, long: 3840 }], ['2160p', { short: 2160, long: 3840 }],
  ['5k', { short: 2880, long: 5120 }], ['8k', { short: 4320, long: 7680 }],
]); // prettier-ignore

/**
 * What the words of a query (lower-cased, as typed) ask of a wallpaper's shape; undefined for
 * nothing. Words for both shapes ask neither. A tablet named with a phone's system or maker
 * ("android tablet", "samsung galaxy tab") is the tablet, held either way.
 */
export function shapeAsked(words: readonly string[]): ShapeAsked | undefined {
  const tablet = words.some((word) => TABLETS.includes(word));
  const upright = !tablet && words.some((word) => UPRIGHT.includes(word));
  const wide = words.some((word) => WIDE.includes(word));
  const sharpest = words
    .map((word) => SHARPNESS.get(word))
    .filter((size) => size !== undefined)
    .sort((a, b) => b.long - a.long)[0];
  const orientation = upright === wide ? undefined : upright ? ('portrait' as const) : ('landscape' as const);
  const ratios = [...new Set(words.flatMap((word) => SCREEN_RATIOS.get(word) ?? []))];
  if (orientation === undefined && sharpest === undefined && ratios.length === 0) return undefined;
  return { ...(orientation ? { orientation } : {}), ...(sharpest ? { atLeast: sharpest } : {}), ...(ratios.length > 0 ? { ratios } : {}) };
}

/**
 * Words of WALLPAPER_WORDS about the offer, not the picture: the price, the praise, the download
 * and the file. Never looked for in the catalogue (domain/with-wallpapers-asked.ts): "free" occurs
 * only in "HUD-free view", and "hd wallpapers free download" found 90 game screenshots.
 */
export const OFFER_WORDS: ReadonlySet<string> = new Set([...PRAISE, 'free', 'best', 'download', 'downloads', 'jpg', 'jpeg', 'png', 'webp']);

const PLACING = [
  'over', 'under', 'up', 'down', 'above', 'below', 'beneath', 'near', 'from', 'across', 'through', 'behind', 'around', 'during', 'after', 'before',
  'beside', 'between', 'among', 'along', 'against', 'onto', 'upon', 'about', 'within', 'toward', 'towards', 'inside', 'outside', 'while',
]; // prettier-ignore

/** Asking, degree, wallpaper words, and the words that place one thing against another. */
export const FILLER_WORDS: ReadonlySet<string> = new Set([...ASKING, ...DEGREE, ...WALLPAPER_WORDS, ...PLACING]);

/** Words of WALLPAPER_WORDS that English compounds are made with: "photo-realistic", "free-range", "best-seller", "phone-booth". */
const IN_COMPOUNDS = ['free', 'best', 'photo', 'photos', 'picture', 'pictures', 'pic', 'pics', 'image', 'images', 'desktop', 'phone', 'mobile', 'screen', 'pc', 'laptop', 'tablet', 'monitor', 'android']; // prettier-ignore

/** The words that mark a joined term as a page's address ("mountain-lake-wallpaper-4k"): the wallpaper words no compound is made with. */
const ADDRESS_WORDS: ReadonlySet<string> = new Set([...WALLPAPER_WORDS].filter((word) => !IN_COMPOUNDS.includes(word)));

/**
 * Two words people write apart for one word of filler. Not "lock screen": descriptions say what a
 * wallpaper was made for ("Made for lock screens"), so those two words find something. Only where
 * the two words are all there is: inside a longer run of words they may be two words of their own
 * ("stone-wall-paper-lantern").
 */
const WRITTEN_APART: ReadonlyMap<string, string> = new Map([
  ['wall paper', 'wallpaper'], ['wall papers', 'wallpapers'], ['back ground', 'background'], ['back grounds', 'backgrounds'],
]); // prettier-ignore

/**
 * Two words that ask for a sharp picture, as "hd" does, side by side wherever they stand: left as
 * words, "sunset high resolution" ranked "Beach at High Tide" above every sunset, and no description
 * says "resolution" or "quality". A pair read so is read again with the word before it: "ultra high
 * definition" is "ultra hd", which is 4k, as "uhd" is and as the descriptions of sharp wallpapers
 * say. "Full HD" is a quality asked for here, not the size 1920x1080: a sharper wallpaper answers it
 * too.
 */
const SAYING_HD: ReadonlyMap<string, string> = new Map([
  ['high resolution', 'hd'], ['high res', 'hd'], ['hi res', 'hd'], ['high definition', 'hd'], ['full hd', 'hd'],
  ['high quality', 'hq'], ['ultra hd', '4k'], ['ultra hq', '4k'], ['uhd', '4k'],
]); // prettier-ignore

/**
 * Two words that name a screen of SCREEN_RATIOS, read as its one word wherever they stand, as
 * SAYING_HD's are. "super ultra wide" is read twice: "ultra wide" is ultrawide, and "super
 * ultrawide" is 32:9, as two screens are.
 */
const SAYING_SCREEN: ReadonlyMap<string, string> = new Map([
  ['ultra wide', 'ultrawide'], ['super ultrawide', 'dualscreen'], ['wide screen', 'widescreen'],
  // A wallpaper fills the screen: "1920x1080 full screen" had found what "full" says (helper-170).
  ['full screen', 'screen'],
  // Microsoft's Surface, only named with its line: "surface" alone is the picture's ("moon surface").
  ['surface pro', 'tablet'], ['surface go', 'tablet'], ['surface laptop', 'laptop'], ['surface book', 'laptop'],
  // Windows, only named with its version: "windows" alone is the picture's ("bedroom windows").
  // Left as words, "windows 11 wallpaper" found the 257 bedroom windows (helper-169).
  ...['7', '8', '10', '11', 'xp', 'vista'].map((version) => [`windows ${version}`, 'pc'] as const),
  // And its edition, read with it ("windows 10 pro" had found nothing, pro left as a word).
  ...['pro', 'professional', 'home', 'enterprise', 'education', 'ultimate'].map((edition) => [`pc ${edition}`, 'pc'] as const),
  ['smart tv', 'tv'],
  ...['dual', 'double', 'multi', 'multiple'].flatMap((many) =>
    ['monitor', 'monitors', 'screen', 'screens', 'display', 'displays'].map((screen) => [`${many} ${screen}`, 'dualscreen'] as const),
  ),
]); // prettier-ignore

// A number before "bit" is a style, as after a device (withoutModels): "windows 8 bit" is the
// pixel-art windows, not Windows 8 (helper-170).
const STYLE = /^bits?$/i;

/** The one word two words say, unless the word after them (`next`) makes the second a style. */
const pairSaid = (pair: string, next?: string): string | undefined =>
  /\d$/.test(pair) && STYLE.test(next ?? '') ? undefined : (SAYING_HD.get(pair) ?? SAYING_SCREEN.get(pair));

/** The one word of filler two words stand for ("wall paper", "high resolution", "dual monitor"), if any; `next`, the word after them. */
export const oneWordFor = (words: string, next?: string): string | undefined => {
  const lower = words.toLowerCase();
  return WRITTEN_APART.get(lower) ?? pairSaid(lower, next);
};

/** The one word the last two of a run of words say ("high resolution" is hd), if any; `next`, the word after them. */
const lastPairSaid = (said: readonly string[], next: string | undefined): string | undefined =>
  said.length < 2 ? undefined : pairSaid(`${said[said.length - 2]} ${said[said.length - 1]}`.toLowerCase(), next);

/**
 * A run of words with each pair saying one word as that word ("sunset wallpaper high resolution" is
 * sunset wallpaper hd, "dual-monitor-wallpaper" is dualscreen wallpaper).
 */
export function withPairsSaid(words: string[]): string[] {
  if (words.length < 3) return words;
  const said: string[] = [];
  for (const [i, word] of words.entries()) {
    said.push(word);
    for (let one = lastPairSaid(said, words[i + 1]); one !== undefined; one = lastPairSaid(said, words[i + 1])) said.splice(-2, 2, one);
  }
  return said;
}

/**
 * The long words of WALLPAPER_WORDS (wallpaper, background, lockscreen, their plurals, and the
 * long praise: beautiful, breathtaking), which no English word is one edit away from: a word one
 * edit off ("walpaper", "backgorund", "beautifull") is the one meant. The typo rule corrects only
 * towards the catalogue's words, and "wallpaper" is none.
 */
const LONG_WORDS = [...WALLPAPER_WORDS].filter((word) => word.length >= 9);

/**
 * Whether one letter added, dropped, changed, or two neighbours swapped, makes `a` into `b`:
 * infra/spelling.ts's editDistance(a, b, 1) === 1, which this layer may not import, in one pass.
 */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (a[start] === b[start]) start++;
  let [endA, endB] = [a.length, b.length];
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) [endA, endB] = [endA - 1, endB - 1];
  // What differs is a[start, endA) against b[start, endB).
  const [inA, inB] = [endA - start, endB - start];
  return (inA <= 1 && inB <= 1) || (inA === 2 && inB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start]);
}

/** A word as filler: the filler word it is or misspells, or undefined when it is none. */
function fillerWord(word: string): string | undefined {
  const lower = word.toLowerCase();
  return FILLER_WORDS.has(lower) ? lower : LONG_WORDS.find((long) => oneEditApart(lower, long));
}

const isStopWord = (word: string): boolean => STOP_WORDS.has(word.toLowerCase());

/** Whether a word asks for wallpapers (WALLPAPER_WORDS), or misspells a long one that does ("walpaper"). */
export const asksForWallpapers = (word: string): boolean => WALLPAPER_WORDS.has(fillerWord(word) ?? '');

/** A term of a parsed query (search-query.ts's Term). */
interface QueryTerm {
  text: string;
  phrase: boolean;
  quoted?: true;
}

const plain = ({ phrase, quoted }: QueryTerm): boolean => !phrase && !quoted;

/**
 * Devices people name with their model after them ("iphone 15 pro max", "samsung galaxy s24
 * ultra", "macbook air m2"): the model says no more about the picture than the device. Left in,
 * "iphone 15 wallpaper" found young deer ("15" read as young) and "samsung s24" galaxies.
 * A model is read narrowly, each maker's own, and only right after the device or its model, as its
 * words are the picture's elsewhere ("iphone f1 car", "ipad edge of the world", "iphone 80s"):
 * - every maker: a number of one or two digits ("15", "12.9"; not "3d", "80s", "4th");
 * - Apple: a digit and an s ("6s"), pro, max, plus, mini, air, se, xr, xs, inch, and for the
 *   iPad and the Macs, the chip ("m2");
 * - Samsung and the other phone makers: a letter and one to three digits ("s24", "a54", "x100"),
 *   and ultra, plus, pro, lite, fe, note, tab, z, fold, flip, edge, neo, and the makers' lines:
 *   Oppo's reno and find, OnePlus's nord, Nokia's lumia, Tecno's spark and camon, Infinix's hot,
 *   Motorola's razr ("vivo x100 pro", "oppo reno 10" and "nokia lumia" had found nothing);
 * - Amazon's Kindle: paperwhite, oasis, scribe, colorsoft, basic, kids, fire, hd ("kindle fire hd
 *   10" is kindle, not fire);
 * - a tablet or laptop: a number, inch ("surface pro 9", read as tablet 9).
 * "galaxy" is Samsung's only after "samsung" or before a Samsung model ("galaxy s24", "galaxy tab
 * s9", "galaxy z fold 5"); alone or otherwise ("iphone galaxy", "galaxy 3d", "galaxy m31") it is
 * the night sky's. "pixel" is never read as Google's phone: "pixel 8 bit" is a style.
 */
// A maker's model words, each with a number of one or two digits; the iPad and the Macs add the chip.
const IPHONE_MODEL = /^(?:[1-9]\d?|[1-9]s|pro|max|plus|mini|air|se|xr|xs|inch)$/i;
const APPLE_MODEL = /^(?:[1-9]\d?|[1-9]s|m[1-9]|pro|max|plus|mini|air|se|xr|xs|inch)$/i;
const PHONE_MODEL_WORDS = String.raw`[1-9]\d?|[a-z]\d{1,3}|ultra|plus|pro|lite|fe|note|tab|z|fold|flip|edge|neo`;
const modelOf = (words: string): RegExp => new RegExp(`^(?:${words})$`, 'i');
const PHONE_MODEL = modelOf(PHONE_MODEL_WORDS);
// A maker's own lines, read after that maker only: "samsung hot chocolate" keeps its hot.
const PHONE_LINES: ReadonlyMap<string, readonly string[]> = new Map([
  ['oppo', ['reno', 'find']], ['oneplus', ['nord']], ['nokia', ['lumia']], ['tecno', ['spark', 'camon']], ['infinix', ['hot']], ['motorola', ['razr']],
]); // prettier-ignore
const phoneModel = (maker: string): RegExp => {
  const lines = PHONE_LINES.get(maker);
  return lines === undefined ? PHONE_MODEL : modelOf(`${PHONE_MODEL_WORDS}|${lines.join('|')}`);
};
const KINDLE_MODEL = /^(?:[1-9]\d?|paperwhite|oasis|scribe|colorsoft|basic|kids|fire|hd)$/i;
// A tablet or laptop named by its line ("surface pro 9" is tablet 9): its generation or size.
const SIZE_MODEL = /^(?:[1-9]\d?|inch)$/i;
// A Map, not an object: a word typed is looked up in it, and "constructor" is every object's (review).
const MODELS: ReadonlyMap<string, RegExp> = new Map([
  ['iphone', IPHONE_MODEL], ['ipad', APPLE_MODEL], ['macbook', APPLE_MODEL], ['imac', APPLE_MODEL],
  ...PHONE_MAKERS.map((maker) => [maker, phoneModel(maker)] as const),
  ['kindle', KINDLE_MODEL], ['tablet', SIZE_MODEL], ['laptop', SIZE_MODEL],
]); // prettier-ignore
const SAMSUNG_MODEL = /^[sa]\d\d$/i;

/** Whether a term's words are all of a device's model ("16 inch", "12 9" of "12.9"), so it continues the device's name. */
const isModelOf = (device: string, text: string): boolean => text.split(' ').every((word) => MODELS.get(device)!.test(word));

/** Whether a term may be a model's words ("16 inch", "12 9"), to be read with the device before it. */
export const namesModel = (text: string): boolean => [...MODELS.keys()].some((device) => isModelOf(device, text));

/** Whether a word may start a device's name ("iphone", "galaxy"). */
export const namesDevice = (word: string): boolean => MODELS.has(word.toLowerCase()) || word.toLowerCase() === 'galaxy';

/** Whether "galaxy" at `i` starts a Samsung's name: before "s24", or before two words of a Samsung model ("tab s9", "note 20"). */
const samsungAt = (words: readonly string[], i: number): boolean =>
  SAMSUNG_MODEL.test(words[i + 1] ?? '') || (isModelOf('samsung', words[i + 1] ?? '') && isModelOf('samsung', words[i + 2] ?? ''));

/**
 * A run of words with each device's model gone ("iphone 15 pro max" is iphone) and Samsung's line
 * named with its model read as the maker ("galaxy s24" is samsung): undefined where a word goes.
 */
export function withoutModels(words: readonly string[]): (string | undefined)[] {
  const read: (string | undefined)[] = [...words];
  let device: string | undefined;
  words.forEach((word, i) => {
    const lower = word.toLowerCase();
    if (MODELS.has(lower)) device = lower;
    else if (lower === 'galaxy' && device === 'samsung') read[i] = undefined;
    else if (lower === 'galaxy' && samsungAt(words, i)) [read[i], device] = ['samsung', 'samsung'];
    // Samsung's Tab is a tablet, and its shape is a tablet's ("galaxy tab s9": shapeAsked). A number
    // before "bit" is a style ("laptop 8 bit" had found nothing, as "iphone 8 bit" had: helper-164).
    else if (device !== undefined && isModelOf(device, lower) && !/^bits?$/i.test(words[i + 1] ?? ''))
      read[i] = device === 'samsung' && lower === 'tab' ? 'tablet' : undefined;
    else device = undefined;
  });
  return read;
}

/** A plain term's words as filler reads them: pairs saying one word as that word, a device's model gone. */
function wordsRead(term: QueryTerm): string[] {
  const words = withPairsSaid(term.text.split(' '));
  return words.length < 2 ? words : withoutModels(words).filter((word) => word !== undefined);
}

/** The filler words a plain term is made of, common words aside, or undefined when it holds another word. */
function fillerOf(term: QueryTerm): string[] | undefined {
  if (!plain(term)) return undefined;
  const fillers: string[] = [];
  for (const word of wordsRead(term)) {
    if (isStopWord(word)) continue;
    const filler = fillerWord(word);
    if (filler === undefined) return undefined;
    fillers.push(filler);
  }
  return fillers.length > 0 ? fillers : undefined;
}

const isAddressWord = (word: string): boolean => ADDRESS_WORDS.has(fillerWord(word) ?? '');

/** A word that makes a joined term an address or a file's name: an address word, or a size ("sunset_1920x1080"). */
const marksAddress = (word: string): boolean => isAddressWord(word) || sizeOfWord(word) !== null;

/**
 * A page's address or a file's name ("cute-kitty-wallpaper", "sunset_wallpaper_1920x1080.jpg"):
 * a joined term that holds an address word. Its punctuation is where the spaces were, so it is
 * read as its words typed apart, each a group of its own, without its filler and common words:
 * read joined, every word had to match, and "cute-kitty-wallpaper" found nothing where
 * "cute kitty wallpaper" finds the 44 kittens (an unused word left out, kitty read as kitten).
 */
function addressApart<T extends QueryTerm>(term: T): T[][] | undefined {
  if (!plain(term) || !term.text.includes(' ')) return undefined;
  const words = wordsRead(term);
  if (!words.some(marksAddress)) return undefined;
  return words.filter((word) => !isStopWord(word) && fillerWord(word) === undefined).map((text) => [{ ...term, text }]);
}

/**
 * A joined term that holds a word of a page's address, among alternatives ("red-wallpaper-car OR
 * bike", where it cannot stand apart), without those words, wherever they stand ("red car"), and
 * without the other filler and common words at its ends ("best-sunset-wallpapers-for-iphone" is
 * sunset).
 */
function withoutAddressWords<T extends QueryTerm>(term: T): T {
  if (!plain(term) || !term.text.includes(' ')) return term;
  const words = wordsRead(term);
  if (!words.some(isAddressWord)) return term;
  const kept = words.filter((word) => !isAddressWord(word));
  const shed = (word: string) => isStopWord(word) || fillerWord(word) !== undefined;
  let [first, last] = [0, kept.length];
  while (first < last && shed(kept[first]!)) first++;
  while (last > first && shed(kept[last - 1]!)) last--;
  return { ...term, text: kept.slice(first, last).join(' ') };
}

/**
 * An excluded joined term without its address words ("-pine-wallpaper" excludes pine): with them,
 * it excluded only what says "wallpaper" too, which nothing does. One of address words alone
 * stays as typed, excluding nothing, as before.
 */
export function excludedWithoutAddressWords<T extends QueryTerm>(term: T): T {
  const without = withoutAddressWords(term);
  return without.text === '' ? term : without;
}

/**
 * The groups without their filler terms. When nothing but filler would be left: each term as the
 * filler words it is made of ("hd-wallpaper" all of them, as any joined term); and when one of
 * those asks for wallpapers (WALLPAPER_WORDS), those alone, flagged `wallpapersAsked`: "show me
 * 4k wallpapers" asks for 4k wallpapers, and "show" or "me" would find other things.
 */
export function withoutFiller<T extends QueryTerm>(groups: readonly T[][]): { groups: T[][]; wallpapersAsked: boolean } {
  const kept = groups
    .flatMap((group) => {
      const terms = group.filter((term) => fillerOf(term) === undefined);
      return (terms.length === 1 ? addressApart(terms[0]!) : undefined) ?? [terms.map(withoutAddressWords)];
    })
    .filter((group) => group.length > 0);
  if (kept.length > 0) return { groups: kept, wallpapersAsked: false };
  // Every term is filler here, so none is a phrase or quoted, and each is a copy of another but for its text.
  const asFiller = (keep: (word: string) => boolean) =>
    groups
      .map((group) => {
        const texts = group.map((term) => fillerOf(term)!.filter(keep).join(' ')).filter((text) => text !== '');
        return [...new Set(texts)].map((text) => ({ ...group[0]!, text }));
      })
      .filter((group) => group.length > 0);
  const wallpaperWords = asFiller((word) => WALLPAPER_WORDS.has(word));
  return wallpaperWords.length > 0 ? { groups: wallpaperWords, wallpapersAsked: true } : { groups: asFiller(() => true), wallpapersAsked: false };
}
