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
 * that: ratio, min_resolution). A query of these alone ("wallpaper", "hd wallpapers", "iphone
 * wallpaper") asks for wallpapers, any of them: it matches every wallpaper, the most downloaded
 * first, where searching the words as typed found nothing (no wallpaper is of a wallpaper).
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
 * The groups without their filler terms. When nothing but filler would be left: no group at all
 * and `every` when some word asks for wallpapers and the rest is filler too ("show me hd
 * wallpapers"), otherwise the groups as given ("over" is searched as typed).
 */
export function withoutFiller<T extends QueryTerm>(groups: readonly T[][]): { groups: T[][]; every: boolean } {
  const kept = groups.map((group) => group.filter((term) => !isFiller(term))).filter((group) => group.length > 0);
  if (kept.length > 0) return { groups: kept, every: false };
  if (groups.flat().some(({ text }) => WALLPAPER_WORDS.has(text.toLowerCase()))) return { groups: [], every: true };
  return { groups: groups.map((group) => [...group]), every: false };
}
