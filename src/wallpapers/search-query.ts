import {
  type ShapeAsked,
  asksForWallpapers,
  excludedWithoutAddressWords,
  namesDevice,
  namesModel,
  namesRatio,
  oneWordFor,
  shapeAsked,
  withPairsSaid,
  withoutFiller,
  withoutModels,
} from './query-filler.js';
import { STOP_WORDS } from './stop-words.js';
import { sizeOfWord } from './resolution.js';

/**
 * The search syntax of `q`, in the spirit of Elasticsearch's simple_query_string, read by the API
 * itself so that nothing a user types can make a query fail:
 *
 *   sunset beach          words; a wallpaper matching all of them ranks above one matching some
 *   "alpine lake"         a phrase (an unbalanced quote runs to the end of the query)
 *   forest -pine          excludes a word; -"castle level" a phrase; -(pine oak) each word in the brackets
 *   sunrise OR sunset     either one (also `|`); OR binds the words or phrases on each side
 *   sunset NOT beach      excludes the next word, phrase or brackets, as `-` does
 *   beach without people  as NOT (in lower case, as are `not` and `no` where the words around
 *                         them say so: cars not red, beach with no people): an exclusion in words
 *
 * A lone `-`, a leading or trailing OR, and any other punctuation are read as nothing. A query
 * with nothing left to look for (only exclusions, operators or common words such as "the") is
 * refused by the caller with a 400.
 */
export interface Term {
  text: string;
  phrase: boolean;
  /** For a word that stands in for one typed (domain/query-meaning.ts): how close in meaning, 0 to 1; absent, as typed. */
  similarity?: number;
  /** A single word in quotes: matched as typed, never dropped as filler nor read for its meaning. */
  quoted?: true;
  /**
   * A word as typed that names a pictured thing (WordNet's, domain/query-meaning.ts): in the
   * meaning tier its mentions in descriptions weigh less than its stand-ins in titles
   * (store/build-queries.ts, DESCRIBED).
   */
  thing?: true;
  /**
   * The words of a phrase people type for a catalogue word (domain/query-meaning.ts), matched where
   * a title holds every one of them, in any order and with any words between: what a title says in
   * those words is what was asked before what the phrase stands for ("rose garden": the "Roses in
   * the Garden" before the other roses). Never in a description, where the words of "fall leaves"
   * are the falling petals' and the "Leaves room … for desktop icons"; never through a typo.
   */
  titled?: true;
  /**
   * The word as typed of a query's subject (QueryMeaning.subject) that names a figure a scene may
   * hold in a corner (an animal, a person, a made thing; not the sky, the sea, a place): a colour
   * beside it describes the picture, not the figure (store/build-queries.ts, pixelsNamingSubject).
   */
  figure?: true;
  /**
   * The catalogue's compound words holding this plain word as typed that name another thing
   * (domain/compounds-apart.ts: "snow leopard" for snow; none for a colour). Where the word stands
   * only inside one of them it is that thing's name, not the word: "Snow Leopard at Sunset" says
   * no snow. Such a wallpaper still matches, as a typo does, below those saying the word apart
   * (store/build-queries.ts).
   */
  apart?: readonly string[];
  /**
   * A word typed right after a `no` between two words that `excludes` does not read ("mountains no
   * snow", "boku no hero"): the word before that `no`, lower-cased. Whether it is shorthand for an
   * exclusion is for the words either side to say (domain/with-shorthand-exclusions.ts).
   */
  afterNo?: string;
}

/** Whether a term is one word typed plainly: not quoted, not a phrase, not a word standing in for one typed. */
export const isPlainWord = ({ text, phrase, quoted, similarity }: Term): boolean =>
  !phrase && !quoted && similarity === undefined && !text.includes(' ');

export interface SearchQuery {
  /** What to look for: every group is wanted, and a group matches when any of its terms does. */
  groups: Term[][];
  /** Terms no result may match. */
  excluded: Term[];
  /** Filler only, asking for wallpapers ("hd wallpapers", query-filler.ts): its words asking for them, searched for those that occur (domain/with-wallpapers-asked.ts). */
  wallpapersAsked?: true;
  /** No group, and every wallpaper matches (domain/with-wallpapers-asked.ts). */
  every?: true;
  /** The shape and sharpness its words ask for ("iphone", "4k": query-filler.ts). */
  shape?: ShapeAsked;
  /**
   * When every group is a word typed after a `no` (Term.afterNo: "wallpaper no people", "hd
   * wallpaper no people"), the query its other words make, which are filler: what is left to look for
   * should each be excluded (domain/with-shorthand-exclusions.ts), as "hd wallpaper -people" reads.
   */
  filler?: { groups: Term[][]; wallpapersAsked?: true };
  /**
   * Neighbouring plain words typed with nothing but spaces between them, common words aside,
   * lower-cased and joined by a space ("light house"): what may be one word typed in two
   * (domain/with-joined-words.ts). Not across a comma, a bracket, an exclusion or a common word.
   */
  spaced?: readonly string[];
}

// A word's marks are part of it: else a Hindi word's vowel signs would split it into single letters.
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
const POSSESSIVE = /['\u2019]s(?![\p{L}\p{N}])/giu;

// Letters Lucene's ASCIIFoldingFilter (the index's wpc_ascii_folding) folds that are neither a
// letter with marks nor a compatibility form: "straße" is strasse there, "ıce" ice.
const LATIN_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L',
  đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'TH', ı: 'i', ɡ: 'g', ĸ: 'q',
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u00ab': '"', '\u00bb': '"', '\u2212': '-',
}; // prettier-ignore
const LATIN_LETTER = /[ßẞæÆœŒøØłŁđĐðÐþÞıɡĸ\u201c-\u201f\u00ab\u00bb\u2212]/g;
// A Latin letter with its marks, a Latin compatibility form (ﬁ, ſ, full-width ｃ), full-width
// punctuation (，（－＂), or a styled letter or digit pasted as "fancy text": mathematical bold,
// italic, script… (𝐬𝐮𝐧𝐬𝐞𝐭, and the letterlike ones that fill their gaps: 𝓈𝓊𝓃𝓈ℯ𝓉) and circled ones
// (ⓢⓤⓝⓢⓔⓣ, ①). Each is read as its compatibility decomposition, less the marks. Not the
// parenthesised forms (⒜ is "(a)"), which would bring brackets into the query's syntax, nor
// symbols that decompose to words (™ is "TM", № "No").
const LATIN_FORM =
  /[\p{Script=Latin}\uff01-\uff5e\u{1d400}-\u{1d7ff}\u210a-\u2113\u2115\u2119-\u211d\u2124\u2128\u212c\u212d\u212f-\u2131\u2133\u2134\u24b6-\u24e9\u2460-\u2473]\p{M}*/gu;

/**
 * A text as the index folds it ("café" is cafe, "crème" creme, "ﬁeld" field, "ｃｉｔｙ" city,
 * "ıce" ice), and typographic quotes and full-width punctuation as their ASCII forms: what a word
 * means, whether it is English and whether it occurs are then asked of the word the index holds,
 * so a word with or without its accents finds the same (`cafe` and `café` alike), and `－（pine oak）` or `“alpine lake”` read as their ASCII forms do. Other scripts
 * keep their marks (が stays が).
 */
export function foldedLatin(text: string): string {
  // eslint-disable-next-line no-control-regex -- the plain ASCII text most queries are needs no folding
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  return text.replace(LATIN_FORM, (form) => form.normalize('NFKD').replace(/\p{M}+/gu, '')).replace(LATIN_LETTER, (letter) => LATIN_LETTERS[letter]!);
}

/**
 * The words of a text as a query reads them: runs of letters and digits with their marks, Latin
 * accents folded as the index folds them, a possessive read as its word ("galaxy's" is galaxy; its
 * "s" would be a word of its own that no wallpaper holds).
 */
export function wordsOf(text: string): string[] {
  return wordsIn(foldedLatin(text));
}

/** The words of a text folded already (a query is folded once, whole, before it is read). */
function wordsIn(folded: string): string[] {
  return folded.replace(POSSESSIVE, '').match(WORD) ?? [];
}

/**
 * How many words a text holds, as a search reads them: a Hindi word, or an accent sent
 * decomposed, is one word (the bound on a query's words, http/query-validator.ts); letters the
 * search folds are counted folded, as circled ones (ⓢⓤⓝ) are symbols until then (helper-98: 50
 * such words passed the bound of 32, and `ⓣⓗⓔ` was said to hold no letter).
 */
export function countWords(text: string): number {
  return foldedLatin(text.replace(INVISIBLE, '')).match(WORD)?.length ?? 0;
}

// A size as people type it ("1920 x 1080", "1920×1080", "1920*1080", "1920 by 1080", "1920x1080 px",
// the Cyrillic х of Russian sites): the one word a search reads as a size (store/build-queries.ts);
// else its two numbers would be words no wallpaper says. Three to five digits a side, as screens
// are: "2 x 4" stays words.
const SIZE_TYPED = /(?<![\p{L}\p{N}])([1-9]\d{2,4})(?:\s*[x×*хХ✕]\s*|\s+by\s+)([1-9]\d{2,4})(?:\s*(?:px|pixels?))?(?![\p{L}\p{N}])/giu;

// A screen's ratio as people type it ("21:9", "16 x 9", "16×9"): the one word of that ratio's name
// (aspect-ratio.ts), which asks for wallpapers of it (query-filler.ts); else its two numbers were
// words, and "21:9 wallpaper" found the "Young Deer", 21 read as young. Only a ratio the catalogue
// names: "2 x 4" and "10:30" stay words.
const RATIO_TYPED = /(?<![\p{L}\p{N}.:])([1-9]\d?)\s*[:x×]\s*([1-9]\d?)(?![\p{L}\p{N}.:])/giu;

const withSizesAsWords = (text: string): string =>
  /\d/.test(text)
    ? text
        .replace(SIZE_TYPED, '$1x$2')
        .replace(RATIO_TYPED, (typed, width: string, height: string) => (namesRatio(`${width}x${height}`) ? `${width}x${height}` : typed))
    : text;

// `spaced`: nothing but spaces between the term and the token before it.
type Token = { kind: 'term'; term: Term; excluded: boolean; spaced: boolean } | { kind: 'or' };

// Punctuation that ends a word as a space does ("sunset,beach", "sunset;night"), in its CJK forms
// too ("海、夕日", 「夕日」; full-width forms are folded to ASCII first): a run of words joined by
// anything else is one term whose words must all match ("snow-capped", "b&w", "day/night").
const SEPARATOR = /[,;:!?()[\]{}<>\u3001\u3002\u3008-\u3011\u3014-\u301b]/;
const OPENING = /[([{<\u3008\u300a\u300c\u300e\u3010\u3014\u3016\u3018\u301a]/;
const CLOSING = /[)\]}>\u3009\u300b\u300d\u300f\u3011\u3015\u3017\u3019\u301b]/;

// The words people write an exclusion with, in lower case ("beach without people", "cars not red",
// "beach with no people"); what follows one is excluded as after NOT, where the word before says
// so (excludes).
const EXCLUDING_WORDS = new Set(['without', 'not', 'no']);

// Before `not`, words that make it negate a verb, a person or a wish rather than exclude a thing
// ("we are not alone", "i can not sleep", "forget me not flowers", "why not me"): pronouns, the
// verbs that take `not`, and the adverbs and question words it follows. The pieces of a
// contraction count as the word ("i'm" reads as "i m", "don't" as "don t": helper-138).
const NEGATING = new Set(
  [
    'i me you we us he him she her it they them my your our one who',
    'am is are was were be been being do does did can could will would shall should may might must have has had',
    'm re ve d ll t s im youre theyre ive id youll yall aint ain dont doesnt didnt cant wont isnt arent wasnt werent',
    'why what how when where whether perhaps maybe still just really probably certainly definitely absolutely surely simply also even never ever yet please',
  ]
    .join(' ')
    .split(' '),
);

// After `not`, words that make it say how much rather than what ("snow not too white", "flowers
// not so pink"): excluding them excluded nothing, and the word after them was looked for.
const DEGREE = new Set(['too', 'so', 'very', 'quite', 'really', 'that', 'exactly', 'all', 'much', 'as', 'only', 'always', 'even']);

/**
 * Whether `word` (`without`, `not` or `no`, in lower case) excludes what follows it, given the
 * plain words before it and the word after it. `without` does after any word to look for. `not`
 * does after a word that is neither common nor one that makes it negate (NEGATING), a `but` or
 * `and` between passed over ("cars not red", "city but not at night"), unless a word of degree
 * follows. `no` does only after `with`, `but` or `and` ("beach with no people"): after other words
 * it is an idiom or a particle, as in "no way home", "say no more" and the Japanese titles people
 * type in letters ("boku no hero academia", "yoru no tokyo"), where excluding the word after it had
 * emptied the search or lost its subject (helper-137). Between two nouns it is shorthand
 * ("mountains no snow"), which only WordNet can tell: the word after it is marked (Term.afterNo).
 */
function excludes(word: string, before: readonly string[], after: string): boolean {
  const content = (w: string) => !STOP_WORDS.has(w) && !NEGATING.has(w);
  if (word === 'without') return before.some(content);
  const last = before.at(-1);
  if (last === undefined) return false;
  if (word === 'no') return last === 'with' || last === 'but' || last === 'and';
  const previous = last === 'but' || last === 'and' ? before.at(-2) : last;
  return previous !== undefined && content(previous) && !DEGREE.has(after);
}

/** The words of the terms read so far that are looked for (not excluded), lower-cased. */
function plainWordsIn(tokens: readonly Token[]): string[] {
  return tokens.flatMap((token) => (token.kind === 'term' && !token.excluded ? token.term.text.toLowerCase().split(' ') : []));
}

/** The next `count` words at or after `i` in `q`, lower-cased: runs of letters. */
function wordsAt(q: string, i: number, count: number): string[] {
  return [...q.slice(i, i + 96).matchAll(/\p{L}+/gu)].slice(0, count).map(([word]) => word.toLowerCase());
}

// After `no`, words that make a set phrase of it rather than name a thing left out: what signs say
// and sayings ("road no entry sign" is a sign, "love no limits" and "band no doubt" are words;
// helper-143).
const NO_PHRASES = new Set([
  ...'entry exit parking smoking trespassing stopping littering swimming fishing admittance vacancy signal service'.split(' '),
  ...'way limit limits doubt mercy fear regrets escape surrender'.split(' '),
]);
// Sayings of two `no`s, by their two words ("no pain no gain"), read as such wherever they stand:
// "gym no pain no gain" had looked for the gym and the gain without pain. Not every "no … no …": a
// list of what to leave out is written so too ("mountains no snow no trees"). A query that starts
// so is a saying or a title, whatever its words ("no justice no peace", "no coffee no life":
// helper-144).
const NO_SAYINGS = new Set(['pain gain', 'game life', 'guts glory', 'risk reward', 'music life', 'rain flowers', 'rain rainbow', 'rain rainbows']);

/**
 * Whether the `no` before index `i` of `q` is part of a set phrase or a saying rather than shorthand
 * for without: a sign's text or a saying after it (NO_PHRASES), or a saying of two `no`s
 * (NO_SAYINGS, or any that starts the query), whether this `no` is its first or its second.
 * `before`: where the term before it is.
 */
function noSaying(q: string, i: number, tokens: readonly Token[], before: number): boolean {
  const [next, then, last] = wordsAt(q, i, 3);
  if (next === undefined || NO_PHRASES.has(next) || (then === 'no' && NO_SAYINGS.has(`${next} ${last}`))) return true;
  const first = tokens[before];
  const earlier = tokens[before - 1];
  if (first?.kind !== 'term' || earlier?.kind !== 'term' || earlier.term.quoted || earlier.term.text.toLowerCase() !== 'no') return false;
  return before === 1 || NO_SAYINGS.has(`${first.term.text.toLowerCase()} ${next}`);
}

/**
 * The device a model's words at `at` follow ("iphone 15", "galaxy s23"), which stands for them
 * before a `no` ("iphone 15 no text" is "iphone no text": helper-145); undefined for any other term.
 */
function deviceOf(tokens: readonly Token[], at: number): string | undefined {
  const model = (token: Token | undefined) => plainTerm(token) && namesModel(token.term.text);
  let start = at;
  while (start > 0 && model(tokens[start])) start--;
  const device = tokens[start];
  return start < at && plainTerm(device) && namesDevice(device.term.text) ? device.term.text : undefined;
}

/** Where the last token is that a `no` may follow as shorthand: an excluded term is passed over ("forest -pine no fog"); -1 when none. */
function lastLookedFor(tokens: readonly Token[]): number {
  for (let at = tokens.length - 1; at >= 0; at--) {
    const token = tokens[at]!;
    if (token.kind === 'or' || !token.excluded) return at;
  }
  return -1;
}

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  // NOT is an operator among words in lower case; in text all in capitals ("CITY THAT DOES NOT
  // SLEEP", a title pasted) it is the word.
  const notIsOperator = /\p{Ll}/u.test(q);
  // Inside "-( … )", the brackets still open: every term until they all close is excluded, as
  // -(pine (oak) elm) reads.
  let depth = 0;
  // After a NOT: the next term, or every term in the brackets that open next, is excluded.
  let not = false;
  // Just after a term `without` excluded: an "or" or "and" next goes on excluding ("beach without
  // people or boats"), as people list what they do not want.
  let withoutList = false;
  let withoutPending = false;
  // The word before a `no` that may be shorthand for an exclusion (Term.afterNo), until the next
  // term; and after such a term, for an "or" or "and" that goes on listing ("beach no people or boats").
  let afterNo: string | undefined;
  let noList: string | undefined;
  const bracket = (c: string) => {
    if (depth > 0 && OPENING.test(c)) depth++;
    else if (depth > 0 && CLOSING.test(c)) depth--;
    else if (not && OPENING.test(c)) {
      depth = 1;
      not = false;
    }
  };
  let i = 0;
  let spaced = true;
  while (i < q.length) {
    if (/\s/.test(q[i]!) || SEPARATOR.test(q[i]!)) {
      if (SEPARATOR.test(q[i]!)) spaced = false;
      bracket(q[i]!);
      i++;
      continue;
    }
    if (q[i] === '|') {
      tokens.push({ kind: 'or' });
      i++;
      [spaced, afterNo, noList] = [true, undefined, undefined];
      continue;
    }
    let minus = false;
    while (q[i] === '-' || q[i] === '+' || (i < q.length && SEPARATOR.test(q[i]!))) {
      // A + is a space written in an address ("mountains+no+snow").
      if (q[i] !== '+') spaced = false;
      if (q[i] === '-') minus = true;
      else if (depth === 0 && minus && OPENING.test(q[i]!)) depth = 1;
      else bracket(q[i]!);
      i++;
    }
    const excluded = minus || not || depth > 0;
    let text: string;
    let quoted = false;
    if (q[i] === '"') {
      const close = q.indexOf('"', i + 1);
      const end = close === -1 ? q.length : close;
      text = q.slice(i + 1, end);
      i = end + 1;
      quoted = true;
    } else {
      // A + ends a word as a space does: a query copied from an address writes its spaces so
      // ("sunset+beach").
      let end = i;
      while (end < q.length && !/[\s"|+]/.test(q[end]!) && !SEPARATOR.test(q[end]!)) end++;
      text = q.slice(i, end);
      i = end;
      // While an exclusion waits for its word, another operator adds nothing ("without without
      // snow", "forest without OR pine" had excluded the operator and looked for the word).
      if (not && (text === 'OR' || text === 'NOT' || EXCLUDING_WORDS.has(text))) continue;
      if (withoutList && (text === 'or' || text === 'OR' || text === 'and')) {
        [not, withoutList, withoutPending] = [true, false, true];
        continue;
      }
      if (text === 'OR' && !excluded) {
        tokens.push({ kind: 'or' });
        [spaced, afterNo, noList] = [true, undefined, undefined];
        continue;
      }
      // "without", "no" and "not" exclude as NOT does where the words around them say so
      // (excludes): searched as words they are dropped (common words), and the word after them was
      // looked for, so "mountains without snow" and "cars not red" ranked the snowy mountains and
      // the red cars first. In lower case only (in a title pasted, "Journey Without Maps", "No
      // Man's Land", it is the word); a trailing one ("forget me not") excludes nothing.
      if (
        ((text === 'NOT' && notIsOperator) || (EXCLUDING_WORDS.has(text) && excludes(text, plainWordsIn(tokens), wordsAt(q, i, 1)[0] ?? ''))) &&
        !excluded
      ) {
        [not, withoutPending] = [true, EXCLUDING_WORDS.has(text)];
        spaced = true;
        continue;
      }
      // A `no` said twice is one ("mountains no no snow").
      if (text === 'no' && !excluded && afterNo !== undefined && noList === undefined) continue;
      if (text === 'no' && !excluded) {
        const at = lastLookedFor(tokens);
        const before = tokens[at];
        const word = plainTerm(before) ? (deviceOf(tokens, at) ?? before.term.text) : undefined;
        // A word, or filler of digits too ("4k no people").
        const named = word !== undefined && (/^\p{L}+$/u.test(word) || asksForWallpapers(word));
        if (named && !noSaying(q, i, tokens, at)) {
          tokens.push({ kind: 'term', term: { text, phrase: false }, excluded, spaced });
          [afterNo, noList] = [word.toLowerCase(), undefined];
          spaced = true;
          continue;
        }
      }
      if ((text === 'or' || text === 'and') && noList !== undefined && !excluded) {
        tokens.push({ kind: 'term', term: { text, phrase: false }, excluded, spaced });
        [afterNo, noList] = [noList, undefined];
        spaced = true;
        continue;
      }
    }
    const words = wordsIn(text);
    // A common word after NOT is passed over for the word it leads to ("NOT the pine", "without a
    // cloud"): excluding it excluded nothing, and the word after it was looked for.
    if (not && !quoted && words.length === 1 && STOP_WORDS.has(words[0]!.toLowerCase())) continue;
    withoutList = withoutPending && words.length > 0;
    [not, withoutPending] = [false, false];
    if (words.length > 0) {
      // A `no` waits for the next term with words: a symbol between is passed over ("mountains no 🏔 snow").
      const noBefore = afterNo;
      [afterNo, noList] = [undefined, undefined];
      const term: Term = { text: words.join(' '), phrase: quoted && words.length > 1 };
      if (quoted && words.length === 1) term.quoted = true;
      // A full stop may end the query ("mountains no snow.").
      else if (noBefore !== undefined && !excluded && spaced && words.length === 1 && /^\p{L}+(?:\.+|…)?$/u.test(text)) {
        term.afterNo = noBefore;
        noList = noBefore;
      }
      tokens.push({ kind: 'term', term, excluded, spaced });
      spaced = true;
    }
  }
  return tokens;
}

const plainTerm = (token: Token | undefined): token is Token & { kind: 'term' } =>
  token?.kind === 'term' && !token.excluded && !token.term.phrase && !token.term.quoted;

/**
 * Two words written apart for one word of filler (query-filler.ts: "wall paper") as that word,
 * where they are a term of their own ("wall-paper") or two terms with only spaces between them;
 * not across other words ("wall of paper"), punctuation ("wall, paper"), an OR, an exclusion, nor
 * inside a longer term ("stone-wall-paper-lantern").
 */
function joinWrittenApart(tokens: readonly Token[]): Token[] {
  const joined: Token[] = [];
  for (const [i, token] of tokens.entries()) {
    if (!plainTerm(token)) {
      joined.push(token);
      continue;
    }
    const after = tokens[i + 1];
    const next = plainTerm(after) ? after.term.text.split(' ')[0] : undefined;
    let current: Token & { kind: 'term' } = { ...token, term: { ...token.term, text: oneWordFor(token.term.text, next) ?? token.term.text } };
    // A word read from two is read again with the one before it ("ultra high definition").
    for (;;) {
      const before = joined.at(-1);
      if (!plainTerm(before) || !current.spaced) break;
      const one = oneWordFor(`${before.term.text} ${current.term.text}`, next);
      if (one === undefined) break;
      joined.pop();
      current = { ...before, term: { ...before.term, text: one } };
    }
    joined.push(current);
  }
  return joined;
}

/**
 * Words with only spaces between them without the model of a device they name (query-filler.ts:
 * "iphone 15 pro max" is iphone); joined words are read so with the rest of their term.
 */
function withoutDeviceModels(tokens: Token[]): Token[] {
  if (!tokens.some((token) => token.kind === 'term' && namesDevice(token.term.text))) return tokens;
  const read: Token[] = [];
  let run: (Token & { kind: 'term' })[] = [];
  const flush = () => {
    const words = run.length > 1 ? withoutModels(run.map(({ term }) => term.text)) : run.map(({ term }) => term.text);
    run.forEach((token, i) => {
      const word = words[i];
      if (word !== undefined) read.push(word === token.term.text ? token : { ...token, term: { ...token.term, text: word } });
    });
    run = [];
  };
  for (const token of tokens) {
    const word = plainTerm(token) && (!token.term.text.includes(' ') || namesModel(token.term.text));
    if (!word || (run.length > 0 && !token.spaced)) flush();
    if (word) run.push(token);
    else read.push(token);
  }
  flush();
  return read;
}

// Characters that show nothing (a soft hyphen, a zero-width space, a byte-order mark…): pasted from a
// page inside a word, they had split it ("sun\u200bset" found nothing). Unicode asks that they be
// ignored where text is matched.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

// NEXT LINE (U+0085) ends a line in text from older systems and is Unicode white space, but not
// JavaScript's `\s`: read as it is, it joined the words either side ("sunset\u0085beach" found 2
// wallpapers instead of 286). The contract refuses every other control character but tabs and
// line breaks.
const NEXT_LINE = /\u0085/g;

/** Reads `q` into groups of alternatives and exclusions; never throws. */
export function parseSearchQuery(q: string): SearchQuery {
  return parse(q).query;
}

/** A plain word of a token, lower-cased, when it is one and not a common word. */
const loneWord = (token: Token | undefined): string | null => {
  if (!plainTerm(token) || token.term.text.includes(' ')) return null;
  const word = token.term.text.toLowerCase();
  return STOP_WORDS.has(word) ? null : word;
};

/** The query, and its neighbouring plain words with only spaces between them (SearchQuery.spaced). */
function parse(q: string): { query: SearchQuery; spaced: string[] } {
  const groups: Term[][] = [];
  const excluded: Term[] = [];
  const spaced: string[] = [];
  let joinNext = false;
  let previous: Token | undefined;
  for (const token of withoutDeviceModels(
    joinWrittenApart(tokenize(withSizesAsWords(foldedLatin(q.replace(INVISIBLE, '').replace(NEXT_LINE, ' '))))),
  )) {
    const [before, word] = [loneWord(previous), loneWord(token)];
    if (before !== null && word !== null && token.kind === 'term' && token.spaced) spaced.push(`${before} ${word}`);
    previous = token;
    if (token.kind === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    if (token.excluded) {
      excluded.push(token.term);
      joinNext = false;
      continue;
    }
    if (joinNext) groups.at(-1)!.push(token.term);
    else groups.push([token.term]);
    joinNext = false;
  }
  return { query: { groups, excluded }, spaced };
}

/** A term of sizes only ("1920x1080"), not one joined to words ("sunset-1920x1080"). */
export const namesSizesOnly = ({ text, phrase }: Term): boolean => !phrase && text.split(' ').every((word) => sizeOfWord(word) !== null);

/** A group of sizes only: alternatives that one wallpaper answers with its resolution. */
export const isSizesGroup = (group: readonly Term[]): boolean => group.every(namesSizesOnly);

/**
 * Whether a query sets words beside a group of sizes (readSearchText makes them one), which then
 * ranks what the words find (store/build-queries.ts). A size among words as alternatives ("sunset
 * OR 1920x1080") is one of them, as typed.
 */
export const wordsBesideSizes = (groups: readonly Term[][]): boolean => groups.length > 1 && groups.some(isSizesGroup);

/**
 * The groups with every group of sizes only in one, the first's place: a wallpaper has one size, so
 * sizes typed apart ("1920x1080 2560x1440", "red 1920x1080 2560x1440") are alternatives, as with
 * OR between them. Each wanted, no wallpaper had matched them all.
 */
function withSizesAsAlternatives(groups: Term[][]): Term[][] {
  const sizes = groups.filter(isSizesGroup);
  if (sizes.length < 2) return groups;
  return groups.flatMap((group) => (group === sizes[0] ? [sizes.flat()] : sizes.includes(group) ? [] : [group]));
}

/** A term that still means something once common words are dropped. */
function searchable(term: Term): boolean {
  return (term.text.match(WORD) ?? []).some((word) => !STOP_WORDS.has(word.toLowerCase()));
}

/**
 * What a search looks for, read from `q` once, at the edge: the groups that still mean something
 * once common words and filler (query-filler.ts) are dropped, and the exclusions. It travels down with the request's
 * parameters, so nothing below reads `q` again.
 */
export function readSearchText(q: string): SearchQuery {
  const { query: parsed, spaced } = parse(q);
  const searched = parsed.groups.map((group) => group.filter(searchable)).filter((group) => group.length > 0);
  const { groups: read, wallpapersAsked } = withoutFiller(searched);
  const groups = withSizesAsAlternatives(read);
  const afterNo = (group: readonly Term[]) => group.length === 1 && group[0]!.afterNo !== undefined;
  const filler = groups.length > 0 && groups.every(afterNo) ? withoutFiller(searched.filter((group) => !afterNo(group))) : undefined;
  // Words in quotes mean themselves, and phrases their words together: neither asks for a shape.
  const typed = parsed.groups.flat().filter((term) => !term.quoted && !term.phrase);
  const shape = shapeAsked(typed.flatMap(({ text }) => withPairsSaid(text.toLowerCase().split(/[^\p{L}\p{N}]+/u))));
  return {
    groups,
    excluded: parsed.excluded.map(excludedWithoutAddressWords),
    ...(wallpapersAsked ? { wallpapersAsked: true as const } : {}),
    ...(shape ? { shape } : {}),
    ...(spaced.length > 0 ? { spaced } : {}),
    ...(filler && filler.groups.length > 0
      ? { filler: { groups: filler.groups, ...(filler.wallpapersAsked ? { wallpapersAsked: true as const } : {}) } }
      : {}),
  };
}
