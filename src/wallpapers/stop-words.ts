/**
 * Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), which the index drops as
 * well: a query made only of these has nothing to search for.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]); // prettier-ignore
