/**
 * Words people put around what they look for, which say nothing about the picture: the request
 * itself ("show me pictures of", "wallpaper", "hd"), and the small words that place one thing
 * against another ("over", "near", "behind"). Left in, they matched titles that share them ("Moon
 * over the Earth" for "sunrise over the ocean") and made "every word matched" impossible.
 *
 * They are dropped from a query only where they stand as a word of their own outside quotes, and
 * only while something else is left to look for: "over" alone, or "background", is searched as
 * typed; "moon over the earth" in quotes keeps its "over". The index keeps them, so phrases do.
 * Words joined by a hyphen, underscore or slash are one term ("snow-capped"): it is filler when
 * each of its words is ("hd-wallpaper"), and sheds the words of a page's address at its ends
 * ("mountain-lake-wallpaper-4k" looks for mountain-lake), never those inside ("lock-screen" is a
 * lockscreen, "photo-realistic" stays).
 * Lucene's stop words ("the", "of") are not here: the analyzer drops those on both sides.
 */
const ASKING = ['show', 'me', 'find', 'get', 'give', 'want', 'need', 'looking', 'look', 'search', 'please', 'some', 'any', 'i', 'my', 'you', 'can', 'could', 'would']; // prettier-ignore

/**
 * What a wallpaper app shows anyway, and the device or size a wallpaper is for (the filters say
 * that: ratio, min_resolution). A query of filler with one of these ("wallpaper", "hd wallpapers",
 * "iphone wallpaper") asks for wallpapers: it is searched as typed, as any query of filler only
 * ("4k" finds the wallpapers described as sharp enough for a 4K monitor), and when none of these
 * words of it occurs in the catalogue, it matches every wallpaper rather than none
 * (domain/with-wallpapers-asked.ts).
 */
export const WALLPAPER_WORDS: ReadonlySet<string> = new Set([
  'wallpaper', 'wallpapers', 'background', 'backgrounds', 'picture', 'pictures', 'pic', 'pics', 'image', 'images', 'photo', 'photos',
  'desktop', 'phone', 'mobile', 'screen', 'lockscreen', 'homescreen', 'hd', 'uhd', 'hq', '4k', '5k', '8k', 'free', 'best',
  'iphone', 'ipad', 'android', 'macbook', 'pc', 'laptop', 'tablet', 'monitor', '720p', '1080p', '1440p', '2160p', '2k',
]); // prettier-ignore

const PLACING = [
  'over', 'under', 'up', 'down', 'above', 'below', 'beneath', 'near', 'from', 'across', 'through', 'behind', 'around', 'during', 'after', 'before',
  'beside', 'between', 'among', 'along', 'against', 'onto', 'upon', 'about', 'within', 'toward', 'towards', 'inside', 'outside', 'while',
]; // prettier-ignore

/** Asking, wallpaper words, and the words that place one thing against another. */
export const FILLER_WORDS: ReadonlySet<string> = new Set([...ASKING, ...WALLPAPER_WORDS, ...PLACING]);

/**
 * The words at the ends of a page's address that ask for wallpapers ("mountain-lake-wallpaper-4k"):
 * those of WALLPAPER_WORDS that no English compound begins or ends with, as "photo-realistic",
 * "free-range", "best-seller" and "phone-booth" do.
 */
const ADDRESS_WORDS: ReadonlySet<string> = new Set([
  'wallpaper', 'wallpapers', 'background', 'backgrounds', 'lockscreen', 'homescreen', 'hd', 'uhd', 'hq', '4k', '5k', '8k', '2k',
  '720p', '1080p', '1440p', '2160p', 'iphone', 'ipad', 'macbook',
]); // prettier-ignore

/** Two words people write apart for one word of filler: a "lock screen wallpaper" is not a lock. */
const WRITTEN_APART: ReadonlyMap<string, string> = new Map([
  ['wall paper', 'wallpaper'], ['wall papers', 'wallpapers'], ['back ground', 'background'], ['back grounds', 'backgrounds'],
  ['lock screen', 'lockscreen'], ['home screen', 'homescreen'],
]); // prettier-ignore
const SECOND_WORDS: ReadonlySet<string> = new Set([...WRITTEN_APART.keys()].map((apart) => apart.split(' ')[1]!));

/** The one word `first` and `second` are written apart for, if any. */
const oneWordFor = (first: string | undefined, second: string): string | undefined =>
  first !== undefined && SECOND_WORDS.has(second.toLowerCase()) ? WRITTEN_APART.get(`${first} ${second}`.toLowerCase()) : undefined;

/**
 * The long words of WALLPAPER_WORDS, which no English word is one edit away from: a word one edit
 * off ("walpaper", "wallpapr", "backgorund") is the one meant. The typo rule cannot find them, as it
 * corrects towards the catalogue's words and no wallpaper's text says "wallpaper".
 */
const LONG_WORDS = ['wallpaper', 'wallpapers', 'background', 'backgrounds', 'lockscreen', 'homescreen'];

/** Whether one letter added, dropped, changed, or two neighbours swapped, makes `a` into `b`. */
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
  if (FILLER_WORDS.has(lower)) return lower;
  return lower.length >= 8 ? LONG_WORDS.find((long) => oneEditApart(lower, long)) : undefined;
}

/** A term of a parsed query (search-query.ts's Term). */
interface QueryTerm {
  text: string;
  phrase: boolean;
  quoted?: true;
}

const plain = ({ phrase, quoted }: QueryTerm): boolean => !phrase && !quoted;

/** The words of a term, two written apart for one word of filler read as that word. */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const word of text.split(' ')) {
    const one = oneWordFor(words.at(-1), word);
    if (one !== undefined) words[words.length - 1] = one;
    else words.push(word);
  }
  return words;
}

/** The filler words a plain term is made of, or undefined when one of its words is no filler. */
function fillerOf(term: QueryTerm): string[] | undefined {
  const words = wordsOf(term.text).map(fillerWord);
  return plain(term) && words.every((word) => word !== undefined) ? words : undefined;
}

/** A joined term without the words of a page's address at its ends ("sunset-beach-wallpaper-hd"). */
function withoutAddressWords<T extends QueryTerm>(term: T): T {
  const words = wordsOf(term.text);
  if (!plain(term) || words.length < 2) return term;
  let [first, last] = [0, words.length];
  while (first < last && ADDRESS_WORDS.has(fillerWord(words[first]!) ?? '')) first++;
  while (last > first && ADDRESS_WORDS.has(fillerWord(words[last - 1]!) ?? '')) last--;
  return last - first === words.length ? term : { ...term, text: words.slice(first, last).join(' ') };
}

/** Single-word groups whose words are two written apart for one ("wall paper"), made one group. */
function writtenTogether<T extends QueryTerm>(groups: readonly T[][]): T[][] {
  const together: T[][] = [];
  for (const group of groups) {
    const before = together.at(-1) ?? [];
    const [term, other] = [group[0]!, before[0]];
    const apart = other !== undefined && before.length === 1 && group.length === 1 && plain(other) && plain(term);
    const word = apart ? oneWordFor(other.text, term.text) : undefined;
    if (word !== undefined) together[together.length - 1] = [{ ...term, text: word }];
    else together.push(group);
  }
  return together;
}

/**
 * The groups without their filler terms, or, when nothing but filler would be left, each term as
 * the filler words it is made of; then `wallpapersAsked` when one of those asks for wallpapers
 * (WALLPAPER_WORDS).
 */
export function withoutFiller<T extends QueryTerm>(typed: readonly T[][]): { groups: T[][]; wallpapersAsked: boolean } {
  const groups = writtenTogether(typed);
  const kept = groups
    .map((group) => group.filter((term) => fillerOf(term) === undefined).map(withoutAddressWords))
    .filter((group) => group.length > 0);
  if (kept.length > 0) return { groups: kept, wallpapersAsked: false };
  // Every term is filler here, so none is a phrase or quoted.
  const asFiller = groups.map((group) => [...new Set(group.flatMap((term) => fillerOf(term)!))].map((word) => ({ ...group[0]!, text: word })));
  const asked = asFiller.flat().some(({ text }) => WALLPAPER_WORDS.has(text));
  return { groups: asFiller, wallpapersAsked: asked };
}
