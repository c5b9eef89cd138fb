/** Whether each word matches some wallpaper as a search would match it typed; null where Elasticsearch did not say. */
export type WordsOccur = (words: readonly string[], timeoutMs: number) => Promise<(boolean | null)[]>;

export interface WordOccurrences {
  /**
   * Per word: whether it occurs, or null when Elasticsearch did not say (it failed or was late).
   * Words not known are asked in one request; searches asking at once share its answer.
   */
  of(words: readonly string[]): Promise<(boolean | null)[]>;
  /** Forgets the words found to occur: the catalogue may have lost some since. */
  forget(): void;
}

export interface WordOccurrencesOptions {
  wordsOccur: WordsOccur;
  /** How long an answer other than "occurs" stands: as long as a cached response may (RESPONSE_CACHE_CHECK_MS). */
  absentMs: number;
  /** How long "occurs" stands, unless forgotten before. */
  occursMs?: number;
}

// Asked with a budget of its own, before the search and on top of its budget: a hung
// Elasticsearch costs a search with such a word this much more, once per word for absentMs, since
// an answer not given stands for that long (later searches neither wait again nor change their
// answer page by page).
const OCCURS_TIMEOUT_MS = 200;
const MEMO = 10_000;

/**
 * Whether words occur, remembered. A word found to occur still does after an import in all but
 * rare cases, so it is remembered for occursMs or until forget(). Any other answer stands for
 * absentMs only: an import or a reindex may bring the word, and from then on searches must find it.
 */
export function createWordOccurrences({ wordsOccur, absentMs, occursMs = Infinity }: WordOccurrencesOptions): WordOccurrences {
  let occurring = new Map<string, number>();
  const settled = new Map<string, { occurs: false | null; until: number }>();
  const asking = new Map<string, Promise<boolean | null>>();

  /** What is known of a word now: true, false, null (not said), or undefined (not asked lately). */
  function known(word: string): boolean | null | undefined {
    if ((occurring.get(word) ?? 0) > Date.now()) return true;
    const answer = settled.get(word);
    return answer !== undefined && answer.until > Date.now() ? answer.occurs : undefined;
  }

  function ask(batch: readonly string[]): void {
    const answered = wordsOccur(batch, OCCURS_TIMEOUT_MS).catch(() => batch.map(() => null));
    batch.forEach((word, i) => {
      const answer = answered.then((answers) => {
        const occurs = answers[i] ?? null;
        if (occurs === true) {
          if (occurring.size >= MEMO) occurring.clear();
          occurring.set(word, Date.now() + occursMs);
        } else {
          if (settled.size >= MEMO) settled.clear();
          settled.set(word, { occurs, until: Date.now() + absentMs });
        }
        asking.delete(word);
        return occurs;
      });
      asking.set(word, answer);
    });
  }

  return {
    async of(words) {
      const toAsk = [...new Set(words)].filter((word) => known(word) === undefined && !asking.has(word));
      if (toAsk.length > 0) ask(toAsk);
      return Promise.all(words.map(async (word) => known(word) ?? (await asking.get(word)) ?? null));
    },
    forget() {
      occurring = new Map();
    },
  };
}
