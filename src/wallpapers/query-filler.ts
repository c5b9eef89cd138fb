/**
 * Words people put around what they look for, which say nothing about the picture: the request
 * itself ("show me pictures of", "wallpaper", "hd"), and the small words that place one thing
 * against another ("over", "near", "behind"). Left in, they matched titles that share them ("Moon
 * over the Earth" for "sunrise over the ocean") and made "every word matched" impossible.
 *
 * They are dropped from a query only where they stand as a word of their own outside quotes, and
 * only while something else is left to look for: "over" alone, or "background", is searched as
 * typed; "moon over the earth" in quotes keeps its "over". The index keeps them, so phrases do.
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
  'desktop', 'phone', 'mobile', 'screen', 'lockscreen', 'hd', 'uhd', 'hq', '4k', '5k', '8k', 'free', 'best',
  'iphone', 'ipad', 'android', 'macbook', 'pc', 'laptop', 'tablet', 'monitor', '720p', '1080p', '1440p', '2160p', '2k',
]); // prettier-ignore

const PLACING = [
  'over', 'under', 'up', 'down', 'above', 'below', 'beneath', 'near', 'from', 'across', 'through', 'behind', 'around', 'during', 'after', 'before',
  'beside', 'between', 'among', 'along', 'against', 'onto', 'upon', 'about', 'within', 'toward', 'towards', 'inside', 'outside', 'while',
]; // prettier-ignore

/** Asking, wallpaper words, and the words that place one thing against another. */
export const FILLER_WORDS: ReadonlySet<string> = new Set([...ASKING, ...WALLPAPER_WORDS, ...PLACING]);

/** A term of a parsed query (search-query.ts's Term). */
interface QueryTerm {
  text: string;
  phrase: boolean;
  quoted?: true;
}

const isFiller = ({ text, phrase, quoted }: QueryTerm): boolean => !phrase && !quoted && FILLER_WORDS.has(text.toLowerCase());

/**
 * The groups without their filler terms, or as given when nothing but filler would be left; then
 * `wallpapersAsked` when one of them asks for wallpapers (WALLPAPER_WORDS).
 */
export function withoutFiller<T extends QueryTerm>(groups: readonly T[][]): { groups: T[][]; wallpapersAsked: boolean } {
  const kept = groups.map((group) => group.filter((term) => !isFiller(term))).filter((group) => group.length > 0);
  if (kept.length > 0) return { groups: kept, wallpapersAsked: false };
  // Every term is filler here, so none is a phrase or quoted.
  const asked = groups.flat().some(({ text }) => WALLPAPER_WORDS.has(text.toLowerCase()));
  return { groups: groups.map((group) => [...group]), wallpapersAsked: asked };
}
