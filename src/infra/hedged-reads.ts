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
  /** Attempts sent again after a node's own failure (429, 5xx, no answer), the others having ended. */
  retried: number;
  /** Hedges and retries not sent for want of budget. */
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

/** Nodes an attempt may not be coordinated by, and nodes whose shard copies it should not read. */
interface Steering {
  coordinators: ReadonlySet<string>;
  copies: ReadonlySet<string>;
}
const UNSTEERED: Steering = { coordinators: NO_NODES, copies: NO_NODES };

interface SentAttempt {
  cause: 'first' | 'hedge' | 'reroute' | 'retry';
  controller: AbortController;
  route: { avoid: ReadonlySet<string>; coordinator?: string };
  copies: ReadonlySet<string>;
  done: boolean;
  /** When it was sent and when it ended, in milliseconds from the read's start; how it ended. */
  sentMs: number;
  endedMs?: number;
  outcome?: string;
}

const trails = new WeakMap<Error, string>();

/**
 * How a failed read's attempts went, for the log: each attempt's cause, coordinator, the nodes it
 * avoided, when it was sent and how and when it ended ("first@:9201 0-2504 TimeoutError; ...").
 * Undefined for an error that did not come out of a hedged read.
 */
export function attemptTrailOf(err: unknown): string | undefined {
  return err instanceof Error ? trails.get(err) : undefined;
}

/** A connection's id (its URL) short enough for a log line: the port and path. */
const shortId = (id: string) => id.replace(/^https?:\/\/[^:/]*/, '');

function describe(attempt: SentAttempt): string {
  const where = attempt.route.coordinator === undefined ? '?' : shortId(attempt.route.coordinator);
  const avoided = attempt.route.avoid.size === 0 ? '' : ` avoiding ${[...attempt.route.avoid].map(shortId).join(',')}`;
  return `${attempt.cause}@${where}${avoided} ${attempt.sentMs}-${attempt.endedMs ?? 'open'} ${attempt.outcome ?? 'pending'}`;
}

/**
 * Whether another node could answer what this attempt failed: not a refusal of the read itself
 * (400, 404: the same on every node), but a node's own trouble (429, 5xx, no answer).
 */
function retryable(err: unknown): boolean {
  if (!(err instanceof errors.ResponseError)) return !(err instanceof errors.RequestAbortedError);
  const status = err.statusCode ?? 500;
  return status === 429 || status >= 500;
}

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
  const stats = { reads: 0, hedges: 0, rerouted: 0, retried: 0, won: 0, skipped: 0 };
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
      const attempts: SentAttempt[] = [];
      let settled = false;
      let firstError: Error | undefined;
      const suspectsAtStart = watch.suspects();
      const timer = setTimeout(hedge, deadline.current());

      const finish = () => {
        settled = true;
        clearTimeout(timer);
        pending.delete(reroute);
        for (const attempt of attempts) if (!attempt.done) attempt.controller.abort();
      };

      /** Sends one more attempt, unless the read is out of time or attempts; says whether it did. */
      function launch(cause: SentAttempt['cause'], { coordinators, copies }: Steering): boolean {
        const remainingMs = budgetMs - (now() - started);
        if (attempts.length > 0 && (remainingMs <= 0 || attempts.length >= maxAttempts)) return false;
        const controller = new AbortController();
        const preference = watch.preferenceAvoiding(copies);
        const attemptMs = Math.max(1, remainingMs);
        const { route, result } = steered(coordinators, () =>
          read({ signal: controller.signal, remainingMs: attemptMs, ...(preference ? { preference } : {}) }),
        );
        const attempt: SentAttempt = { cause, controller, route, copies, done: false, sentMs: now() - started };
        attempts.push(attempt);
        result.then(
          (value) => {
            attempt.done = true;
            if (settled) return;
            if (cause === 'first') deadline.record(now() - started);
            else won(attempt);
            finish();
            resolve(value);
          },
          (err: unknown) => {
            attempt.done = true;
            attempt.endedMs = now() - started;
            const error = err instanceof Error ? err : new Error(String(err));
            attempt.outcome = error.name;
            if (settled) return;
            if (cause === 'first') firstError = error;
            else firstError ??= error;
            if (err instanceof errors.NoLivingConnectionsError && attempt.route.avoid.size > 0) {
              // The pool found no node outside those avoided: steer by the suspects alone, else not at all.
              const suspects = steering(false);
              if (launch(cause, attempt.route.avoid.size > suspects.coordinators.size ? suspects : UNSTEERED)) return;
            }
            if (!retryable(err)) {
              fail(error);
              return;
            }
            // A failure a node caused (a shard that timed out, a full queue): once more elsewhere, on the budget, once.
            const retried = attempts.some((a) => a.cause === 'retry');
            if (!retried && attempts.every((a) => a.done) && spend() && launch('retry', steering(true))) {
              stats.retried++;
              return;
            }
            if (attempts.every((a) => a.done)) fail(firstError ?? error);
          },
        );
        return true;
      }

      function fail(error: Error): void {
        finish();
        const unanswering = watch.unanswering();
        const suspects = [...watch.suspects()].map((id) => `${shortId(id)} ${unanswering.has(id) ? 'unanswering' : 'left out'}`);
        trails.set(error, [...attempts.map(describe), `suspects: ${suspects.join(', ') || 'none'}`].join('; '));
        reject(error);
      }

      /** An attempt other than the first answered: a hedge that beat its first attempt blames that coordinator. */
      function won(attempt: SentAttempt): void {
        stats.won++;
        const coordinator = attempts[0]!.route.coordinator;
        // A reroute or a retry says nothing of the first coordinator; nor does a hedge once a suspect
        // is known, since the first attempt may have waited on that suspect's shard copy.
        if (attempt.cause !== 'hedge' || coordinator === undefined) return;
        const suspects = watch.suspects();
        if ([...suspects].some((node) => !suspectsAtStart.has(node))) return;
        watch.blame(coordinator);
      }

      /**
       * Where the next attempt may not go. As coordinator: the suspects and, with `guess`, the
       * coordinators of the attempts so far. As shard copy: the nodes that do not answer when
       * there are any, else the suspects, or when none is known and `guess`, those coordinators
       * (one of them, or a copy it chose, is slow). Never every node.
       *
       * A node merely slow (left out for lost hedges) is not avoided as a copy beside one that does
       * not answer: with two of three nodes avoided, a shard whose two copies are on them has none
       * left to prefer, and Elasticsearch then picks either, the stopped one half the time (a
       * chaos soak's 503s: every attempt waited on the stopped node's copies).
       */
      function steering(guess: boolean): Steering {
        const suspects = watch.suspects();
        const nodeCount = watch.connections().length;
        // Those that do not answer are suspects too: none to ask for on the common path, no suspect.
        const unanswering = suspects.size === 0 ? NO_NODES : watch.unanswering();
        if (suspects.size >= nodeCount) {
          // Every node a suspect: still keep clear of those that do not answer, if any answer.
          if (unanswering.size === 0 || unanswering.size >= nodeCount) return UNSTEERED;
          return { coordinators: unanswering, copies: unanswering };
        }
        const copies = unanswering.size > 0 ? unanswering : suspects;
        if (!guess) return { coordinators: suspects, copies };
        const coordinators = new Set(suspects);
        for (const { route } of attempts)
          if (route.coordinator !== undefined && coordinators.size + 1 < nodeCount) coordinators.add(route.coordinator);
        return { coordinators, copies: copies.size > 0 ? copies : coordinators };
      }

      function spend(): boolean {
        if (tokens < 1) {
          stats.skipped++;
          return false;
        }
        tokens -= 1;
        return true;
      }

      function hedge(): void {
        if (settled || !spend()) return;
        if (launch('hedge', steering(true))) stats.hedges++;
      }

      function reroute(): void {
        if (settled) return;
        const suspects = watch.suspects();
        const unanswering = watch.unanswering();
        // Sent again only when no attempt in flight was already steered clear of every suspect
        // (as a copy too, for those that do not answer).
        const clear = attempts.some((a) => !a.done && [...suspects].every((s) => a.route.avoid.has(s) && (a.copies.has(s) || !unanswering.has(s))));
        if (clear) return;
        if (launch('reroute', steering(false))) stats.rerouted++;
      }

      pending.add(reroute);
      launch('first', steering(false));
    });
  }

  return { run, stats: () => ({ ...stats, deadlineMs: deadline.current() }) };
}
