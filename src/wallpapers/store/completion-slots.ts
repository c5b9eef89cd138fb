import { suggestInputs } from './index-document.js';

/**
 * How many of a completion suggester's `size` slots one carrier of a title took. The suggester
 * collects the best `size` pairs of a matching input and its document, then answers each document
 * once: "Wave upon Wave upon Wave" completes "wave" through three of its inputs, so five of its
 * carriers filled ten slots and answered four options, however many other titles started with
 * "wave" (helper-139). Fewer options than slots is therefore no proof that nothing is left; the
 * slots the options took are. As Elasticsearch reads them: the completion field's words (standard
 * tokenizer, lower case, accents folded), a typo prefix within the edits `fuzziness: AUTO` allows,
 * its first letter as typed. An estimate that errs high costs one more ask, one that errs low a
 * shorter answer; so every option answered counts one slot at least (toCompletions), whatever
 * folding or byte-wise fuzzy matching Elasticsearch did that this reading does not (helper-140).
 */
export function slotsTaken(title: string, prefix: string, typos: boolean): number {
  return slotCounter(prefix, typos)(title);
}

/** slotsTaken for one prefix and suggester, the prefix read once for every title it is asked about. */
export function slotCounter(prefix: string, typos: boolean): (title: string) => number {
  const typed = wordsOf(prefix);
  const edits = typos ? typosAllowed(typed) : 0;
  return (title) => suggestInputs(title).filter((input) => startsWithin(wordsOf(input), typed, edits)).length;
}

// Letters ASCII folding spells out that are no accented letter to take apart (NFKD leaves them).
const FOLDED: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', ł: 'l', đ: 'd', œ: 'oe', ß: 'ss', þ: 'th', ð: 'd', ı: 'i' };

function wordsOf(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[øæłđœßþðı]/g, (letter) => FOLDED[letter]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// Elasticsearch's AUTO: none up to two characters, one up to five, two beyond.
const typosAllowed = (prefix: string): number => (prefix.length <= 2 ? 0 : prefix.length <= 5 ? 1 : 2);

/**
 * Whether some beginning of `text` is within `edits` of `prefix` (insertions, deletions,
 * substitutions, swaps of neighbours), the first character alike.
 */
function startsWithin(text: string, prefix: string, edits: number): boolean {
  if (edits === 0 || prefix.length === 0) return text.startsWith(prefix);
  if (text[0] !== prefix[0]) return false;
  const limit = Math.min(text.length, prefix.length + edits);
  // distance[i][j]: edits between prefix[0..i) and text[0..j).
  const distance = Array.from({ length: prefix.length + 1 }, (_, i) => Array.from({ length: limit + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= prefix.length; i++) {
    for (let j = 1; j <= limit; j++) {
      const substitution = distance[i - 1]![j - 1]! + (prefix[i - 1] === text[j - 1] ? 0 : 1);
      let best = Math.min(distance[i - 1]![j]! + 1, distance[i]![j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && prefix[i - 1] === text[j - 2] && prefix[i - 2] === text[j - 1]) best = Math.min(best, distance[i - 2]![j - 2]! + 1);
      distance[i]![j] = best;
    }
  }
  return Math.min(...distance[prefix.length]!) <= edits;
}
