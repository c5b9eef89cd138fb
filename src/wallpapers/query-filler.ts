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
export const FILLER_WORDS: ReadonlySet<string> = new Set([
  // asking
  'show', 'me', 'find', 'get', 'give', 'want', 'need', 'looking', 'look', 'search', 'please', 'some', 'any', 'i', 'my', 'you',
  'can', 'could', 'would',
  // what a wallpaper app shows anyway
  'wallpaper', 'wallpapers', 'background', 'backgrounds', 'picture', 'pictures', 'pic', 'pics', 'image', 'images', 'photo', 'photos',
  'desktop', 'phone', 'mobile', 'screen', 'lockscreen', 'hd', 'uhd', 'hq', '4k', '5k', '8k', 'free', 'best',
  // the device or size it is for: the filters say that (ratio, min_resolution), not the picture
  'iphone', 'ipad', 'android', 'macbook', 'pc', 'laptop', 'tablet', 'monitor', '720p', '1080p', '1440p', '2160p', '2k',
  // placing one thing against another
  'over', 'under', 'up', 'down', 'above', 'below', 'beneath', 'near', 'from', 'across', 'through', 'behind', 'around', 'during', 'after', 'before',
  'beside', 'between', 'among', 'along', 'against', 'onto', 'upon', 'about', 'within', 'toward', 'towards', 'inside', 'outside', 'while',
]); // prettier-ignore

/** A term of a parsed query (search-query.ts's Term). */
interface QueryTerm {
  text: string;
  phrase: boolean;
  quoted?: true;
}

const isFiller = ({ text, phrase, quoted }: QueryTerm): boolean => !phrase && !quoted && FILLER_WORDS.has(text.toLowerCase());

/** The groups without their filler terms, or as given when nothing but filler would be left. */
export function withoutFiller<T extends QueryTerm>(groups: readonly T[][]): T[][] {
  const kept = groups.map((group) => group.filter((term) => !isFiller(term))).filter((group) => group.length > 0);
  return kept.length > 0 ? kept : groups.map((group) => [...group]);
}
