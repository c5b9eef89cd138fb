import { errors } from '@elastic/elasticsearch';
import { type NodeWatch, steered } from './es-nodes.js';
import { createLatencyDeadline } from './latency-deadline.js';

/** What one attempt of a read is given: where its shard copies should be read, and its own time. */
export interface Attempt {
  /** A `preference` steering shard reads away from suspect nodes, or undefined (Elasticsearch chooses). */
  preference?: string;
  /** Aborted when another attempt answered first; absent when the read is never hedged. */
  signal?: AbortSignal;
  /** What is left of the read's budget when this attempt starts. */
  remainingMs: number;
}

export interface HedgeOptions {
  /** Bounds of the hedge deadline (latency-deadline.ts). */
  floorMs: number;
  ceilingMs: number;
  /** Hedges earned by each read (0.05: at most 5 % of reads once a burst is spent). */
  share: number;
  /** Hedges that may be spent at once, earned back at `share` a read. */
  burst: number;
  /** Attempts per read at most, the first included. */
  maxAttempts: number;
  now?: () => number;
}

export const HEDGE_DEFAULTS: HedgeOptions = { floorMs: 100, ceilingMs: 500, share: 0.05, burst: 10, maxAttempts: 3 };

export interface HedgeStats {
  reads: number;
  /** Second attempts sent because the first had not answered by the deadline. */
  hedges: number;
  /** Attempts sent because a node that earlier attempts could be waiting on became a suspect. */
  rerouted: number;
  /** Reads answered by an attempt other than the first. */
  won: number;
  /** Hedges not sent for want of budget. */
  skipped: number;
  /** The current deadline, in milliseconds. */
  deadlineMs: number;
}

export interface HedgedReads {
  /**
   * Runs a read (it must be safe to run twice), with `budgetMs` to answer. See createHedgedReads.
   * A read's failure is its first attempt's, unless a later attempt answers.
   */
  run<T>(read: (attempt: Attempt) => Promise<T>, budgetMs: number): Promise<T>;
  stats(): HedgeStats;
}

const NO_NODES: ReadonlySet<string> = new Set();

/**
 * Hedged reads (Dean and Barroso, "The Tail at Scale"). A read that has not answered by the
 * deadline is sent again, coordinated by another node and steered (`preference`) to shard copies on
 * other nodes than the first attempt's coordinator and any suspect; the first answer wins and the
 * others are aborted. A stopped node answers nothing and fails nothing, so without this every read
 * that reached it waited out its budget (docs/faults.md, case b).
 *
 * Hedges are bounded: each read earns `share` of one, and at most `burst` are saved, so a cluster
 * that is slow everywhere gets at most 5 % more reads, not twice as many. When the node watch makes
 * a node a suspect, reads that could be waiting on it are sent again at once, whatever the budget
 * (that is one attempt per read in flight, once per node failure). A node whose reads keep being
 * won by hedges is blamed, and left out for a while (es-nodes.ts). With one node there is nowhere
 * else to send a read: it runs once, as it is.
 */
export function createHedgedReads(nodes: NodeWatch | null, options: HedgeOptions = HEDGE_DEFAULTS): HedgedReads {
  const { floorMs, ceilingMs, share, burst, maxAttempts, now = Date.now } = options;
  const deadline = createLatencyDeadline({ floorMs, ceilingMs, now });
  const stats = { reads: 0, hedges: 0, rerouted: 0, won: 0, skipped: 0 };
  let tokens = burst;
  const pending = new Set<() => void>();
  nodes?.onSuspect(() => {
    for (const reroute of pending) reroute();
  });

  async function run<T>(read: (attempt: Attempt) => Promise<T>, budgetMs: number): Promise<T> {
    stats.reads++;
    tokens = Math.min(burst, tokens + share);
    if (nodes === null || nodes.connections().length < 2) {
      return read({ remainingMs: budgetMs });
    }
    const watch = nodes;
    const started = now();
    return new Promise<T>((resolve, reject) => {
      const attempts: { controller: AbortController; route: { avoid: ReadonlySet<string>; coordinator?: string }; done: boolean }[] = [];
      let settled = false;
      let firstError: Error | undefined;
      const timer = setTimeout(hedge, deadline.current());

      const finish = () => {
        settled = true;
        clearTimeout(timer);
        pending.delete(reroute);
        for (const attempt of attempts) if (!attempt.done) attempt.controller.abort();
      };

      /** Sends one more attempt, unless the read is out of time or attempts; says whether it did. */
      function launch(avoid: ReadonlySet<string>): boolean {
        const remainingMs = budgetMs - (now() - started);
        if (attempts.length > 0 && (remainingMs <= 0 || attempts.length >= maxAttempts)) return false;
        const controller = new AbortController();
        const preference = watch.preferenceAvoiding(avoid);
        const attemptMs = Math.max(1, remainingMs);
        const { route, result } = steered(avoid, () =>
          read({ signal: controller.signal, remainingMs: attemptMs, ...(preference ? { preference } : {}) }),
        );
        const attempt = { controller, route, done: false };
        const position = attempts.push(attempt) - 1;
        result.then(
          (value) => {
            attempt.done = true;
            if (settled) return;
            if (position === 0) deadline.record(now() - started);
            else {
              stats.won++;
              if (attempts[0]!.route.coordinator !== undefined) watch.blame(attempts[0]!.route.coordinator);
            }
            finish();
            resolve(value);
          },
          (err: unknown) => {
            attempt.done = true;
            if (settled) return;
            const error = err instanceof Error ? err : new Error(String(err));
            if (position === 0) firstError = error;
            else firstError ??= error;
            // Steered clear of every node the pool would still use: the read goes wherever the client sends it.
            if (err instanceof errors.NoLivingConnectionsError && attempt.route.avoid.size > 0 && launch(NO_NODES)) return;
            // A refusal of the read itself (a bad request, a missing index) is the same on every node.
            if (err instanceof errors.ResponseError && err.statusCode !== undefined && err.statusCode < 500) {
              finish();
              reject(err);
            } else if (attempts.every((a) => a.done)) {
              finish();
              reject(firstError);
            }
          },
        );
        return true;
      }

      /**
       * Where the next attempt must not go: the suspects, and with `guess`, the coordinators of the
       * attempts so far (one of them, or a shard copy they chose, is slow), as long as a node is left.
       */
      const avoiding = (guess: boolean): ReadonlySet<string> => {
        const suspects = watch.suspects();
        const nodeCount = watch.connections().length;
        if (suspects.size >= nodeCount) return NO_NODES;
        if (!guess) return suspects;
        const avoid = new Set(suspects);
        for (const { route } of attempts) if (route.coordinator !== undefined && avoid.size + 1 < nodeCount) avoid.add(route.coordinator);
        return avoid;
      };

      function hedge(): void {
        if (settled) return;
        if (tokens < 1) {
          stats.skipped++;
          return;
        }
        tokens -= 1;
        stats.hedges++;
        launch(avoiding(true));
      }

      function reroute(): void {
        if (settled) return;
        const suspects = watch.suspects();
        // Sent again only when no attempt in flight was already steered clear of every suspect.
        const clear = attempts.some((a) => !a.done && [...suspects].every((s) => a.route.avoid.has(s)));
        if (clear) return;
        stats.rerouted++;
        launch(avoiding(false));
      }

      pending.add(reroute);
      launch(avoiding(false));
    });
  }

  return { run, stats: () => ({ ...stats, deadlineMs: deadline.current() }) };
}
