import { share } from '../../infra/shared-result.js';

export interface PreparedQueriesOptions {
  /** Query strings remembered at most. */
  maxEntries: number;
  /** Longer query strings are never remembered. */
  maxQueryLength: number;
  /** Once full, the chance that a query string not remembered takes a place (see createPreparedQueries). */
  admitWhenFull: number;
  /** Tests replace it. */
  random?: () => number;
}

/** What every request with the same query string shares: its params are frozen and handed to all of them. */
export interface PreparedQuery<R> {
  request: R & { params: object };
  linkQuery: string;
}

// How many of the oldest entries admission looks at for one not hit since it was last passed over.
const SECOND_CHANCES = 8;

interface Entry<R> {
  prepared: PreparedQuery<R>;
  /** Hit since admission last passed over it. */
  hit: boolean;
}

/**
 * The validated request of each query string seen before, so a hot query skips validation,
 * digesting and spelling its next link (about 9 µs and 2 KB a request, measured).
 *
 * While there is room, every query string is kept. Once full, admission is scan-resistant and
 * spares what is hot:
 * - A query string not kept gets in only now and then (`admitWhenFull`). Keeping every miss is
 *   the textbook worst case of a loop over more distinct queries than fit: each is evicted just
 *   before it comes round again, so nothing ever hits, and every request pays to remember its
 *   query on top of preparing it (measured with 1,240 distinct searches over 1,000 places: no hit
 *   at all; bench/results/discovery-guardrail).
 * - What it replaces is the oldest entry not hit since admission last passed over it (second
 *   chance, as in CLOCK). An entry that was hit goes to the back instead. If the oldest
 *   SECOND_CHANCES entries were all hit, nothing is replaced.
 *
 * So a stable part of such a loop hits (about 1,000 of 1,240), a hot query stays however long
 * it has been kept, and a query that turns hot gets in after, on average, 1 / admitWhenFull of
 * its misses.
 */
export function createPreparedQueries<R>({ maxEntries, maxQueryLength, admitWhenFull, random = Math.random }: PreparedQueriesOptions) {
  const known = new Map<string, Entry<R>>();

  /** Frees one place, or says that the entries admission looked at are all hot. */
  function evictOne(): boolean {
    for (let looked = 0; looked < SECOND_CHANCES; looked++) {
      const [oldest, entry] = known.entries().next().value as [string, Entry<R>];
      known.delete(oldest);
      if (!entry.hit) return true;
      entry.hit = false;
      known.set(oldest, entry);
    }
    return false;
  }

  return {
    get(querystring: string): PreparedQuery<R> | undefined {
      const entry = known.get(querystring);
      if (entry === undefined) return undefined;
      entry.hit = true;
      return entry.prepared;
    },
    keep(querystring: string, prepared: PreparedQuery<R>): void {
      if (maxEntries < 1 || querystring.length > maxQueryLength || known.has(querystring)) return;
      if (known.size >= maxEntries && (random() >= admitWhenFull || !evictOne())) return;
      share(prepared.request.params);
      known.set(querystring, { prepared: Object.freeze(prepared), hit: false });
    },
    get size(): number {
      return known.size;
    },
  };
}
