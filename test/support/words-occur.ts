import type { WordsOccur } from '../../src/wallpapers/domain/word-occurrences.js';

/**
 * Elasticsearch's answer to whether words occur, as a catalogue holding `present` would give it
 * (read at each call, so a test can add a word later), with every question it was asked.
 */
export function occurringIn(present: readonly string[]): WordsOccur & { asked: string[][] } {
  const asked: string[][] = [];
  return Object.assign(
    (words: readonly string[]) => {
      asked.push([...words]);
      return Promise.resolve(words.map((word) => present.includes(word)));
    },
    { asked },
  );
}
